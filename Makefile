# Two commands: `make run` (install and start the bot), `make test` (install and run every test).
# `make demo`: the rehearsal room (the bot and a fake QQ in the browser, loopback only).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test test-postgres install install-test migrate demo lint lock
DEMO_HOST ?= 127.0.0.1
DEMO_PORT ?= 8765

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# requirements.lock pins every package (reproducible installs); refresh it with `make lock`.
install: $(BIN)/python
	$(BIN)/pip install -q -c requirements.lock -e ".[postgres,pictures]"
	@test -f .env || cp .env.example .env

install-test: $(BIN)/python
	$(BIN)/pip install -q -c requirements.lock -e ".[test]"
	$(BIN)/python tests/demo/browser_setup.py  # Debian's chromium + fonts-noto-cjk via apt-get when missing (as root)
	$(BIN)/python tests/deploy/systemd_setup.py  # Debian's systemd (systemd-analyze verify) via apt-get when missing (as root)

run: install
	$(BIN)/python bot.py

demo: install
	$(BIN)/python -m demo --host $(DEMO_HOST) --port $(DEMO_PORT)

migrate: install
	$(BIN)/python bot.py migrate

test: install-test
	$(BIN)/python -m pytest -q

# The kernel's and the whole-game tests again on PostgreSQL (a database of their own, created and
# dropped; needs PostgreSQL on 127.0.0.1:5432 as user postgres, or PG_ADMIN=postgresql://…/postgres).
test-postgres: install-test
	TEST_POSTGRES=1 $(BIN)/python -m pytest -q tests/kernel tests/games

# Lint and types (ruff, mypy; settings in pyproject.toml). CI runs it before the tests.
lint: install-test
	$(BIN)/ruff check plugins bot.py demo
	$(BIN)/mypy

# Load benchmarks through the real WebSocket (bench/run.py; figures in bench/RESULTS.md). Not a test.
.PHONY: bench
bench: install-test
	$(BIN)/python bench/run.py

lock: install-test
	$(BIN)/pip freeze --exclude-editable | grep -v "^-e" > requirements.lock
