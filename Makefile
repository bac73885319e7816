# Set-up and everyday commands. Every target creates its own virtual environment (.venv).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
EXTRAS ?= dev

.PHONY: help venv test test-slow test-web lint typecheck bench conformance play serve clean

help:
	@echo "make play         start a game of Canasta in the terminal (PLAY_ARGS=\"--opponents hard\")"
	@echo "make serve        start the web table on http://127.0.0.1:8000 (SERVE_ARGS=\"--port 8080\")"
	@echo "make test         lint, type-check and run the default test suite"
	@echo "make test-slow    run the long suites too (marked slow)"
	@echo "make test-web     the web table's tests only (PostgreSQL ones need CANASTA_TEST_POSTGRES_URL)"
	@echo "make bench        random-playout benchmark against OpenSpiel gin rummy"
	@echo "make conformance  the command-line contract sample of docs/notation.md"

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[$(EXTRAS)]"
	touch $(STAMP)

venv: $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples

typecheck: $(STAMP)
	$(BIN)/mypy

# As root on Debian, the system test services (PostgreSQL, Chromium) are installed and started
# first; elsewhere the tests that need them are skipped, each with its reason in the summary.
test: lint typecheck
	@if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then scripts/services.sh; fi
	set -a; [ ! -f .services.env ] || . ./.services.env; set +a; \
	$(BIN)/pytest -m "not slow and not ray" -n 2 -rs
	$(BIN)/pytest -m "ray and not slow" -rs

test-slow: $(STAMP)
	$(BIN)/pytest -m slow -n 2 -rs

test-web: $(STAMP)
	$(BIN)/pytest tests/web -n 2 -rs

conformance: $(STAMP)
	$(BIN)/python ../shared/conformance/cli_contract.py $(BIN)/canasta

bench: $(STAMP)
	$(BIN)/pip install --quiet -e ".[dev,bench]"
	$(BIN)/python benchmarks/random_playout.py --rules classic --seconds 20

# make play PLAY_ARGS="--opponents hard --resume ~/.local/share/canasta/games/FILE.json"
PLAY_ARGS ?=
play: $(STAMP)
	$(BIN)/canasta play $(PLAY_ARGS)

# make serve SERVE_ARGS="--port 8080 --database postgresql://user:pw@localhost/canasta"
SERVE_ARGS ?=
serve: $(STAMP)
	$(BIN)/canasta serve $(SERVE_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
