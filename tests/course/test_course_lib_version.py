"""A release notebook's first cell knows the course_lib it was released with, and says how to update an older one.

The version is written into the set-up cell when the labs are stamped and released, from `course_lib.__version__`
(the one place it lives). A Colab runtime or a home install may hold an older course_lib than the lab: the first cell
then says so in plain words, with what to do, and nothing else stops. Here a real kernel runs the first cell of a
released lab with an older course_lib first on its path: a copy of this one, labelled one version older.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from coursetools.course.stamp import SETUP_TAG, load_config, package_version
from coursetools.labs import LABS

ROOT = Path(__file__).resolve().parents[2]
CFG = load_config(ROOT)


def _first_cell(lab: str) -> nbformat.NotebookNode:
    nb = nbformat.read(ROOT / "release" / lab / f"{lab}.ipynb", as_version=4)
    return next(c for c in nb.cells if c.cell_type == "code")


def _older(version: str) -> str:
    """A version below `version` (0.1.0 -> 0.0.99, 2.0.0 -> 1.99.99)."""
    numbers = [int(n) for n in re.match(r"\d+(\.\d+)*", version).group(0).split(".")]
    i = max(k for k, n in enumerate(numbers) if n > 0)
    return ".".join(map(str, numbers[:i] + [numbers[i] - 1] + [99] * (len(numbers) - i - 1)))


def _run(cells: list[str], tmp_path: Path) -> list[nbformat.NotebookNode]:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    return nb.cells


def _text(cell: nbformat.NotebookNode) -> str:
    return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")


@pytest.mark.parametrize("lab", LABS)
def test_the_first_cell_of_every_release_carries_the_version_of_the_code(lab):
    cell = _first_cell(lab)
    assert SETUP_TAG in cell.metadata.get("tags", [])
    assert f"released = {package_version(ROOT)!r}" in cell.source


def test_an_older_course_lib_meets_a_newer_release_and_is_told_how_to_update(tmp_path, monkeypatch):
    old = tmp_path / "old"
    shutil.copytree(ROOT / "course_lib", old / "course_lib", ignore=shutil.ignore_patterns("__pycache__"))
    init = old / "course_lib" / "__init__.py"
    older = _older(CFG.version)
    init.write_text(re.sub(r'__version__ = "[^"]+"', f'__version__ = "{older}"', init.read_text()))
    monkeypatch.setenv("PYTHONPATH", str(old))
    monkeypatch.delenv("COURSE_LIB_SOURCE", raising=False)

    setup, where = _run([_first_cell("01_game_trees").source,
                         "import course_lib; print(course_lib.__version__, course_lib.__file__)"], tmp_path)
    said = _text(setup)
    assert not [o for o in setup.outputs if o.output_type == "error"], "the first cell itself never fails"
    assert said.startswith(f"This notebook was released with course_lib {CFG.version}, but the course_lib installed "
                           f"here is {older}, an older one")
    assert "restart the kernel (on Colab: Runtime > Restart session)" in said
    assert f"%pip install --upgrade {CFG.package}=={CFG.version}" in said
    assert f"%pip install --upgrade {CFG.package.replace('-', '_')}-{CFG.version}-py3-none-any.whl" in said
    assert "Traceback" not in said
    assert _text(where).split() == [older, str(old / "course_lib" / "__init__.py")], "the kernel ran the older one"


def test_the_course_lib_of_the_release_is_not_told_anything(tmp_path, monkeypatch):
    monkeypatch.delenv("COURSE_LIB_SOURCE", raising=False)
    (setup,) = _run([_first_cell("03_alphabeta").source], tmp_path)
    assert setup.outputs == []
