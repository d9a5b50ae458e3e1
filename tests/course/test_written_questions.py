"""The written questions graded by hand: one or two at the end of every lab, with a rubric that stays in source/.

A written question is a markdown answer cell graded by hand (nbgrader ``solution`` and ``grade``),
after a plain markdown cell that asks it. In ``source/`` the answer cell holds, between the solution
markers, a model answer and the rubric; ``nbgrader generate_assignment`` replaces that whole region by
the text stub, so the release holds neither. The real-browser test grades one by hand in formgrader.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from coursetools import tool_env
from coursetools.course.labfiles import MODEL_ANSWER, RUBRIC, rubric_lines, written_answers
from coursetools.course.leakcheck import MIN_LENGTH, find_leaks
from coursetools.quality.submission import build_submission
from coursetools.labs import LABS

ROOT = Path(__file__).resolve().parents[2]
STUB = "YOUR ANSWER HERE"


def _written_cells(notebook: Path) -> list[tuple[int, nbformat.NotebookNode]]:
    nb = nbformat.read(notebook, as_version=4)
    return [(i, c) for i, c in enumerate(nb.cells)
            if c.cell_type == "markdown" and c.metadata.get("nbgrader", {}).get("grade")
            and c.metadata["nbgrader"].get("solution")]


def _private_lines(lab: str) -> set[str]:
    """Every line of the model answers and rubrics long enough to mean something."""
    source = ROOT / "source" / lab / f"{lab}.ipynb"
    lines = {ln.strip() for text in written_answers(source).values() for ln in text.splitlines()}
    lines |= {ln for rubric in rubric_lines(source).values() for ln in rubric}
    return {ln for ln in lines if len(ln) >= MIN_LENGTH}


@pytest.mark.parametrize("lab", LABS)
def test_each_lab_ends_with_written_questions_and_their_rubric(lab):
    path = ROOT / "source" / lab / f"{lab}.ipynb"
    nb = nbformat.read(path, as_version=4)
    cells = _written_cells(path)
    assert 1 <= len(cells) <= 2, f"{lab}: {len(cells)} written questions, expected one or two"
    last_code_or_test = max(i for i, c in enumerate(nb.cells) if c.cell_type == "code")
    rubrics = rubric_lines(path)
    for i, cell in cells:
        meta = cell.metadata["nbgrader"]
        gid, points = meta["grade_id"], meta["points"]
        assert i > last_code_or_test, f"{lab}: {gid} must come after the lab's last code cell"
        assert gid.startswith("written_") and points > 0 and not meta.get("locked"), (gid, meta)
        source = cell.source.strip().splitlines()
        assert source[0] == "### BEGIN SOLUTION" and source[-1] == "### END SOLUTION", (
            f"{lab}: the whole answer cell of {gid} must be one solution region, so nothing of it is released")
        assert MODEL_ANSWER in cell.source and len(written_answers(path)[gid].split()) >= 30, gid
        header = re.fullmatch(r"\*\*Rubric \((\d+) points?\)\.\*\*", rubrics[gid][0])
        assert header and int(header.group(1)) == points, f"{lab}: {gid}'s rubric must say its {points} points"
        assert sum(ln.startswith("- ") and "point" in ln for ln in rubrics[gid]) >= 2, f"{gid}: a rubric item per point"
        question = nb.cells[i - 1]
        assert question.cell_type == "markdown" and "graded by hand" in question.source, (
            f"{lab}: the cell before {gid} asks the question and says it is graded by hand")
        assert f"({points} points)" in question.source, f"{lab}: the question of {gid} gives its points"


@pytest.mark.parametrize("lab", LABS)
def test_release_holds_the_stub_and_no_rubric_nor_model_answer(lab):
    source = ROOT / "source" / lab / f"{lab}.ipynb"
    release = ROOT / "release" / lab / f"{lab}.ipynb"
    want = {c.metadata["nbgrader"]["grade_id"]: c.metadata["nbgrader"]["points"] for _, c in _written_cells(source)}
    got = {c.metadata["nbgrader"]["grade_id"]: (c.metadata["nbgrader"]["points"], c.source)
           for _, c in _written_cells(release)}
    assert {gid: pts for gid, (pts, _) in got.items()} == want
    assert all(text == STUB for _, text in got.values()), got
    private = _private_lines(lab)
    assert len(private) >= 8, f"{lab}: too few rubric and model-answer lines to check ({len(private)})"
    assert not find_leaks(ROOT / "release" / lab, private)
    released = "\n".join(p.read_text(errors="replace") for p in (ROOT / "release" / lab).rglob("*") if p.is_file())
    assert RUBRIC not in released and MODEL_ANSWER not in released
    assert [p.name for p in (ROOT / "source" / lab).iterdir()] == [f"{lab}.ipynb"], (
        "nbgrader copies every file of source/<lab>/ into the release: a rubric must not be a file there")


def test_nbgrader_itself_strips_the_rubric(tmp_path):
    """A fresh generate_assignment (not the committed release/) holds no rubric or model-answer line.

    One lab is enough to show what nbgrader does with the region (every lab's cell has the same shape);
    the committed release of every lab is checked above.
    """
    for lab in LABS[:1]:
        proc = subprocess.run([sys.executable, "-m", "nbgrader", "generate_assignment", lab, "--force",
                               "--log-level=ERROR", f"--CourseDirectory.release_directory={tmp_path}",
                               f"--CourseDirectory.db_url=sqlite:///{tmp_path / 'gradebook.db'}"],
                              cwd=ROOT, env=tool_env(), capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr[-2000:]
        assert (tmp_path / lab / f"{lab}.ipynb").is_file()
        assert not find_leaks(tmp_path / lab, _private_lines(lab))


def test_demo_students_answer_with_the_model_answer_only(tmp_path):
    for lab in LABS:
        source = ROOT / "source" / lab / f"{lab}.ipynb"
        answers = written_answers(source)
        out = build_submission(ROOT / "release" / lab / f"{lab}.ipynb", answers, tmp_path / lab / f"{lab}.ipynb")
        handed_in = {c.metadata["nbgrader"]["grade_id"]: c.source for _, c in _written_cells(out)}
        assert handed_in == {gid: text.rstrip("\n") for gid, text in answers.items()}
        assert all(text != STUB for text in handed_in.values())
        rubric = {ln for lines in rubric_lines(source).values() for ln in lines if len(ln) >= MIN_LENGTH}
        assert not find_leaks(tmp_path / lab, rubric), "a student's answer never carries the rubric"

