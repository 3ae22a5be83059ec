# The two entry points are `make demo` and `make test`; both set themselves up first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# One virtualenv, two stamps: the demo installs only the core, the tests add every extra
# they exercise and the tools that check the code. Each stamp is redone only when the
# project definition changes, so repeated runs are fast.
DEMO_STAMP := $(VENV)/.installed-demo
TEST_STAMP := $(VENV)/.installed-test

.PHONY: install demo test lint typecheck unit bench clean

install: $(TEST_STAMP)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Hooks start a fresh interpreter on every prompt: compile once at install so they never
# compile from source (PYTHONDONTWRITEBYTECODE would otherwise keep it from caching).
$(DEMO_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	$(BIN)/python -m compileall -q src
	touch $@

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,mcp,embed,web]'
	$(BIN)/python -m compileall -q src
	touch $@ $(DEMO_STAMP)

demo: $(DEMO_STAMP)
	$(BIN)/python -m workmem.demo

lint: install
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: install
	$(BIN)/mypy

unit: install
	$(BIN)/pytest -q

test: lint typecheck unit

# Figures, not pass/fail: each script prints what it measured against its target.
bench: install
	$(BIN)/python bench/board.py
	$(BIN)/python bench/hooks.py
	$(BIN)/python bench/journal.py
	$(BIN)/python bench/transcripts.py
	$(BIN)/python bench/search_scale.py --embedder none
	$(BIN)/python bench/transcript_size.py --huge-mb 100
	if [ -d ../shared/data/continuity ]; then \
		$(BIN)/workmem bench continuity --data ../shared/data/continuity; fi

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build src/*.egg-info
