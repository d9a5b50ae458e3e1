# Two commands do everything on a fresh machine with Python 3.10+ and make:
#   make demo   set up, grade the demo class in build/demo-course/ (a course of its own), print grades
#   make test   run every test
# Both create .venv and install the project into it on first use.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
JOBS   ?= 2
# nbgrader runs alembic and kernels by name: the venv's tools come first.
export PATH := $(abspath $(BIN)):$(PATH)

.PHONY: setup demo test test-long banks mutants test-fast lab bench figures release lint clean student-edition grade browser-deps sandbox-deps container-deps stamp soak dist publish services-deps services-up services-down loadtest hub-deps server

# The venv also gets the course-save-queue JupyterLab extension (saves of one notebook run one after
# the other, so Ctrl+S then nbgrader's Validate never shows "File Changed"), linked as a develop install.
$(STAMP): pyproject.toml instructor/pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev,lab]" -e ./instructor
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 >/dev/null
	mkdir -p $(VENV)/share/jupyter/labextensions
	ln -sfn $(abspath instructor/labextensions/course-save-queue) $(VENV)/share/jupyter/labextensions/course-save-queue
	touch $(STAMP)

setup: $(STAMP)

demo: $(STAMP) sandbox-deps
	$(BIN)/python -m coursetools demo

test: $(STAMP) browser-deps sandbox-deps container-deps services-deps
	$(BIN)/python -m coursetools check-notebooks-clean
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -m "not bank and not long"

# Soaks and whole walks, 20 s or more each, kept out of make test for its 20-minute budget (about 4 minutes on
# two idle cores; CI runs it after make test): parallel grading repeated, a slow submission and a shard that runs
# dry, a self-check worker killed mid-check, `make demo` on a scratch course, the instructor guide as a non-root user.
test-long: $(STAMP) sandbox-deps services-deps hub-deps browser-deps
	$(BIN)/python -m pytest -m "long and not bank"

# The bug banks (one per lab) and the blind banks, each graded through the real nbgrader in the sandbox (about 15 minutes on
# two cores; CI runs it after make test).
banks: $(STAMP) sandbox-deps
	$(BIN)/python -m pytest -m bank

# JupyterLab on the course (formgrader under its Nbgrader menu). Jupyter refuses to run as root
# unless told: as root (a container, a fresh VM), --allow-root is added.
lab: $(STAMP)
	$(BIN)/jupyter lab --notebook-dir=. $$([ "$$(id -u)" = 0 ] && echo --allow-root) $(LAB_ARGS)

release: $(STAMP)
	$(BIN)/python -m coursetools release

# The set-up cells, Colab badges, navigation links and course map of every notebook, from
# [tool.course] in pyproject.toml. After stamping source/, run `make release`.
stamp: $(STAMP)
	$(BIN)/python -m coursetools stamp

# The self-check service end to end (docs/selfcheck.md): broker, database, one worker and the HTTP service on
# 127.0.0.1; the demo class sends its notebooks through course_lib.check_online (LABS="02_minimax" for fewer).
.PHONY: selfcheck-demo
selfcheck-demo: $(STAMP) sandbox-deps services-deps
	$(BIN)/python -m coursetools selfcheck-demo $(LABS)

# The browser tests drive Debian's Chromium (Playwright never downloads a browser here).
browser-deps:
	@test -x /usr/bin/chromium || { [ "$$(id -u)" = 0 ] && apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } || \
		{ echo "chromium is missing: run 'sudo apt-get install -y chromium' for the browser tests" >&2; exit 1; }

# Grading runs every submission's kernel in a bubblewrap sandbox (Debian's bubblewrap, via apt).
sandbox-deps:
	@command -v bwrap >/dev/null || { [ "$$(id -u)" = 0 ] && apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap >/dev/null; } || \
		{ echo "bubblewrap is missing: run 'sudo apt-get install -y bubblewrap' (grading sandboxes every submission)" >&2; exit 1; }

# `coursetools grade --sandbox podman` runs each kernel in a podman container instead (Debian's podman,
# with runc for hosts whose cgroups crun refuses); make test grades the isolation class in both.
container-deps:
	@{ command -v podman >/dev/null && command -v runc >/dev/null; } || { [ "$$(id -u)" = 0 ] && apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman runc >/dev/null; } || \
		{ echo "podman is missing: run 'sudo apt-get install -y podman runc' (the container sandbox's tests)" >&2; exit 1; }

# The self-check service's broker and database (docs/selfcheck.md): Debian's redis-server and postgresql, run as
# local processes on Unix sockets under build/services/ (no TCP port); as root, PostgreSQL runs as its own user
# (postgres) on a data folder that user owns. The tests start them themselves (tests/service/conftest.py); the
# second-host test (test_remote_worker) also needs iproute2 (a network namespace) and openssl (its certificates).
services-deps:
	@{ command -v redis-server >/dev/null && ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && \
		command -v ip >/dev/null && command -v openssl >/dev/null; } || \
		{ [ "$$(id -u)" = 0 ] && apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server postgresql iproute2 openssl >/dev/null; } || \
		{ echo "redis-server, postgresql, iproute2 or openssl is missing: run 'sudo apt-get install -y redis-server postgresql iproute2 openssl' (the self-check service's tests)" >&2; exit 1; }

# JupyterHub (PyPI, into the venv) and its proxy, configurable-http-proxy (npm, into build/hub-node/), for
# `make server` and its tests. The students' and the instructor's environments are built by `make server` itself.
hub-deps: $(STAMP)
	@$(BIN)/python -c "import jupyterhub" 2>/dev/null || $(BIN)/python -m pip install --quiet "jupyterhub>=5,<6"
	@command -v npm >/dev/null || { [ "$$(id -u)" = 0 ] && apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null; } || \
		{ echo "npm is missing: run 'sudo apt-get install -y nodejs npm' (JupyterHub's proxy comes from npm)" >&2; exit 1; }
	@test -x build/hub-node/node_modules/.bin/configurable-http-proxy || { mkdir -p build/hub-node && \
		npm install --prefix build/hub-node --no-fund --no-audit --loglevel=error "configurable-http-proxy@4"; }

# A course server on 127.0.0.1 (docs/server.md): JupyterHub with a teacher's and two students' real accounts,
# each user's JupyterLab run as that user, the self-check service as a Hub service. As root; Ctrl+C stops it.
server: $(STAMP) hub-deps sandbox-deps services-deps
	$(BIN)/python -m coursetools server $(SERVER_ARGS)

services-up: $(STAMP) services-deps
	$(BIN)/python -m coursetools services up

services-down: $(STAMP)
	$(BIN)/python -m coursetools services down

# A burst of self-checks (50 students, 100 distinct notebooks of lab 02) through the HTTP service and two workers, one
# of them SIGKILLed mid-burst; p50/p95 time to answer and throughput against grade --jobs 2 (docs/selfcheck.md).
# Not part of make test: about 40 minutes on two busy cores. LOADTEST_NOTEBOOKS, LOADTEST_STUDENTS, LOADTEST_LAB resize it.
loadtest: $(STAMP) sandbox-deps services-deps
	$(BIN)/python -m coursetools loadtest

grade: $(STAMP) sandbox-deps
	$(BIN)/python -m coursetools grade $(LAB) --jobs $(JOBS)

# 64 submissions graded with --jobs 4, ten times in a row (make test-long runs 16 x 2).
soak: $(STAMP) sandbox-deps
	SOAK_SUBMISSIONS=64 SOAK_RUNS=10 SOAK_JOBS=4 SOAK_LAB=$${SOAK_LAB:-03_alphabeta} \
		$(BIN)/python -m pytest -q -s tests/grading/test_pipeline_soak.py

# The folder students may see, ready to push as the published repository: release/,
# notebooks/, course_lib with its pyproject.toml, the licence and a README for students.
student-edition: $(STAMP)
	$(BIN)/python -m coursetools student-edition

# The package students install (adversarial-search-labs, `import course_lib`): sdist and wheel
# in dist/, checked with `twine check --strict`. Refuses placeholder addresses and unstamped notebooks.
dist: $(STAMP)
	$(BIN)/python -m coursetools stamp --check
	$(BIN)/python -m coursetools dist

# Upload dist/ to PyPI. Credentials come from the environment, never from this repository:
#   TWINE_USERNAME=__token__ TWINE_PASSWORD=<a PyPI API token> make publish
# (TWINE_REPOSITORY_URL=https://test.pypi.org/legacy/ for a rehearsal on TestPyPI). No test runs it.
publish: dist
	@test -n "$$TWINE_PASSWORD" || { echo "set TWINE_USERNAME=__token__ and TWINE_PASSWORD=<your PyPI API token> first" >&2; exit 1; }
	$(BIN)/twine upload --non-interactive dist/*

bench: $(STAMP) sandbox-deps
	$(BIN)/python benchmarks/run.py

figures: $(STAMP)
	$(BIN)/python -m coursetools figures docs/figures

# Mutants of every lab's reference solution through its hidden checks; prints the survivors
# (behaviour-changing mutants no check fails); then each lab's rule mutants (bank/rules/: one program per rule of
# the lab's rule table, graded through nbgrader) and whether each loses points in its own function's tests only.
# Not part of make test. MUTANT_LABS=03 for one lab.
mutants: $(STAMP)
	$(BIN)/python -m coursetools mutants $(MUTANT_LABS)

lint: $(STAMP)
	$(BIN)/ruff check .

clean:
	-@test -x $(BIN)/python && $(BIN)/python -m coursetools services down >/dev/null 2>&1
	rm -rf $(VENV) .pytest_cache build dist test-artifacts
