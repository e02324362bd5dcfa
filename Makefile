# Two commands for a newcomer: `make run` and `make test`. Both create .venv on first use.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
PYTEST_ARGS ?=

.PHONY: run test lint bench docs clean catalogs extract-messages update-catalogs

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

# The club's languages (see src/ludoteca/web/i18n): gettext catalogs kept as .po files in the
# repository and compiled to .mo here, whenever a .po is newer than its .mo.
LOCALES := src/ludoteca/web/i18n/locale
CATALOGS := $(wildcard $(LOCALES)/*/LC_MESSAGES/messages.po)
COMPILED := $(CATALOGS:.po=.mo)
KEYWORDS := -k N_ -k Text -k ClubError -k ModerationError -k SessionEnded -k NewGameRefused -k AccountError -k IllegalMoveError:2 -k MalformedError:2 -k IllegalPositionError:2 -k t

$(LOCALES)/%/LC_MESSAGES/messages.mo: $(LOCALES)/%/LC_MESSAGES/messages.po $(VENV)/.installed-run
	$(BIN)/pybabel -q compile --statistics -D messages -d $(LOCALES) -l $*

## catalogs: compile the translations (make run and make test do it)
catalogs: $(COMPILED)

## extract-messages: collect every translatable text into messages.pot
extract-messages: $(VENV)/.installed-run
	$(BIN)/pybabel -q extract -F babel.cfg $(KEYWORDS) --no-location --sort-output \
		--project ludoteca --copyright-holder "ludoteca" -o $(LOCALES)/messages.pot .

## update-catalogs: extract, then merge the new and changed texts into each language's .po
update-catalogs: extract-messages
	$(BIN)/pybabel -q update -i $(LOCALES)/messages.pot -d $(LOCALES) -D messages --no-fuzzy-matching --ignore-obsolete

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed-run

## run: start the main job
run: $(VENV)/.installed-run catalogs
	$(BIN)/ludoteca serve --host 127.0.0.1 --port 8000

AXE := tests/a11y/node_modules/axe-core/axe.min.js

# axe-core (from the npm registry) for the accessibility checks of the browser tests; without
# npm those checks are skipped on a workstation (and fail in CI, which installs npm).
$(AXE): tests/a11y/package.json tests/a11y/package-lock.json
	@if command -v npm >/dev/null; then npm ci --prefix tests/a11y --silent --no-audit --no-fund; \
	else echo "npm not found: the accessibility checks will be skipped"; fi

## test: lint, format check and type check, then the whole test suite on both cores
test: lint catalogs $(AXE)
	$(BIN)/python -m pytest -n 2 $(PYTEST_ARGS)

## lint: ruff (rules and complexity budget), the formatter's check, mypy (see pyproject.toml)
lint: $(VENV)/.installed-dev
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/python -m mypy

## bench: every benchmark (engines against the C limits, start-up, pages, a browser, the club
## under load, an arena of 500) and one table of figures against their targets; about 11 minutes
bench: $(VENV)/.installed-dev catalogs
	$(BIN)/python bench/run_all.py

## docs: serve the documentation site (docs/, mkdocs.yml) at http://127.0.0.1:8001, rebuilt as
## pages change; `make test` builds it with --strict (tests/docs/test_site.py)
docs: $(VENV)/.installed-dev
	NO_MKDOCS_2_WARNING=1 $(BIN)/python -m mkdocs serve

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache site
