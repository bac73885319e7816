# Set-up and everyday commands. Every target creates its own virtual environment (.venv).
# .venv is an editable, pure-Python install: edits to src/ take effect at once. The compiled
# build (mypyc, see setup.py) is tested from a wheel installed in .venv-compiled, so no compiled
# module ever lies in src/ where it would shadow the sources.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
EXTRAS ?= dev
COMPILED_VENV := .venv-compiled
CBIN := $(COMPILED_VENV)/bin
CSTAMP := $(COMPILED_VENV)/.installed
CDEPS := $(COMPILED_VENV)/.dependencies
WHEEL_STAMP := dist/.built
# every file of the package goes into the wheel: a change to any of them rebuilds it
PACKAGE_SOURCES := setup.py pyproject.toml $(shell find src/canasta -type f -not -path '*/__pycache__/*')
PYTEST_ARGS := -m "not slow and not ray" -n 2 -rs

.PHONY: help venv compiled dist test test-pure test-compiled test-slow test-web lint typecheck \
	bench conformance play serve clean

help:
	@echo "make play         start a game of Canasta in the terminal (PLAY_ARGS=\"--opponents hard\")"
	@echo "make serve        start the web table on http://127.0.0.1:8000 (SERVE_ARGS=\"--port 8080\")"
	@echo "make test         lint, type-check and run the default test suite on both builds"
	@echo "make compiled     build the wheel (core compiled with mypyc) into .venv-compiled"
	@echo "make dist         the wheel and the sdist in dist/ (python -m build)"
	@echo "make test-slow    run the long suites too (marked slow)"
	@echo "make test-web     the web table's tests only (PostgreSQL ones need CANASTA_TEST_POSTGRES_URL)"
	@echo "make bench        random playout, pure and compiled builds, against OpenSpiel gin rummy"
	@echo "make conformance  the command-line contract sample of docs/notation.md"

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	CANASTA_PURE=1 $(BIN)/pip install --quiet -e ".[$(EXTRAS)]"
	touch $(STAMP)

venv: $(STAMP)

# The wheel (compiled where a C compiler is found) and the sdist, from the sources of the tree.
$(WHEEL_STAMP): $(STAMP) $(PACKAGE_SOURCES)
	rm -rf dist
	$(BIN)/python -m build --outdir dist . > build.log 2>&1 || (cat build.log; exit 1)
	touch $(WHEEL_STAMP)

dist: $(WHEEL_STAMP)

# The test dependencies once (again when pyproject.toml changes), then each fresh wheel over them.
$(CDEPS): pyproject.toml | $(WHEEL_STAMP)
	[ -x $(CBIN)/python ] || $(PYTHON) -m venv $(COMPILED_VENV)
	$(CBIN)/pip install --quiet --upgrade pip
	$(CBIN)/pip install --quiet "$$(ls dist/canasta-*.whl)[$(EXTRAS)]"
	touch $(CDEPS)

$(CSTAMP): $(CDEPS) $(WHEEL_STAMP)
	$(CBIN)/pip install --quiet --force-reinstall --no-deps dist/canasta-*.whl
	touch $(CSTAMP)

compiled: $(CSTAMP)

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples

typecheck: $(STAMP)
	$(BIN)/mypy

# As root on Debian, the system test services (PostgreSQL, Chromium) are installed and started
# first; elsewhere the tests that need them are skipped, each with its reason in the summary.
# The suite runs twice: on the pure sources (with the checks that compare the two builds), then
# on the compiled build.
test: lint typecheck $(CSTAMP)
	@if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then scripts/services.sh; fi
	$(MAKE) --no-print-directory test-pure test-compiled

test-pure: $(STAMP)
	set -a; [ ! -f .services.env ] || . ./.services.env; set +a; \
	CANASTA_COMPILED_PYTHON=$(CURDIR)/$(CBIN)/python $(BIN)/pytest $(PYTEST_ARGS)
	$(BIN)/pytest -m "ray and not slow" -rs

test-compiled: $(CSTAMP)
	set -a; [ ! -f .services.env ] || . ./.services.env; set +a; \
	CANASTA_EXPECT_COMPILED=1 $(CBIN)/python -m pytest $(PYTEST_ARGS) -p no:cacheprovider

test-slow: $(STAMP)
	$(BIN)/pytest -m slow -n 2 -rs

test-web: $(STAMP)
	$(BIN)/pytest tests/web -n 2 -rs

conformance: $(STAMP)
	$(BIN)/python ../shared/conformance/cli_contract.py $(BIN)/canasta

# The pure build (.venv) and the compiled one (.venv-compiled) side by side, with OpenSpiel's
# gin rummy, in one run on one core.
bench: $(STAMP) $(CSTAMP)
	CANASTA_PURE=1 $(BIN)/pip install --quiet -e ".[dev,bench]"
	$(BIN)/python benchmarks/random_playout.py --rules classic --seconds 20 --also $(CBIN)/python

# make play PLAY_ARGS="--opponents hard --resume ~/.local/share/canasta/games/FILE.json"
PLAY_ARGS ?=
play: $(STAMP)
	$(BIN)/canasta play $(PLAY_ARGS)

# make serve SERVE_ARGS="--port 8080 --database postgresql://user:pw@localhost/canasta"
SERVE_ARGS ?=
serve: $(STAMP)
	$(BIN)/canasta serve $(SERVE_ARGS)

clean:
	rm -rf $(VENV) $(COMPILED_VENV) build dist build.log .pytest_cache .mypy_cache .ruff_cache
