# The two set-up commands are `make demo` and `make test`; both install missing Debian packages
# first (scripts/ensure-deps.sh).
SWIFT ?= swift
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
BIN = $(shell $(SWIFT) build --show-bin-path)
DEMO_DIR = .build/demo
SAMPLE = Samples/runs/cold-launch-scenes.jsonl

.PHONY: deps build release test demo bench clean

deps:
	@scripts/ensure-deps.sh

build: deps
	$(SWIFT) build --product lifetrace
	$(SWIFT) build --product SampleApp

release: deps
	$(SWIFT) build -c release --product lifetrace

# Swift Testing reports every test; keep the failures and the summary.
test: deps
	@$(SWIFT) build --build-tests --quiet
	@$(SWIFT) test --skip-build 2>&1 | { grep -vE '^[[:space:]]*(◇|✔ Test [^r]|✔ Suite|↳|Test Suite|Executed|\[)' || true; }

demo: build
	@mkdir -p $(DEMO_DIR)
	@echo "$$ lifetrace synth --events 20000 --seed 1 -o $(DEMO_DIR)/synth.jsonl"
	@$(BIN)/lifetrace synth --events 20000 --seed 1 -o $(DEMO_DIR)/synth.jsonl
	@echo "$$ head -3 $(DEMO_DIR)/synth.jsonl"
	@head -3 $(DEMO_DIR)/synth.jsonl
	@echo "$$ lifetrace report $(SAMPLE)"
	@$(BIN)/lifetrace report $(SAMPLE)
	@echo "$$ lifetrace check $(DEMO_DIR)/synth.jsonl Samples/runs"
	@$(BIN)/lifetrace check $(DEMO_DIR)/synth.jsonl Samples/runs
	@echo "$$ lifetrace record -o $(DEMO_DIR)/sample.ltrace -- SampleApp"
	@rm -rf $(DEMO_DIR)/sample-data
	@SAMPLE_APP_DATA=$(DEMO_DIR)/sample-data $(BIN)/lifetrace record -o $(DEMO_DIR)/sample.ltrace -- $(BIN)/SampleApp
	@echo "$$ lifetrace check $(DEMO_DIR)/sample.ltrace"
	@$(BIN)/lifetrace check $(DEMO_DIR)/sample.ltrace
	@echo "$$ lifetrace record -o $(DEMO_DIR)/heavy.ltrace -- SampleApp --heavy-launch"
	@SAMPLE_APP_DATA=$(DEMO_DIR)/sample-data $(BIN)/lifetrace record -o $(DEMO_DIR)/heavy.ltrace -- $(BIN)/SampleApp --heavy-launch
	@echo "$$ lifetrace report $(DEMO_DIR)/heavy.ltrace"
	@$(BIN)/lifetrace report $(DEMO_DIR)/heavy.ltrace

bench: deps
	$(SWIFT) package --package-path Benchmarks benchmark

clean:
	rm -rf .build $(DEMO_DIR)
