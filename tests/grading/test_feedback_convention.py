"""One feedback convention in every lab, read from the release notebooks and from real feedback.

- the title reads ``# Lab NN: topic`` (lower case after the colon);
- the text near the top says what is graded: every test cell by its grade id with its points,
  and that every test cell also runs hidden cases when the notebook is graded;
- each visible test cell prints exactly one line on success, ``<grade id>: visible tests passed``
  (tests/course/test_labs.py checks that running the source shows it, followed by the hidden tests' line);
- the feedback page of a graded submission (real nbgrader, real kernel) names every test cell
  with its verdict, instead of one "Test cell" entry per cell.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from coursetools import tool_env
from coursetools.grading.autograde import grade
from coursetools.quality.toycourse import make_lab_course, remove_course, solution_submission
from coursetools.labs import LABS

ROOT = Path(__file__).resolve().parents[2]
HIDDEN_RULE = "Every test cell also runs hidden cases when your notebook is"


def release(lab: str) -> nbformat.NotebookNode:
    return nbformat.read(ROOT / "release" / lab / f"{lab}.ipynb", as_version=4)


def graded_cells(nb: nbformat.NotebookNode) -> list[nbformat.NotebookNode]:
    return [c for c in nb.cells if c.cell_type == "code" and c.metadata.get("nbgrader", {}).get("grade")
            and not c.metadata.nbgrader.get("solution")]


def success_line(cell: nbformat.NotebookNode) -> str:
    return f"{cell.metadata.nbgrader['grade_id']}: visible tests passed"


def test_every_lab_is_found():
    assert len(LABS) >= 6, LABS


@pytest.mark.parametrize("lab", LABS)
def test_title_style(lab):
    first = release(lab).cells[0].source.splitlines()[0]
    assert re.fullmatch(rf"# Lab {lab[:2]}: [a-z][^—]*", first), (
        f"{lab}: the title reads {first!r}; write '# Lab {lab[:2]}: topic in lower case' (as 'Lab 03: alpha-beta pruning')")


@pytest.mark.parametrize("lab", LABS)
def test_the_top_says_what_is_graded_and_that_hidden_cases_run(lab):
    nb = release(lab)
    first_solution = next(i for i, c in enumerate(nb.cells) if c.metadata.get("nbgrader", {}).get("solution"))
    top = "\n".join(c.source for c in nb.cells[:first_solution] if c.cell_type == "markdown")
    flat = " ".join(top.split())
    assert "**What is graded.**" in flat and HIDDEN_RULE in flat, f"{lab}: the text near the top must say that {HIDDEN_RULE}"
    assert "`test_...: visible tests passed`" in flat, f"{lab}: the text near the top must show the success line"
    listed = dict((name, float(points)) for name, points in
                  re.findall(r"`((?:test|written)_\w+)` \((\d+(?:\.\d+)?)\)", top))
    # every graded cell: the test cells and the written questions graded by hand
    cells = {c.metadata.nbgrader["grade_id"]: float(c.metadata.nbgrader["points"]) for c in nb.cells
             if c.metadata.get("nbgrader", {}).get("grade")}
    assert listed == cells, f"{lab}: the table near the top lists {listed}, the graded cells are {cells}"
    total = re.findall(r"\| \| \| \*\*(\d+)\*\* \|", top.split("| you write")[1])
    assert total and float(total[-1]) == sum(cells.values()), f"{lab}: the table's total is not the cells' sum"


@pytest.mark.parametrize("lab", LABS)
def test_each_visible_test_cell_prints_one_line_on_success(lab):
    """One line as the cell's last statement; a cell whose checks run a function that calls another graded function
    may instead skip them, in the else branch of its last statement, with one line (`skip_line(...)`) naming the
    other function's test cell."""
    cells = graded_cells(release(lab))
    assert cells
    for cell in cells:
        tree = ast.parse(cell.source)
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "print"]
        skips = [n for n in calls if n.args and getattr(getattr(n.args[0], "func", None), "id", None) == "skip_line"]
        prints = [n for n in calls if n not in skips]
        last = tree.body[-1]
        if skips:
            assert len(skips) == 1 and isinstance(last, ast.If) and len(last.orelse) == 1 \
                and getattr(last.orelse[0], "value", None) is skips[0], f"{lab}: a skip line is the else of the end"
            last = last.body[-1]
        assert len(prints) == 1 and isinstance(last, ast.Expr) and last.value is prints[0], (
            f"{lab} {cell.metadata.nbgrader['grade_id']}: a test cell prints exactly one line, as its last statement")
        assert [getattr(a, "value", None) for a in prints[0].args] == [success_line(cell)], (
            f"{lab}: the success line must read {success_line(cell)!r}")


@pytest.fixture(scope="module")
def feedback(tmp_path_factory):
    """Lab 01 handed in with one bug of its bank, graded by nbgrader in the sandbox, then fed back."""
    lab = "01_game_trees"
    course = make_lab_course(tmp_path_factory.mktemp("feedback") / "course", lab)
    solution_submission(course, lab, "ann", bank_entry="nim_actions_order")
    report = grade(course, lab, jobs=1, progress=None)
    assert not report.not_graded(), report.summary()
    proc = subprocess.run([sys.executable, "-m", "nbgrader", "generate_feedback", lab, "--log-level=WARN"],
                          cwd=course, env=tool_env(), capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    yield release(lab), (course / "feedback" / "ann" / lab / f"{lab}.html").read_text()
    remove_course(course)


def test_feedback_names_each_test_cell_with_its_verdict(feedback):
    nb, html = feedback
    assert "Test cell" not in html, "the feedback must name the test cells, not call each one 'Test cell'"
    toc = html[html.index('<ol id="toc">'):html.index("</ol>")]
    for cell in graded_cells(nb):
        gid, points = cell.metadata.nbgrader["grade_id"], float(cell.metadata.nbgrader["points"])
        verdict = "failed" if gid == "test_nim_rules" else "passed"
        score = 0.0 if verdict == "failed" else points
        item = (f'<a href="#{gid}">Test <code>{gid}</code></a>:\n<span class="verdict-{verdict}">{verdict}</span>, '
                f"{score} / {points}")
        assert item in toc, f"the feedback's list does not show {gid} as {verdict} ({score} / {points})"
        assert f'<a name="{gid}"></a>' in html and f"<span>Test <code>{gid}</code>: {verdict}" in html
    assert "actions() order" in html, "the failed test's message must reach the student"
    assert "test_nim_immutable: visible tests passed" in html
