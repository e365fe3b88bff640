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

release: deps
	$(SWIFT) build -c release --product lifetrace

# Swift Testing reports every test; keep the failures and the summary.
test:
	@scripts/ensure-deps.sh --test
	@$(SWIFT) build --build-tests --quiet
	@$(SWIFT) test --skip-build 2>&1 | { grep -vE '^[[:space:]]*(◇|✔ Test [^r]|✔ Suite|↳|Test Suite|Executed|\[)' || true; }

demo: build
	@mkdir -p $(DEMO_DIR)
	@echo "$$ lifetrace synth --events 20000 --seed 1 -o $(DEMO_DIR)/synth.jsonl"
	@$(BIN)/lifetrace synth --events 20000 --seed 1 -o $(DEMO_DIR)/synth.jsonl
	@echo "$$ head -3 $(DEMO_DIR)/synth.jsonl"
	@head -3 $(DEMO_DIR)/synth.jsonl

bench: deps
	$(SWIFT) package --package-path Benchmarks benchmark

clean:
	rm -rf .build $(DEMO_DIR)
