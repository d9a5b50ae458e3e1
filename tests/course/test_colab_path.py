"""Google Colab without Colab, and without the internet: the path a self-learner takes.

A virtual environment pinned to Colab's versions (tests/colab-requirements.txt: ipywidgets 7,
IPython 7, ipykernel 6, ...) runs every release lab with its solutions filled in, and every
companion notebook, from the first cell on. Nothing in it knows course_lib: the first cell
installs it by name, as on Colab, from a package index served on 127.0.0.1 that plays PyPI
(it holds the wheel `make dist` builds, and binarytree with what it needs). A bare git
repository of the student edition plays GitHub (git's `insteadOf` sends
https://github.com/ to it), so the set-up cell runs exactly as committed. Then:

- with the index unreachable and GitHub too, the first cell says in plain words what
  happened and what to do, with no traceback;
- with an index that lacks the package, the cell falls back to the edition's tag.

The pinned environment is built by this file on first use (about 1 minute of pip downloads
from the real index: the only thing fetched from outside) and cached in build/colab/, keyed
by the requirements file's hash; the package's wheel is cached by the hash of its files.
COURSE_COLAB_REBUILD=1 rebuilds both. Between notebooks the environment is put back to what
it held when built, so every notebook installs course_lib itself.
"""

from __future__ import annotations

import functools
import hashlib
import http.server
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import venv
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from coursetools.quality.bank import solution_answers
from coursetools.course.edition import build_student_edition
from coursetools.course.notebooks import pictures_without_alt
from coursetools.course.publish import PACKAGE_FILES, build_dist
from coursetools.course.stamp import SETUP_TAG, companion_notebooks, load_config, normalize, setup_code
from coursetools.quality.submission import build_submission
from coursetools.labs import LABS

ROOT = Path(__file__).resolve().parents[2]
REQUIREMENTS = ROOT / "tests" / "colab-requirements.txt"
CACHE = ROOT / "build" / "colab"
KERNEL = "colab-pinned"
VIEW_MIME = "application/vnd.jupyter.widget-view+json"
NOTEBOOKS = [p.name for p in companion_notebooks(ROOT)]
CFG = load_config(ROOT)
WHEEL = f"{CFG.package.replace('-', '_')}-{CFG.version}-py3-none-any.whl"
PLAY_CALL = re.compile(r"(?<![\w.])play\(")  # course_lib.play.play(...), not display(...) or game.play(...)

pytestmark = pytest.mark.slow


def _run(cmd: list, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kwargs)
    assert done.returncode == 0, f"{' '.join(map(str, cmd))} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def _pins() -> dict[str, str]:
    """``{name: version}`` of the requirements file."""
    pins = {}
    for line in REQUIREMENTS.read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, version = line.split("==")
            pins[normalize(name)] = version
    return pins


def _freeze(python: Path, env: dict) -> dict[str, str]:
    lines = _run([python, "-m", "pip", "freeze", "--all"], env=env).stdout.splitlines()
    return {normalize(ln.split("==")[0]): ln.split("==")[1] for ln in lines if "==" in ln}


def _site(python: Path) -> Path:
    return next((python.parent.parent / "lib").glob("python3*/site-packages"))


def _reset(python: Path, baseline: list[str]) -> None:
    """Remove whatever was installed after the environment was built (course_lib, binarytree, ...)."""
    site = _site(python)
    for entry in set(os.listdir(site)) - set(baseline):
        path = site / entry
        shutil.rmtree(path) if path.is_dir() else path.unlink()


def _light_requirements() -> list[str]:
    return [req for _, req in CFG.light_deps]


def _pinned_venv(env: dict) -> tuple[Path, list[str], Path]:
    """(python, site-packages entries as built, a folder of wheels for the local index), built once and kept."""
    key = hashlib.sha256(REQUIREMENTS.read_bytes() + sys.version.encode() + str(_light_requirements()).encode())
    home = CACHE / f"venv-{key.hexdigest()[:12]}"
    python, ready, wheels = home / "bin" / "python", home / "ready.json", home / "wheels"
    if ready.is_file() and not os.environ.get("COURSE_COLAB_REBUILD"):
        state = json.loads(ready.read_text())
        _reset(python, state["site"])
        if _freeze(python, env) == state["freeze"]:
            return python, state["site"], wheels
    for old in CACHE.glob("venv-*"):  # an environment of an older requirements file
        shutil.rmtree(old)
    venv.EnvBuilder(with_pip=True, clear=True).create(home)
    _run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", REQUIREMENTS],
         env=env, timeout=1200)
    # What the first cell may fetch besides course_lib: the light dependencies Colab lacks (with what
    # they need), and setuptools to build the package from the edition's git tag.
    _run([python, "-m", "pip", "download", "--quiet", "--only-binary=:all:", "--dest", wheels,
          *_light_requirements(), "setuptools>=64"], env=env, timeout=600)
    state = {"freeze": _freeze(python, env), "site": sorted(os.listdir(_site(python)))}
    ready.write_text(json.dumps(state, indent=1))
    return python, state["site"], wheels


def _course_dist() -> list[Path]:
    """sdist and wheel of the package, as `make dist` builds them, kept while the package's files are unchanged."""
    digest = hashlib.sha256()
    for name in PACKAGE_FILES:
        paths = [ROOT / name] if (ROOT / name).is_file() else sorted((ROOT / name).rglob("*"))
        for path in (p for p in paths if p.is_file() and "__pycache__" not in p.parts):
            digest.update(str(path.relative_to(ROOT)).encode() + path.read_bytes())
    out = CACHE / f"dist-{digest.hexdigest()[:12]}"
    built = sorted(out.glob("*")) if out.is_dir() else []
    if len(built) == 2 and not os.environ.get("COURSE_COLAB_REBUILD"):
        return built
    for old in CACHE.glob("dist-*"):
        shutil.rmtree(old)
    return build_dist(ROOT, out)


def _write_index(folder: Path, files: list[Path]) -> None:
    """A PEP 503 'simple' index of `files` in `folder`."""
    projects: dict[str, list[Path]] = {}
    for path in files:
        name = path.name.split("-")[0] if path.suffix == ".whl" else path.name.rsplit("-", 1)[0]
        projects.setdefault(normalize(name), []).append(path)
    folder.mkdir(parents=True)
    links = "".join(f'<a href="{p}/">{p}</a>\n' for p in sorted(projects))
    (folder / "index.html").write_text(f"<!DOCTYPE html><html><body>\n{links}</body></html>\n")
    for project, paths in projects.items():
        (folder / project).mkdir()
        for path in paths:
            shutil.copy(path, folder / project / path.name)
        links = "".join(f'<a href="{p.name}">{p.name}</a>\n' for p in sorted(paths))
        (folder / project / "index.html").write_text(f"<!DOCTYPE html><html><body>\n{links}</body></html>\n")


class _Index(http.server.SimpleHTTPRequestHandler):
    """Serves the index folder and remembers every path asked for; below /private/ it asks for a password,
    as GitHub does for a repository that does not exist."""

    asked: list[str] = []

    def do_GET(self) -> None:
        if self.path.startswith("/private/"):
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Basic realm="GitHub"')
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        super().do_GET()

    def log_message(self, fmt: str, *args) -> None:
        self.asked.append(self.path)


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _bare_edition(tmp: Path) -> tuple[Path, str]:
    """The student edition as a bare repository at github/OWNER/NAME, tagged like the release; (github, commit)."""
    work = build_student_edition(ROOT, tmp / "edition")
    git = ["git", "-c", "user.name=Course", "-c", "user.email=course@example.org", "-c", "init.defaultBranch=main"]
    _run([*git, "init", "--quiet"], cwd=work)
    _run([*git, "add", "--all"], cwd=work)
    _run([*git, "commit", "--quiet", "-m", "student edition"], cwd=work)
    _run([*git, "tag", CFG.ref], cwd=work)
    github = tmp / "github"
    _run([*git, "clone", "--quiet", "--bare", work, github / CFG.github_path])
    untagged = tmp / "github-untagged" / CFG.github_path  # the repository before its tag was pushed
    _run([*git, "clone", "--quiet", "--bare", "--no-tags", work, untagged])
    assert not _run(["git", "tag"], cwd=untagged).stdout.strip()
    commit = _run(["git", "rev-parse", f"{CFG.ref}^{{commit}}"], cwd=work).stdout.strip()
    return github, commit


@pytest.fixture(scope="module")
def colab(tmp_path_factory):
    """Everything a notebook run needs: the pinned Python, its kernel, the local index and the local GitHub."""
    start = time.perf_counter()
    tmp = tmp_path_factory.mktemp("colab")
    build_env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    python, baseline, wheels = _pinned_venv(build_env)
    dist = _course_dist()
    kernels = tmp / "kernels"
    _run([python, "-m", "ipykernel", "install", "--prefix", kernels, "--name", KERNEL], env=build_env)
    served = tmp / "served"
    _write_index(served / "simple", dist + sorted(wheels.iterdir()))
    _write_index(served / "without-course", sorted(wheels.iterdir()))  # the package not published (yet)
    handler = functools.partial(_Index, directory=str(served))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    github, commit = _bare_edition(tmp)
    gitconfig = tmp / "gitconfig"
    gitconfig.write_text(f'[url "{github.as_uri()}/"]\n\tinsteadOf = https://github.com/\n')
    proxies = {"http_proxy", "https_proxy", "all_proxy", "no_proxy"}
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHON", "VIRTUAL_ENV", "PIP_", "CONDA", "GIT_", CFG.source_env))
           and k.lower() not in proxies}
    env.update({
        "PIP_CONFIG_FILE": os.devnull,  # no pip.conf of this machine: the local index is the only one
        "PIP_INDEX_URL": f"http://127.0.0.1:{server.server_address[1]}/simple/",
        "PIP_NO_CACHE_DIR": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "GIT_CONFIG_GLOBAL": str(gitconfig), "GIT_CONFIG_NOSYSTEM": "1",
        "JUPYTER_PATH": str(kernels / "share" / "jupyter"), "PYTHONNOUSERSITE": "1", "no_proxy": "127.0.0.1",
        "PYDEVD_DISABLE_FILE_VALIDATION": "1",  # ipykernel 6 on Python 3.11: a debugger note on every start
    })
    print(f"\nColab-pinned environment, index and GitHub ready in {time.perf_counter() - start:.0f} s")
    yield {"python": python, "baseline": baseline, "env": env, "server": server, "github": github,
           "commit": commit, "tmp": tmp, "dist": dist}
    server.shutdown()


def _execute(path: Path, env: dict, monkeypatch, allow_errors: bool = False) -> nbformat.NotebookNode:
    for key in list(os.environ):
        if key not in env:
            monkeypatch.delenv(key)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name=KERNEL, allow_errors=allow_errors,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    return nb


def _code(nb) -> list:
    return [c for c in nb.cells if c.cell_type == "code"]


def _stream(cell) -> str:
    return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")


def _installed(python: Path) -> dict:
    """The installed package's metadata folder and, for an install from git, what pip recorded about it."""
    info = _site(python) / f"{CFG.package.replace('-', '_')}-{CFG.version}.dist-info"
    assert info.is_dir(), f"{info.name} is not installed"
    direct = info / "direct_url.json"
    return json.loads(direct.read_text()) if direct.is_file() else {}


def _check_run(nb, colab) -> None:
    """The first cell installed course_lib by name from the local index, and every cell ran cleanly."""
    code = _code(nb)
    assert SETUP_TAG in code[0].metadata.get("tags", []) and code[0].source == setup_code(CFG)
    assert _stream(code[0]) == f"installed course_lib from the Python Package Index ({CFG.pinned})\n", \
        _stream(code[0])
    wheel = next(p.name for p in colab["dist"] if p.suffix == ".whl")
    assert f"/simple/{CFG.package}/{wheel}" in _Index.asked, _Index.asked
    assert _installed(colab["python"]) == {}, "installed from the index, not from a URL"
    assert all(c.execution_count for c in code), "every code cell ran"
    errors = [o for c in code for o in c.outputs if o.output_type == "error"]
    assert not errors, errors[0]
    shown = [o.get("data", {}).get("text/plain", "") for c in code for o in c.outputs]
    assert not [t for t in shown if "<course_lib." in t], "an object shown by its bare repr"
    # what Colab gets from IPython 7.34 and ipykernel 6.17: each picture as an <img alt> and with its alt in metadata
    assert not pictures_without_alt(nb), f"pictures without a text alternative: {pictures_without_alt(nb)}"


def _is_widget_cell(source: str) -> bool:
    """A cell showing a widget: a stepper, a board, or an optional play cell (``PLAY = ...``) calling play()."""
    return "TraceStepper(" in source or "GameBoard(" in source or (
        "PLAY = " in source and bool(PLAY_CALL.search(source)))


def _widget_cells_show_widget_and_picture(nb) -> int:
    cells = [c for c in _code(nb) if _is_widget_cell(c.source)]
    for cell in cells:
        data = [o.get("data", {}) for o in cell.outputs if "data" in o]
        assert any(VIEW_MIME in d and "image/png" in d for d in data), f"no widget with its picture:\n{cell.source}"
    return len(cells)


@pytest.mark.parametrize("lab", LABS)
def test_colab_pinned_release_lab_with_solutions_runs_from_its_first_cell(lab, colab, tmp_path, monkeypatch):
    _reset(colab["python"], colab["baseline"])
    _Index.asked.clear()
    work = tmp_path / lab  # outside the checkout: the kernel must not import course_lib from its folder
    shutil.copytree(ROOT / "release" / lab, work)
    notebook = work / f"{lab}.ipynb"
    build_submission(ROOT / "release" / lab / f"{lab}.ipynb", solution_answers(ROOT / "source" / lab / f"{lab}.ipynb"),
                     notebook)
    nb = nbformat.read(notebook, as_version=4)
    for cell in _code(nb):  # switch on the widget cells (play() shows its board here: ipywidgets is installed)
        if _is_widget_cell(cell.source):
            cell.source = cell.source.replace("STEPPER = False", "STEPPER = True").replace("PLAY = False", "PLAY = True")
    nbformat.write(nb, notebook)
    nb = _execute(notebook, colab["env"], monkeypatch)
    _check_run(nb, colab)
    _widget_cells_show_widget_and_picture(nb)
    graded = [c for c in _code(nb) if c.metadata.get("nbgrader", {}).get("grade")]
    assert graded and not any("coursetools" in c.source for c in graded)


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_colab_pinned_companion_notebook_runs_from_its_first_cell(name, colab, tmp_path, monkeypatch):
    _reset(colab["python"], colab["baseline"])
    _Index.asked.clear()
    work = tmp_path / "notebooks"
    work.mkdir()
    shutil.copy(ROOT / "notebooks" / name, work / name)
    nb = _execute(work / name, colab["env"], monkeypatch)
    _check_run(nb, colab)
    widgets = _widget_cells_show_widget_and_picture(nb)
    if name.startswith(("02_", "03_")):
        assert widgets, f"{name} should show its widget"


HEADLESS_PLAY = """
import ipywidgets
from course_lib.games import ConnectFour, Isolation, TicTacToe
from course_lib.play import PlayBoard, choose_front, deepening, play_text

def to_depth(game, state, depth):
    return game.actions(state)[depth % len(game.actions(state))]

assert ipywidgets.__version__.startswith("7."), ipywidgets.__version__
print(choose_front("widgets")[0])
board = PlayBoard(TicTacToe(), deepening(to_depth), clock=0.2)
board.squares[(1, 1)].click()
print(board.state.board, board.box.__class__.__name__, "The computer played" in board.message.value)
iso = PlayBoard(Isolation(start=((0, 0), (4, 4))), deepening(to_depth), clock=0.2)
iso.squares[(2, 2)].click()
print(iso.state.positions[0], iso.state.positions[1] != 24)
typed = iter(["3", "9", "q"])
play_text(ConnectFour(), deepening(to_depth), clock=0.2, ask=lambda _: next(typed))
"""


def test_colab_pinned_play_works_headless(colab, tmp_path):
    """course_lib.play under ipywidgets 7: the board answers a click (TicTacToe, Isolation), typed moves work."""
    _reset(colab["python"], colab["baseline"])
    _run([colab["python"], "-m", "pip", "install", "--quiet", CFG.pinned], env=colab["env"], cwd=tmp_path, timeout=300)
    out = _run([colab["python"], "-c", HEADLESS_PLAY], env=colab["env"], cwd=tmp_path, timeout=120).stdout
    _reset(colab["python"], colab["baseline"])
    lines = out.splitlines()
    assert lines[0] == "widgets", out
    board, box, answered = lines[1].split()
    assert board.count("X") == 1 and board.count("O") == 1 and board[4] == "X" and box == "VBox" and answered == "True"
    assert lines[2] == "12 True", out
    assert "9 is not a legal move here. Legal moves: 0, 1, 2, 3, 4, 5, 6" in out and lines[-1] == "Stopped.", out


def test_colab_pinned_environment_is_colabs(colab):
    """The kernel really runs Colab's versions (ipywidgets 7, IPython 7, ...) and lacks the instructor's tools."""
    _reset(colab["python"], colab["baseline"])
    installed = _freeze(colab["python"], colab["env"])
    assert {name: installed.get(name) for name in _pins()} == _pins()
    assert installed["ipywidgets"].startswith("7.")
    assert not installed.keys() & {normalize(CFG.package), "coursetools", "nbgrader", "jupyterlab", "binarytree"}


def test_colab_offline_first_cell_says_what_happened_and_what_to_do(colab, tmp_path, monkeypatch):
    """Neither the index nor GitHub can be reached: plain words, no traceback, nothing installed."""
    _reset(colab["python"], colab["baseline"])
    lab = LABS[0]
    shutil.copytree(ROOT / "release" / lab, tmp_path / lab)
    closed = _closed_port()
    gitconfig = tmp_path / "gitconfig"
    gitconfig.write_text(f'[url "http://127.0.0.1:{closed}/"]\n\tinsteadOf = https://github.com/\n')
    env = dict(colab["env"], PIP_INDEX_URL=f"http://127.0.0.1:{closed}/simple/", GIT_CONFIG_GLOBAL=str(gitconfig))
    nb = _execute(tmp_path / lab / f"{lab}.ipynb", env, monkeypatch, allow_errors=True)
    first = _code(nb)[0]
    said = _stream(first)
    assert [o.output_type for o in first.outputs] == ["stream"] and first.outputs[0].name == "stdout", first.outputs
    assert said.splitlines()[:3] == [
        "course_lib, the course's helper package, could not be installed:",
        "  - from the Python Package Index: no network: it could not be reached",
        f"  - from the course's repository at tag {CFG.ref}: no network: it could not be reached",
    ], said
    assert "What to do: connect this runtime to the internet and run this cell again, or\n" \
        f"install course_lib from a file: the course's wheel, {WHEEL},\n" in said
    assert f"%pip install /path/to/{WHEEL}   then run this cell again" in said
    _assert_plain(said)
    later = [o for c in _code(nb)[1:] for o in c.outputs if o.output_type == "error"]
    assert later and later[0].ename == "ModuleNotFoundError" and "course_lib" in later[0].evalue
    assert sorted(os.listdir(_site(colab["python"]))) == colab["baseline"], "nothing was installed"


def test_colab_first_cell_falls_back_to_the_editions_tag(colab, tmp_path):
    """The index is up but does not have the package: the cell installs it from the student edition's tag."""
    _reset(colab["python"], colab["baseline"])
    port = colab["server"].server_address[1]
    env = dict(colab["env"], PIP_INDEX_URL=f"http://127.0.0.1:{port}/without-course/")
    done = subprocess.run([str(colab["python"]), "-c", setup_code(CFG)], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=300)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert done.stdout.splitlines() == [
        "  - from the Python Package Index: the package is not published yet",
        f"installed course_lib from the course's repository at tag {CFG.ref} ({CFG.install_source})",
    ], done.stdout
    direct = _installed(colab["python"])
    assert direct["vcs_info"] == {"vcs": "git", "requested_revision": CFG.ref, "commit_id": colab["commit"]}
    version = _run([colab["python"], "-c", "import course_lib, binarytree; print(course_lib.__version__)"],
                   env=env, cwd=tmp_path).stdout.strip()
    assert version == CFG.version
    _reset(colab["python"], colab["baseline"])


# --- the set-up cell when nothing is published yet ----------------------------------------------------------

BOILERPLATE = ("originates from a subprocess", "subprocess-exited-with-error", "likely not a problem with pip",
               "note:", "hint:", "Traceback")


def _assert_plain(said: str) -> None:
    """No pip boilerplate, and no address: nothing links to a page that may not exist."""
    assert not [b for b in BOILERPLATE if b in said], said
    assert "http" not in said and "github.com" not in said and "/issues" not in said, said


def _setup_cell(colab, env: dict, cwd: Path) -> str:
    """Run the committed set-up cell's code in the pinned Python; its output (it must not fail)."""
    done = subprocess.run([str(colab["python"]), "-c", setup_code(CFG)], capture_output=True, text=True, env=env,
                          cwd=cwd, stdin=subprocess.DEVNULL, timeout=300)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr
    return done.stdout


def _github_at(colab, tmp: Path, where: str) -> dict:
    """The environment with https://github.com/ sent to `where`: the missing-repository and missing-tag cases."""
    port = colab["server"].server_address[1]
    base = {"no repository (GitHub asks for a password)": f"http://127.0.0.1:{port}/private/",
            "no repository (the server answers 404)": f"http://127.0.0.1:{port}/nowhere/",
            "no repository (a local path)": (tmp / "empty").as_uri() + "/",
            "no tag": (colab["tmp"] / "github-untagged").as_uri() + "/"}[where]
    gitconfig = tmp / "gitconfig"
    gitconfig.write_text(f'[url "{base}"]\n\tinsteadOf = https://github.com/\n')
    return dict(colab["env"], PIP_INDEX_URL=f"http://127.0.0.1:{port}/without-course/",
                GIT_CONFIG_GLOBAL=str(gitconfig))


@pytest.mark.parametrize("where", ["no repository (GitHub asks for a password)",
                                   "no repository (the server answers 404)", "no repository (a local path)",
                                   "no tag"])
def test_colab_unpublished_first_cell_says_so_and_installs_from_the_wheel(where, colab, tmp_path):
    """Index without the package, repository or tag missing: plain words, then the wheel installs it."""
    _reset(colab["python"], colab["baseline"])
    env = _github_at(colab, tmp_path, where)
    work = tmp_path / "lab"
    work.mkdir()
    said = _setup_cell(colab, env, work)
    lines = said.splitlines()
    assert lines[:3] == [
        "course_lib, the course's helper package, could not be installed:",
        "  - from the Python Package Index: the package is not published yet",
        f"  - from the course's repository at tag {CFG.ref}: the repository or tag does not exist (yet)",
    ], said
    assert f"What to do: install course_lib from a file: the course's wheel, {WHEEL},\n" in said
    assert "connect this runtime" not in said
    assert f"%pip install /path/to/{WHEEL}   then" in said and f"{CFG.source_env}=/path/to/{WHEEL} (or to" in said
    _assert_plain(said)
    assert sorted(os.listdir(_site(colab["python"]))) == colab["baseline"], "nothing was installed"
    # what it offers works: the wheel beside the notebook, or named by the environment variable
    wheel = next(p for p in colab["dist"] if p.suffix == ".whl")
    assert wheel.name == WHEEL
    if where == "no tag":
        said = _setup_cell(colab, dict(env, **{CFG.source_env: str(wheel)}), work)
        assert said == f"installed course_lib from {CFG.source_env} (set in this environment) ({wheel})\n", said
    else:
        shutil.copy(wheel, work / WHEEL)
        said = _setup_cell(colab, env, work)
        assert said == f"installed course_lib from the wheel beside this notebook ({WHEEL})\n", said
    version = _run([colab["python"], "-c", "import course_lib, binarytree; print(course_lib.__version__)"],
                   env=env, cwd=tmp_path).stdout.strip()
    assert version == CFG.version
    _reset(colab["python"], colab["baseline"])


def test_colab_first_cell_names_a_missing_file(colab, tmp_path):
    """COURSE_LIB_SOURCE names a wheel that is not there: it says so, and nothing else is tried."""
    _reset(colab["python"], colab["baseline"])
    env = dict(colab["env"], **{CFG.source_env: str(tmp_path / WHEEL)})
    said = _setup_cell(colab, env, tmp_path)
    assert said.splitlines()[:2] == [
        "course_lib, the course's helper package, could not be installed:",
        f"  - from {CFG.source_env} (set in this environment): that file or folder does not exist",
    ], said
    _assert_plain(said)
