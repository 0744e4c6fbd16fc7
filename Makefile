# Rollbook: `make serve` and `make test` set everything up themselves on a fresh machine.
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
BIN := $(VENV)/bin
CHROMIUM ?= /usr/bin/chromium
HOST ?= 127.0.0.1:8000
# What `make test` runs beside pytest writes here (ignored by git); printed at the end.
BESIDE_LOG := .test-beside.log
# Material 9.7+ prints an end-of-life banner on every build; it is known and tracked, not news.
export NO_MKDOCS_2_WARNING := 1

.PHONY: help setup chromium build serve test test-fast test-pyodide bench clean

help:
	@echo "make serve   build the site and serve it on http://$(HOST)"
	@echo "make test    run the whole suite (engine, Pyodide, site, browser, workflows)"
	@echo "make test-fast  the quick loop: engine, widgets on Node, site checks (no browser), under 2 minutes"
	@echo "make build   build the site into site/"
	@echo "make bench   run the benchmarks (see benchmarks/README.md)"

# --- set-up -------------------------------------------------------------------------------
$(VENV)/.installed: pyproject.toml
	@# Debian/Ubuntu ship venv apart (python3-venv): install it when it is missing and we are root
	$(PYTHON) -m venv $(VENV) 2>/dev/null || { rm -rf $(VENV); \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv \
	    && $(PYTHON) -m venv $(VENV); \
	  else echo "Python's venv is missing: run 'sudo apt-get install python3-venv'"; exit 1; fi; }
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@# pyodide-lock >= 0.1.3 declares Python >= 3.12 but runs on 3.11; newer Pythons get pyodide-build too
	$(PY) -m pip install --quiet --ignore-requires-python 'pyodide-lock[wheel]==0.2.1'
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# Test-only wheels installed inside Pyodide by the Node harness (never fetched at test time).
VENDOR := tests/pyodide/vendor
$(VENDOR)/.installed: tests/pyodide/requirements.txt $(VENV)/.installed
	rm -rf $(VENDOR) && mkdir -p $(VENDOR)
	$(PY) -m pip download --quiet --only-binary=:all: --no-deps --dest $(VENDOR) -r tests/pyodide/requirements.txt \
	  --platform any --implementation py --abi none --python-version 3.14  # pure-Python wheels for Pyodide only
	touch $@

# Lighthouse has its own package (100 MB): only `make bench` needs it.
LIGHTHOUSE := benchmarks/lighthouse
$(LIGHTHOUSE)/node_modules/.installed: $(LIGHTHOUSE)/package.json $(LIGHTHOUSE)/package-lock.json
	cd $(LIGHTHOUSE) && npm ci --no-audit --no-fund
	touch $@

chromium:
	@if [ ! -x "$(CHROMIUM)" ]; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	  else echo "Chromium is missing: run 'sudo apt-get install chromium' (the browser tests need it)"; exit 1; fi; \
	fi

setup: $(VENV)/.installed node_modules/.installed

# --- site ---------------------------------------------------------------------------------
build: setup
	$(BIN)/mkdocs build --strict

serve: setup
	$(BIN)/mkdocs serve --strict --dev-addr $(HOST)

# --- tests --------------------------------------------------------------------------------
# One site build per run: site/ (what pages.yml deploys), its log kept for tests/site/test_build.py;
# pytest's site and browser tests and the Pyodide harness all read it (ROLLBOOK_SITE).
# A test that hangs (a page's promise that never settles: Playwright's evaluate has no time limit;
# a CI run once waited 18 minutes on one) fails after 5 minutes with its stack, and the run goes on:
# its worker is ended and xdist starts another. The slowest test takes about a minute on a loaded run.
TEST_TIMEOUT := --timeout 300 --timeout-method thread
test:
	@# the venv and node_modules install side by side (about 20 s and 8 s on a fresh machine)
	@$(MAKE) --no-print-directory -j2 setup $(VENDOR)/.installed chromium
	$(PY) tests/site/sitebuild.py site
	@# The browser tests wait on timers and pages often (tests/browser/conftest.py), so pytest runs
	@# three workers on two cores, and the one-core parts run beside it: the type check, the widgets
	@# on Node, the Pyodide harness. Their output, kept in $(BESIDE_LOG), is printed after pytest's;
	@# either failing fails the run. pytest's workers each have their own Chromiums; tests go out
	@# one at a time, the browser tests first, so the short ones fill in at the end; the 25 slowest
	@# are named at the end of the output, for whoever works on the suite's time (benchmarks/README.md)
	@( failed=0; $(PY) -m mypy engine/rollbook hooks || failed=1; node --test tests/widgets/ || failed=1; \
	  ROLLBOOK_SITE=site node tests/pyodide/run.mjs || failed=1; exit $$failed ) > $(BESIDE_LOG) 2>&1 & beside=$$!; \
	ROLLBOOK_SITE=site CHROMIUM=$(CHROMIUM) $(BIN)/pytest -n 3 --dist loadgroup --durations=25 $(TEST_TIMEOUT) tests/engine tests/pyodide \
	  tests/site tests/browser tests/test_workflows.py; suite=$$?; \
	wait $$beside; besides=$$?; \
	echo "--- beside pytest: the type check, the widgets on Node, the Pyodide harness ($(BESIDE_LOG))"; \
	cat $(BESIDE_LOG); \
	if [ $$besides != 0 ]; then echo "FAILED beside pytest (exit $$besides): see above"; fi; \
	exit $$(( suite || besides ))

# The quick loop while working: the engine on CPython, the widgets' modules on Node and the site's
# checks on one build (into a temporary directory: site/ is left as it is), no browser.
test-fast: setup
	node --test tests/widgets/
	$(BIN)/pytest -q -n 2 tests/engine tests/site

# The engine suite and the cross-runtime corpus inside Pyodide, from the built site/.
test-pyodide: setup $(VENDOR)/.installed build
	node tests/pyodide/run.mjs

bench: setup chromium build $(LIGHTHOUSE)/node_modules/.installed
	$(PY) benchmarks/dice.py --write-readme
	node benchmarks/pyodide.mjs --write-readme
	$(PY) benchmarks/widgets.py --write-readme
	$(PY) benchmarks/start.py --write-readme
	CHROMIUM=$(CHROMIUM) $(PY) benchmarks/phone.py --write-readme
	CHROMIUM=$(CHROMIUM) $(PY) benchmarks/lighthouse.py --all --runs 3 --write-readme
	CHROMIUM=$(CHROMIUM) $(PY) benchmarks/reading.py --write-readme

clean:
	rm -rf site shots $(BESIDE_LOG) $(VENV) node_modules $(LIGHTHOUSE)/node_modules $(VENDOR) .pytest_cache .hypothesis dist build
