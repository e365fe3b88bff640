# The two set-up commands are `make demo` and `make test`; both install missing Debian packages
# first (scripts/ensure-deps.sh; `make test` also the independent readers its tests use).
SWIFT ?= swift
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
BIN = $(shell $(SWIFT) build --show-bin-path)
DEMO_DIR = .build/demo
SAMPLE = Samples/runs/cold-launch-scenes.jsonl

.PHONY: deps test-deps build release test demo bench fuzz fuzz-build fuzz-check fuzz-jsonl fuzz-binary fuzz-reports fuzz-exports fuzz-regions fuzz-rules clean

deps:
	@scripts/ensure-deps.sh

test-deps:
	@scripts/ensure-deps.sh --tests

build: deps
	$(SWIFT) build --product lifetrace
	$(SWIFT) build --product SampleApp

release: deps
	$(SWIFT) build -c release --product lifetrace

# Swift Testing reports every test; keep the failures (with their details) and the summary.
# Then the Spark job in local mode against `lifetrace report` (docs/SPARK.md).
test: test-deps
	@$(SWIFT) build --build-tests --quiet
	@$(SWIFT) test --skip-build 2>&1 \
		| awk -f scripts/test-summary.awk
	@$(MAKE) --no-print-directory fuzz-check
	@python3 integrations/spark/test_lifetrace_summary.py --lifetrace $(BIN)/lifetrace

# Imports a sample run into a binary trace and shows its info and first events; records the sample
# app under the default scenario and shows its analysis; checks a synthesized trace and the samples;
# then a team's rule file (docs/RULES.md) catches its own invariant in one of two sample traces.
demo: deps
	@$(SWIFT) build --quiet --product lifetrace
	@$(SWIFT) build --quiet --product SampleApp
	@mkdir -p $(DEMO_DIR)
	@echo "$$ lifetrace import $(SAMPLE) -o $(DEMO_DIR)/cold-launch.ltrace"
	@$(BIN)/lifetrace import $(SAMPLE) -o $(DEMO_DIR)/cold-launch.ltrace
	@echo "$$ lifetrace info $(DEMO_DIR)/cold-launch.ltrace"
	@$(BIN)/lifetrace info $(DEMO_DIR)/cold-launch.ltrace
	@echo "$$ lifetrace dump $(DEMO_DIR)/cold-launch.ltrace --format text | head -20"
	@$(BIN)/lifetrace dump $(DEMO_DIR)/cold-launch.ltrace --format text -o $(DEMO_DIR)/cold-launch.txt
	@head -20 $(DEMO_DIR)/cold-launch.txt
	@echo "$$ lifetrace record -o $(DEMO_DIR)/run.ltrace -- SampleApp"
	@$(BIN)/lifetrace record -o $(DEMO_DIR)/run.ltrace -- $(BIN)/SampleApp
	@echo "$$ lifetrace report $(DEMO_DIR)/run.ltrace"
	@$(BIN)/lifetrace report $(DEMO_DIR)/run.ltrace
	@echo "$$ lifetrace synth --events 20000 --seed 1 -o $(DEMO_DIR)/synth.ltrace"
	@$(BIN)/lifetrace synth --events 20000 --seed 1 -o $(DEMO_DIR)/synth.ltrace
	@echo "$$ lifetrace check $(DEMO_DIR)/synth.ltrace Samples/runs"
	@$(BIN)/lifetrace check $(DEMO_DIR)/synth.ltrace Samples/runs
	@echo "$$ head -9 Samples/rules/team.yml"
	@head -9 Samples/rules/team.yml
	@echo "$$ lifetrace check --rules Samples/rules/team.yml Samples/rules/traces/save-state-before-suspension.{pass,fail}.jsonl"
	@$(BIN)/lifetrace check --rules Samples/rules/team.yml Samples/rules/traces/save-state-before-suspension.{pass,fail}.jsonl \
		|| test $$? -eq 1
	@rm -rf $(DEMO_DIR)/builds $(DEMO_DIR)/history.sqlite*
	@echo "$$ scripts/make-history-builds.py $(DEMO_DIR)/builds --builds 20 --runs 8 --regression 11"
	@python3 scripts/make-history-builds.py $(DEMO_DIR)/builds --builds 20 --runs 8 --regression 11
	@echo "$$ for n in 01 02 ... 20; do lifetrace history add --history $(DEMO_DIR)/history.sqlite --build \$$n --commit c0ffee\$$n $(DEMO_DIR)/builds/build-\$$n; done"
	@for n in $$(seq -w 1 20); do \
		$(BIN)/lifetrace history add --no-config --history $(DEMO_DIR)/history.sqlite --build $$n --commit c0ffee$$n \
			$(DEMO_DIR)/builds/build-$$n > /dev/null || exit 1; \
	done
	@echo "$$ lifetrace history show --history $(DEMO_DIR)/history.sqlite"
	@$(BIN)/lifetrace history show --no-config --history $(DEMO_DIR)/history.sqlite
	@$(BIN)/lifetrace history show --no-config --history $(DEMO_DIR)/history.sqlite --format html -o $(DEMO_DIR)/history.html
	@echo "(the charts: $(DEMO_DIR)/history.html)"

bench: deps
	$(SWIFT) package --package-path Benchmarks benchmark

# Fuzzes the JSONL importer, the binary reader, the whole pipeline after them (reports,
# exports) and rule files for FUZZ_SECONDS each, one target at a time (docs/FUZZING.md); the committed seeds are
# copied so that the inputs libFuzzer finds stay out of the repository.
FUZZ_SECONDS ?= 600
FUZZ_BIN = $$(cd Fuzz && $(SWIFT) build --sanitize=fuzzer --show-bin-path)
fuzz: fuzz-jsonl fuzz-binary fuzz-reports fuzz-exports fuzz-regions fuzz-rules

fuzz-build: deps
	cd Fuzz && $(SWIFT) build --sanitize=fuzzer

# Builds the fuzz targets without the fuzzer's instrumentation, in a build directory of their own
# (so `fuzz-build`'s stays as it is): part of `make test`, so that a change to the main package's
# API cannot leave the fuzz targets broken unnoticed.
fuzz-check:
	@cd Fuzz && $(SWIFT) build --quiet --scratch-path .build/check

fuzz-jsonl: fuzz-build
	@mkdir -p .build/fuzz/jsonl && cp Fuzz/Corpus/jsonl/* .build/fuzz/jsonl/
	$(FUZZ_BIN)/JSONLFuzzer .build/fuzz/jsonl -dict=Fuzz/jsonl.dict \
		-max_total_time=$(FUZZ_SECONDS) -max_len=8192 -timeout=10 -rss_limit_mb=2048

fuzz-binary: fuzz-build
	@mkdir -p .build/fuzz/binary && cp Fuzz/Corpus/binary/* .build/fuzz/binary/
	$(FUZZ_BIN)/BinaryFuzzer .build/fuzz/binary -dict=Fuzz/binary.dict \
		-max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 -rss_limit_mb=2048

fuzz-reports: fuzz-build
	@mkdir -p .build/fuzz/reports && cp Fuzz/Corpus/pipeline/* .build/fuzz/reports/
	$(FUZZ_BIN)/ReportFuzzer .build/fuzz/reports -dict=Fuzz/jsonl.dict \
		-max_total_time=$(FUZZ_SECONDS) -max_len=16384 -timeout=20 -rss_limit_mb=1024

fuzz-exports: fuzz-build
	@mkdir -p .build/fuzz/exports && cp Fuzz/Corpus/pipeline/* .build/fuzz/exports/
	$(FUZZ_BIN)/ExportFuzzer .build/fuzz/exports -dict=Fuzz/jsonl.dict \
		-max_total_time=$(FUZZ_SECONDS) -max_len=16384 -timeout=20 -rss_limit_mb=1024

fuzz-regions: fuzz-build
	@mkdir -p .build/fuzz/regions && cp Fuzz/Corpus/region/* .build/fuzz/regions/
	$(FUZZ_BIN)/RegionFuzzer .build/fuzz/regions \
		-max_total_time=$(FUZZ_SECONDS) -max_len=16384 -timeout=20 -rss_limit_mb=1024

fuzz-rules: fuzz-build
	@mkdir -p .build/fuzz/rules && cp Fuzz/Corpus/rules/* .build/fuzz/rules/
	$(FUZZ_BIN)/RuleFileFuzzer .build/fuzz/rules -dict=Fuzz/rules.dict \
		-max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=20 -rss_limit_mb=1024

clean:
	rm -rf .build $(DEMO_DIR)
