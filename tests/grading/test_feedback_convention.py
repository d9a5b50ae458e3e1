"""One feedback convention in every lab, read from the release notebooks and from real feedback.

- the title reads ``# Lab NN: topic`` (lower case after the colon);
- the text near the top says what is graded: every test cell by its grade id with its points,
  and that every test cell also runs hidden cases when the notebook is graded;
- each visible test cell prints exactly one line on success, ``<grade id>: visible tests passed``; a cell whose
  visible checks rely on another graded function prints instead ``<grade id>: visible tests skipped: ...`` when that
  function is wrong (its own test cells grade it)
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


def printed(statement: ast.stmt) -> ast.Call | None:
    """The print call that `statement` is, or None."""
    call = statement.value if isinstance(statement, ast.Expr) else None
    return call if isinstance(call, ast.Call) and getattr(call.func, "id", None) == "print" else None


def skip_line_start(call: ast.Call) -> str:
    """The constant text a skip line's print starts with (its first argument, an f-string or a string)."""
    first = call.args[0] if call.args else None
    parts = first.values if isinstance(first, ast.JoinedStr) else [first]
    return parts[0].value if parts and isinstance(parts[0], ast.Constant) and isinstance(parts[0].value, str) else ""


@pytest.mark.parametrize("lab", LABS)
def test_each_visible_test_cell_prints_one_line_on_success(lab):
    """One print, the success line, as the cell's last statement; or, where the visible checks run a function that
    calls another graded function and are skipped when that one is wrong, a last `if` with one branch printing one
    skip line (`<grade id>: visible tests skipped: ...`, written out or made by the cell's `skip_line(<grade id>,
    ...)`) as its only statement, and the other branch ending with the success line."""
    cells = graded_cells(release(lab))
    assert cells
    for cell in cells:
        gid = cell.metadata.nbgrader["grade_id"]
        tree = ast.parse(cell.source)
        prints = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "print"]
        last = tree.body[-1]
        if isinstance(last, ast.If) and last.orelse and len(prints) == 2:
            branches = [last.body, last.orelse]
            skipping = [b for b in branches if len(b) == 1 and printed(b[0]) and is_skip_line(printed(b[0]), gid)]
            assert len(skipping) == 1, (f"{lab} {gid}: a test cell that may skip its visible checks ends with an if "
                                        f"one of whose branches only prints {gid + ': visible tests skipped: ...'!r}")
            other = branches[1 - branches.index(skipping[0])]
            success = printed(other[-1])
        else:
            success = printed(last)
            assert len(prints) == 1, f"{lab} {gid}: a test cell prints exactly one line, as its last statement"
        assert success is not None, f"{lab} {gid}: a test cell prints exactly one line, as its last statement"
        assert [getattr(a, "value", None) for a in success.args] == [success_line(cell)], (
            f"{lab}: the success line must read {success_line(cell)!r}")


def is_skip_line(call: ast.Call, gid: str) -> bool:
    """Whether `call` (a print) prints the skip line of cell `gid`: a string starting with its words, or the cell's
    ``skip_line(gid, ...)``."""
    first = call.args[0] if len(call.args) == 1 else None
    if isinstance(first, ast.Call) and getattr(first.func, "id", None) == "skip_line":
        return bool(first.args) and getattr(first.args[0], "value", None) == gid
    return skip_line_start(call).startswith(f"{gid}: visible tests skipped: ")


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
