"""The Colab path, tested without Colab.

A virtual environment gets only what Colab ships that the course needs (numpy,
matplotlib, networkx, ipywidgets, ipykernel, from PyPI) and no course_lib; it is built once and
kept in the user's cache folder, and each run checks it holds exactly what it was built with. Its kernel then
runs a release lab with the solutions filled in, and a companion notebook: their first cell
must install course_lib by itself, here from a copy of the local checkout named by
COURSE_LIB_SOURCE (on Colab it comes from the pinned tag of the course repository), and every
cell must run to the end. Graded cells must not need the instructor's tools: the hidden tests
are not in a release notebook, and coursetools is not installed here.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import time
import venv
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from coursetools.bank import solution_answers
from coursetools.submission import build_submission

ROOT = Path(__file__).resolve().parents[1]
COLAB_PACKAGES = ["numpy", "matplotlib", "networkx", "ipywidgets", "ipykernel"]
PREFERRED_LABS = ["03_alphabeta", "02_minimax", "01_game_trees"]
COMPANION = "03_alphabeta_step_by_step.ipynb"
KERNEL = "colab-like"

pytestmark = pytest.mark.slow


def _run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    assert done.returncode == 0, f"{' '.join(cmd)} failed:\n{done.stdout}\n{done.stderr}"
    return done


def _freeze(python: Path, env: dict) -> list[str]:
    return sorted(line.strip() for line in _run([str(python), "-m", "pip", "freeze", "--all"], env=env).stdout.splitlines()
                  if line.strip())


def _colab_venv(env: dict) -> Path:
    """A virtual environment with only COLAB_PACKAGES (and what they need), kept between runs.

    Building it downloads about 40 packages (one to two minutes), so it is kept in the user's
    cache folder and reused while `pip freeze` shows exactly what it had when it was built;
    whatever a run installed into it (course_lib, binarytree and its dependencies) is removed first.
    COURSE_COLAB_REBUILD=1 forces a new one.
    """
    key = hashlib.sha256(f"{sys.version}|{COLAB_PACKAGES}".encode()).hexdigest()[:12]
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "adversarial-search-course"
    env_dir = cache / f"colab-venv-{key}"
    python = env_dir / "bin" / "python"
    marker = env_dir / "freeze.txt"
    if python.exists() and marker.exists() and not os.environ.get("COURSE_COLAB_REBUILD"):
        built = marker.read_text().splitlines()
        names = {line.split("==")[0].split(" @ ")[0].lower() for line in built}
        added = [line.split("==")[0].split(" @ ")[0] for line in _freeze(python, env)
                 if line.split("==")[0].split(" @ ")[0].lower() not in names]
        if added:  # course_lib and its light dependencies, installed by an earlier run
            subprocess.run([str(python), "-m", "pip", "uninstall", "--yes", "--quiet", *added],
                           capture_output=True, env=env)
        if _freeze(python, env) == built:
            return python
    shutil.rmtree(env_dir, ignore_errors=True)
    venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
    _run([str(python), "-m", "pip", "install", "--quiet", *COLAB_PACKAGES], env=env, timeout=900)
    marker.write_text("\n".join(_freeze(python, env)))
    return python


@pytest.fixture(scope="module")
def colab_like(tmp_path_factory):
    """(python of a venv without course_lib, its kernel's JUPYTER_PATH, a copy of the checkout, env)."""
    tmp = tmp_path_factory.mktemp("colab")
    start = time.perf_counter()
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "PIP_"))}
    clean["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    python = _colab_venv(clean)
    missing = _run([str(python), "-c", "import importlib.util as u; print(u.find_spec('course_lib') is None, "
                                        "u.find_spec('coursetools') is None, u.find_spec('binarytree') is None)"],
                   env=clean, cwd=tmp)
    assert missing.stdout.split() == ["True", "True", "True"], "the environment must lack course_lib"
    installed = {line.split("==")[0].lower() for line in _freeze(python, clean)}
    assert {"numpy", "matplotlib", "networkx", "ipywidgets", "ipykernel"} <= installed
    assert not installed & {"jupyterlab", "nbgrader", "notebook", "course-lib", "coursetools"}
    kernels = tmp / "kernels"
    _run([str(python), "-m", "ipykernel", "install", "--prefix", str(kernels), "--name", KERNEL], env=clean)
    checkout = tmp / "checkout"  # the package files of the local checkout, copied so pip builds nothing in it
    checkout.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, checkout / name)
    shutil.copytree(ROOT / "course_lib", checkout / "course_lib", ignore=shutil.ignore_patterns("__pycache__"))
    print(f"environment ready in {time.perf_counter() - start:.0f} s")
    return python, kernels / "share" / "jupyter", checkout, clean


def _execute(nb_path: Path, colab_like, monkeypatch) -> nbformat.NotebookNode:
    python, jupyter_path, checkout, clean = colab_like
    for key in list(os.environ):
        if key not in clean:
            monkeypatch.delenv(key)
    monkeypatch.setenv("JUPYTER_PATH", str(jupyter_path))
    monkeypatch.setenv("COURSE_LIB_SOURCE", str(checkout))
    monkeypatch.setenv("PYTHONNOUSERSITE", "1")
    nb = nbformat.read(nb_path, as_version=4)
    client = NotebookClient(nb, timeout=300, kernel_name=KERNEL, resources={"metadata": {"path": str(nb_path.parent)}})
    client.execute()
    return nb


def _lab() -> str:
    labs = [p.name for p in sorted((ROOT / "release").iterdir())
            if (p / f"{p.name}.ipynb").is_file() and (ROOT / "source" / p.name / f"{p.name}.ipynb").is_file()]
    assert labs, "no lab has both source/ and release/ notebooks yet"
    return next((lab for lab in PREFERRED_LABS if lab in labs), labs[0])


def _stream(cell) -> str:
    return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")


def test_colab_release_lab_installs_course_lib_and_runs_to_the_end(colab_like, tmp_path, monkeypatch):
    lab = _lab()
    work = tmp_path / lab  # outside the checkout: the kernel must not import course_lib from its folder
    shutil.copytree(ROOT / "release" / lab, work)
    build_submission(ROOT / "release" / lab / f"{lab}.ipynb", solution_answers(ROOT / "source" / lab / f"{lab}.ipynb"),
                     work / f"{lab}.ipynb")
    nb = _execute(work / f"{lab}.ipynb", colab_like, monkeypatch)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert "colab-setup" in code[0].metadata.get("tags", [])
    assert "installed course_lib from" in _stream(code[0]), _stream(code[0])
    assert all(c.execution_count for c in code), "every code cell ran"
    assert not [o for c in code for o in c.outputs if o.output_type == "error"]
    graded = [c for c in code if c.metadata.get("nbgrader", {}).get("grade")]
    assert graded and not any("coursetools" in c.source for c in graded)
    python = colab_like[0]
    where = _run([str(python), "-c", "import course_lib, binarytree; print(course_lib.__file__)"], cwd=tmp_path).stdout
    assert str(python.parent.parent) in where, f"course_lib should now live in the fresh environment: {where}"


def test_colab_companion_notebook_runs_with_a_static_figure_beside_its_widget(colab_like, tmp_path, monkeypatch):
    work = tmp_path / "notebooks"
    work.mkdir()
    shutil.copy(ROOT / "notebooks" / COMPANION, work / COMPANION)
    nb = _execute(work / COMPANION, colab_like, monkeypatch)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.execution_count for c in code)
    assert not [o for c in code for o in c.outputs if o.output_type == "error"]
    # the stepper shows a widget and, for viewers without a widget manager, a static picture
    stepper = next(c for c in code if "TraceStepper(" in c.source)
    data = [o.get("data", {}) for o in stepper.outputs if "data" in o]
    assert any("image/png" in d for d in data) and any("application/vnd.jupyter.widget-view+json" in d for d in data)
