# Two commands do everything on a fresh machine with Python 3.10+ and make:
#   make demo   set up, build the student versions, grade the demo class, print grades
#   make test   run every test
# Both create .venv and install the project into it on first use.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
JOBS   ?= 2
# nbgrader runs alembic and kernels by name: the venv's tools come first.
export PATH := $(abspath $(BIN)):$(PATH)

.PHONY: setup demo test test-fast lab bench figures release lint clean student-edition grade

$(STAMP): pyproject.toml instructor/pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]" -e ./instructor
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 >/dev/null
	touch $(STAMP)

setup: $(STAMP)

demo: $(STAMP)
	$(BIN)/python -m coursetools demo

test: $(STAMP)
	$(BIN)/python -m coursetools check-notebooks-clean
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

lab: $(STAMP)
	$(BIN)/jupyter lab --notebook-dir=. $(LAB_ARGS)

release: $(STAMP)
	$(BIN)/python -m coursetools release

grade: $(STAMP)
	$(BIN)/python -m coursetools grade $(LAB) --jobs $(JOBS)

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

figures: $(STAMP)
	$(BIN)/python -m coursetools figures docs/figures

lint: $(STAMP)
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) .pytest_cache build test-artifacts
