"""A tiny course for the pipeline's tests and benchmarks: one lab, two functions, five points.

`make_toy_course(folder)` writes a course folder with the real ``nbgrader_config.py``
(whose root is its own folder), a source notebook ``source/toy/toy.ipynb`` and, on
request, the student version in ``release/``. `toy_submission` builds a submission
from answers text with the labs' submission tool, exactly as the demo class is built.

Every hidden line of the toy lab carries the marker ``HIDDEN-TOY``, so leak tests can
look for it in every generated file.
"""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import tempfile
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from coursetools import course_root
from coursetools.course.labfiles import run_nbgrader, solution_answers
from coursetools.quality.submission import build_submission

LAB = "toy"
HIDDEN_MARKER = "HIDDEN-TOY"
MAX_SCORE = 5.0

PERFECT = """\
# %% add_solution
def add(a, b):
    return a + b
# %% mul_solution
def mul(a, b):
    return a * b
"""


def _cell(kind: str, source: str, grade_id: str, *, points: float = 0.0, solution: bool = False,
          grade: bool = False) -> nbformat.NotebookNode:
    meta = {"grade": grade, "grade_id": grade_id, "locked": not solution, "schema_version": 3, "solution": solution}
    if grade:
        meta["points"] = points
    cell = new_code_cell(source) if kind == "code" else new_markdown_cell(source)
    cell.metadata["nbgrader"] = meta
    return cell


def _hidden(group: str, name: str) -> str:
    """A hidden part: the grader runs its check in its own process (`coursetools.checks.toy`)."""
    return (f"### BEGIN HIDDEN TESTS\nfrom coursetools.hidden import check  # {HIDDEN_MARKER}\n"
            f'check("toy", "{group}", {name}={name})  # {HIDDEN_MARKER}\n### END HIDDEN TESTS')


WRITTEN_POINTS = 2.0


def toy_source_notebook(*, written: bool = False) -> nbformat.NotebookNode:
    """The toy lab with its solutions and hidden tests (and, with `written`, a written answer graded by hand)."""
    cells = [
        _cell("markdown", "# Toy lab\nWrite `add` and `mul`.", "intro"),
        _cell("code", "def add(a, b):\n    ### BEGIN SOLUTION\n    return a + b\n    ### END SOLUTION", "add_solution",
              solution=True),
        _cell("code", 'assert add(1, 2) == 3, "add(1, 2) should be 3"\n' + _hidden("add_visible", "add"),
              "test_add_visible", points=1, grade=True),
        _cell("markdown", "Now the hidden checks of `add`.", "between"),
        _cell("code", 'assert add(2, 2) == 4, "add(2, 2) should be 4"\n' + _hidden("add", "add"),
              "test_add_hidden", points=2, grade=True),
        _cell("code", "def mul(a, b):\n    ### BEGIN SOLUTION\n    return a * b\n    ### END SOLUTION", "mul_solution",
              solution=True),
        _cell("code", 'assert type(mul(2, 3)) is int and mul(2, 3) == 6, "mul(2, 3) should be 6"\n'
              + _hidden("mul", "mul"), "test_mul", points=2, grade=True),
    ]
    if written:
        cells.append(_cell("markdown", "Why is `add` commutative?\n\n=== BEGIN MARK SCHEME ===\nAny true reason.\n"
                           "=== END MARK SCHEME ===", "why_add", points=WRITTEN_POINTS, solution=True, grade=True))
    nb = new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nb.metadata["language_info"] = {"name": "python"}
    return nb


def make_toy_course(folder: Path, *, config_extra: str = "", release: bool = True, written: bool = False) -> Path:
    """Write a toy course into `folder` (created) and return it; `config_extra` is appended to the config, and
    `written` adds a written answer worth `WRITTEN_POINTS`, graded by hand.

    The released course (student version and gradebook) is made by nbgrader once per process and copied after
    that, unless `config_extra` or ``COURSE_DB_URL`` could change what nbgrader makes."""
    folder = Path(folder)
    if release and not config_extra and not written and not os.environ.get("COURSE_DB_URL"):
        shutil.copytree(_released_toy_course(), folder, dirs_exist_ok=True)
        write_course_config(folder, course_root(), "")
        return folder
    (folder / "source" / LAB).mkdir(parents=True, exist_ok=True)
    write_course_config(folder, course_root(), config_extra)
    nbformat.write(toy_source_notebook(written=written), folder / "source" / LAB / f"{LAB}.ipynb")
    if release:
        run_nbgrader(folder, "generate_assignment", LAB, "--force")
    return folder


@functools.lru_cache(maxsize=1)
def _released_toy_course() -> Path:
    """A toy course released by nbgrader, in a folder of this process's own (removed when it exits)."""
    holder = tempfile.TemporaryDirectory(prefix="toycourse-")
    atexit.register(holder.cleanup)
    folder = make_toy_course(Path(holder.name) / "course", release=False)
    run_nbgrader(folder, "generate_assignment", LAB, "--force")
    return folder


def write_course_config(folder: Path, root: Path, extra: str) -> None:
    """The course's own nbgrader_config.py (its root is the folder it sits in), then `extra`."""
    config = (root / "nbgrader_config.py").read_text()
    (folder / "nbgrader_config.py").write_text(config + ("\n# --- test course ---\n" + extra if extra else ""))


def toy_submission(course: Path, student: str, answers: str, *, timestamp: str | None = None) -> Path:
    """Put `student`'s submission (answers text, sections ``# %% grade_id``) into submitted/ and return it."""
    out = course / "submitted" / student / LAB / f"{LAB}.ipynb"
    build_submission(course / "release" / LAB / f"{LAB}.ipynb", _answers(answers), out)
    if timestamp:
        (out.parent / "timestamp.txt").write_text(timestamp)
    return out


def _answers(text: str) -> dict[str, str]:
    from coursetools.quality.submission import parse_answers

    return parse_answers(text)


def remove_course(folder: Path) -> None:
    """Delete a toy course (nbgrader leaves read-only files behind)."""
    shutil.rmtree(folder, ignore_errors=True)


def make_lab_course(folder: Path, lab: str, *, config_extra: str = "", root: Path | None = None) -> Path:
    """A course in `folder` holding one real lab of the course at `root` (source, release and gradebook)."""
    folder, root = Path(folder), root or course_root()
    (folder / "source").mkdir(parents=True, exist_ok=True)
    shutil.copytree(root / "source" / lab, folder / "source" / lab)
    write_course_config(folder, root, config_extra)
    run_nbgrader(folder, "generate_assignment", lab, "--force")
    return folder


def solution_submission(course: Path, lab: str, student: str, *, bank_entry: str | None = None) -> Path:
    """`student` hands in the lab with the source notebook's own solutions (every notebook of the lab),
    or, given `bank_entry`, with that entry of ``bank/<lab>/`` in place of the solutions it replaces."""

    out = None
    for source in sorted((course / "source" / lab).glob("*.ipynb")):
        answers = solution_answers(source)
        if bank_entry is not None:
            answers.update(_answers((course_root() / "bank" / lab / f"{bank_entry}.py").read_text()))
        out = course / "submitted" / student / lab / source.name
        build_submission(course / "release" / lab / source.name, answers, out)
    return out
