# The two commands of the README:
#   make run   - run the whole site on this machine (embedded mode) at http://127.0.0.1:8000
#   make test  - the whole suite on real PostgreSQL and Redis (what CI runs)

SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV := .venv
VPY := $(VENV)/bin/python
# Stamps: requirements are installed again only when a requirements file is newer.
RUN_STAMP := $(VENV)/.installed-requirements
DEV_STAMP := $(VENV)/.installed-requirements-dev
TEST_WORKERS ?= 2

.PHONY: help run test lint typecheck pytest services migrate collectstatic clean

help:
	@echo "make run    run the site (embedded SQLite + Redis, ASGI server, Celery worker and beat)"
	@echo "make test   lint, type-check and run the whole test suite (needs PostgreSQL and Redis)"

$(VPY):
	$(PYTHON) -c 'import sys; assert sys.version_info[:2] == (3, 11), "Python 3.11 is required"'
	$(PYTHON) -m venv $(VENV)

$(RUN_STAMP): requirements.txt | $(VPY)
	$(VPY) -m pip install --disable-pip-version-check -q -r requirements.txt
	@touch $@

$(DEV_STAMP): requirements.txt requirements-dev.txt | $(VPY)
	$(VPY) -m pip install --disable-pip-version-check -q -r requirements-dev.txt
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

test: $(DEV_STAMP) services lint typecheck pytest

services:
	bash scripts/ensure_services.sh

lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: $(DEV_STAMP)
	$(VENV)/bin/mypy

pytest: $(DEV_STAMP)
	$(VENV)/bin/pytest -n $(TEST_WORKERS)

clean:
	rm -rf var staticfiles .mypy_cache .ruff_cache .pytest_cache
