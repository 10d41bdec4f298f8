# The README's two commands: `make run` and `make test`. Everything they need they install.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000
# `make run LAN=1`: serve the class's tablets on the school's network (README), not this machine
# alone: every interface, this machine's network addresses allowed, and the projector and login
# cards naming the address the tablets reach.
LAN ?=
ifeq ($(LAN),1)
HOST := 0.0.0.0
export SERVE_LOCAL_NETWORK := true
endif
# Embedded `make test` leaves out the tests that need PostgreSQL and Redis; with DATABASE_URL and
# REDIS_URL set (`make test-services`, CI) the whole suite runs and those tests must pass, but for
# the few that need the embedded SQLite itself or run the same whatever the environment (marked
# `embedded`: the browser tests' own sites and the engine's tests, for two).
PYTEST_ARGS ?=
# pytest-xdist workers, one per core: the embedded pass keeps both cores 95-100 % busy, Chromium
# taking about 70 % of that. A worker that runs out of tests takes half of the other's (worksteal):
# the browser tests come last in the collection, and handed out in chunks one worker was left to
# run most of them alone for 8 of a 14-minute pass.
PYTEST_WORKERS ?= 2
XDIST := -n $(PYTEST_WORKERS) --dist worksteal
# The slowest tests printed at the end of each pass: where CI's time goes.
DURATIONS := --durations=40

.PHONY: help install system-deps run test test-embedded test-services services lint js-deps format translations messages compiled-messages bench loadtest clean

help:
	@echo "make run            install, migrate, load the demo class, serve on http://$(HOST):$(PORT)"
	@echo "make run LAN=1      the same, served to the class's tablets on this network"
	@echo "make test           the whole test suite (embedded, or on services when DATABASE_URL is set)"
	@echo "make test-services  the suite against PostgreSQL + Redis on 127.0.0.1 (started if needed)"
	@echo "make lint           ruff + import-linter (layer contracts) + eslint (the pages' JavaScript)"
	@echo "make messages       every language's catalogues updated from the sources, then compiled"
	@echo "make loadtest       900 students on two Daphne processes: docs/capacity.md"

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: $(STAMP) compiled-messages

system-deps:
	@scripts/system-deps

# Every language's catalogues brought up to date with the sources (django and djangojs domains),
# their plural forms set, then compiled: docs/translations.md. `make translations` does the same.
messages: $(STAMP)
	@scripts/system-deps gettext
	PYTHON=$(BIN)/python scripts/update-translations

translations: messages

# The catalogues compiled as they are (`make install`): nothing in them changes.
compiled-messages: $(STAMP)
	@scripts/system-deps gettext
	$(BIN)/python manage.py compilemessages --ignore=.venv --ignore=node_modules -v0

run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py seed_demo
	@echo "Serving on http://127.0.0.1:$(PORT)/  (Ctrl+C to stop)"
ifeq ($(LAN),1)
	@$(BIN)/python -m config.local_network $(PORT)
else
	@echo "Only this computer reaches it; for the class's tablets on this network: make run LAN=1"
endif
	$(BIN)/python -m config.server -b $(HOST) -p $(PORT) config.asgi:application

test: install
	@scripts/system-deps chromium poppler-utils iproute2 curl
ifdef DATABASE_URL
	@scripts/system-deps nginx
	@scripts/services-up
	$(BIN)/pytest $(XDIST) $(DURATIONS) -m "not embedded" $(PYTEST_ARGS)
else
	$(BIN)/pytest $(XDIST) $(DURATIONS) -m "not services" $(PYTEST_ARGS)
endif

test-services:
	DATABASE_URL=postgres://postgres@127.0.0.1:5432/classroom REDIS_URL=redis://127.0.0.1:6379/0 \
	  REQUIRE_SERVICES=1 $(MAKE) test

lint: $(STAMP) node_modules/.installed-stamp
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	npx --no-install eslint .

# The JavaScript linter at the versions package-lock.json pins (Node 20 or later); the pages
# themselves need no Node: their ES modules are served as they are.
js-deps: node_modules/.installed-stamp

node_modules/.installed-stamp: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: $(STAMP)
	$(BIN)/python -m engine.bench

# The capacity measurement of docs/capacity.md: 900 students at tables of 3 on two Daphne processes
# sharing PostgreSQL and Redis. Its own database and Redis number, so that it neither touches nor
# hears a development site or a test run on the same services.
LOADTEST_DATABASE ?= classroom_loadtest
LOADTEST_ENV = DATABASE_URL=postgres://postgres@127.0.0.1:5432/$(LOADTEST_DATABASE) \
  REDIS_URL=redis://127.0.0.1:6379/1
LOADTEST_ARGS ?= --daphnes 2 --students 900 --rate 180 --duration 60

loadtest: install
	@scripts/services-up
	@createdb -h 127.0.0.1 -U postgres $(LOADTEST_DATABASE) 2>/dev/null || true
	$(LOADTEST_ENV) $(BIN)/python manage.py migrate --noinput -v0
	$(LOADTEST_ENV) $(BIN)/python -m tools.loadtest $(LOADTEST_ARGS)

clean:
	rm -rf $(VENV) staticfiles .pytest_cache db.sqlite3 node_modules
