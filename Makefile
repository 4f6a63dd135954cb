# loopopt: `make demo` runs the main job on a shipped example, `make test` runs every test.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
JOBS   ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: demo test lit pytest bench clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

demo: $(BIN)/.installed
	$(BIN)/loop-run examples/sum_of_squares.mlir --print-c

test: $(BIN)/.installed
	$(BIN)/lit test/filecheck -sv --time-tests -j $(JOBS)
	$(BIN)/python -m pytest -n $(JOBS) -q --durations=30

bench: $(BIN)/.installed
	$(BIN)/pip install --quiet -e '.[bench]'
	$(BIN)/loop-bench

clean:
	rm -rf $(VENV) build *.egg-info

# `make fuzz`: the differential fuzzer (docs/fuzzing.md) for FUZZ_BUDGET with a fresh seed;
# minimized failures and summary.json go to fuzz-out/.
FUZZ_BUDGET ?= 10m
.PHONY: fuzz
fuzz: $(BIN)/.installed
	$(BIN)/loop-fuzz --budget $(FUZZ_BUDGET) --out fuzz-out
