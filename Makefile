# The two commands of the README:
#   make run   - run the whole site on this machine (embedded mode) at http://127.0.0.1:8000
#   make test  - the whole suite on real PostgreSQL and Redis (what CI runs)

SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV ?= .venv
VPY := $(VENV)/bin/python
# Stamps: requirements are installed again only when a requirements file is newer.
RUN_STAMP := $(VENV)/.installed-requirements
DEV_STAMP := $(VENV)/.installed-requirements-dev
TEST_WORKERS ?= 3
# Made afresh from requirements.txt alone by `make test`: the test of `make run` runs the
# site from it, so a module the site needs that only requirements-dev.txt installs fails
# the suite (pip's download and wheel cache keeps the clean reinstall to seconds).
RUNTIME_VENV := .venv-runtime
# Python keeps the bytecode it compiles (in __pycache__, which git ignores) even where the
# environment says not to (PYTHONDONTWRITEBYTECODE=1): with it, each of the suite's
# processes (the xdist workers, the sites, the Celery workers, the settings checks: 74 in
# a run) compiled every module it imported again, 4 s of CPU each, the test virtualenvs
# being installed without bytecode (bench/bytecode.py, docs/development.md).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: help run test lint typecheck pytest services runtime-venv migrate collectstatic clean

help:
	@echo "make run    run the site (embedded SQLite + Redis, ASGI server, Celery worker and beat)"
	@echo "make test   lint, type-check and run the whole test suite (needs PostgreSQL and Redis)"

$(VPY):
	$(PYTHON) -c 'import sys; assert sys.version_info[:2] == (3, 11), "Python 3.11 is required"'
	$(PYTHON) -m venv $(VENV)

$(RUN_STAMP): requirements.txt | $(VPY)
	$(VPY) -m pip install --disable-pip-version-check -q -r requirements.txt
	@touch $@

# The test virtualenvs skip pip's byte-compiling of every installed module (half of a
# fresh install's time, docs/development.md): Python compiles the modules a run imports
# as it first imports them.
$(DEV_STAMP): requirements.txt requirements-dev.txt | $(VPY)
	$(VPY) -m pip install --disable-pip-version-check -q --no-compile -r requirements-dev.txt
	@touch $@ $(RUN_STAMP)

# ---------------------------------------------------------------- run

run: $(RUN_STAMP)
	$(VPY) manage.py migrate --noinput -v 0
	$(VPY) manage.py ensure_bots -v 0
	exec $(VPY) scripts/run_embedded.py

migrate: $(RUN_STAMP)
	$(VPY) manage.py migrate --noinput

collectstatic: $(RUN_STAMP)
	$(VPY) manage.py collectstatic --noinput

# ---------------------------------------------------------------- test

# The two virtualenvs and the services (mostly waiting on pip and apt) are made side by
# side, then the checks run side by side; the suite runs after them, on both cores.
test:
	$(MAKE) --no-print-directory -j 3 --output-sync=target $(DEV_STAMP) runtime-venv services
	$(MAKE) --no-print-directory -j 2 --output-sync=target lint typecheck
	$(MAKE) --no-print-directory pytest

services:
	bash scripts/ensure_services.sh

lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

typecheck: $(DEV_STAMP)
	$(VENV)/bin/mypy

runtime-venv:
	rm -rf $(RUNTIME_VENV)
	$(PYTHON) -m venv $(RUNTIME_VENV)
	$(RUNTIME_VENV)/bin/python -m pip install --disable-pip-version-check -q --no-compile -r requirements.txt
	@touch $(RUNTIME_VENV)/.installed-requirements

# Every checkout on a machine uses the same test databases (test_remi_gwN) and Redis's
# numbered databases, so a second run waits for the first rather than failing on them.
TEST_LOCK ?= /tmp/remi-tests.lock
pytest: $(DEV_STAMP)
	@flock --nonblock $(TEST_LOCK) true || echo "pytest: waiting for the other test run on this machine ($(TEST_LOCK))"
	REMI_RUNTIME_VENV=$(abspath $(RUNTIME_VENV)) flock $(TEST_LOCK) $(VENV)/bin/pytest -n $(TEST_WORKERS) --dist worksteal

clean:
	rm -rf var $(RUNTIME_VENV) staticfiles .mypy_cache .ruff_cache .pytest_cache
