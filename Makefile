# Two commands: `make run` (install and start the bot), `make test` (install and run every test).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test install install-test migrate

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

install: $(BIN)/python
	$(BIN)/pip install -q -e .
	@test -f .env || cp .env.example .env

install-test: $(BIN)/python
	$(BIN)/pip install -q -e ".[test]"

run: install
	$(BIN)/python bot.py

migrate: install
	$(BIN)/python bot.py migrate

test: install-test
	$(BIN)/python -m pytest -q

# Load benchmarks through the real WebSocket (bench/run.py; figures in bench/RESULTS.md). Not a test.
.PHONY: bench
bench: install-test
	$(BIN)/python bench/run.py
