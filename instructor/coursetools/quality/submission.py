"""Build a submission from a release notebook and a file of answers.

An answers file is Python text cut into sections by lines ``# %% <grade_id>``; each
section becomes the source of the solution cell with that nbgrader ``grade_id``.
Cells without a section keep their stub, as in an unfinished submission::

    # %% minimax_value
    def minimax_value(game, state):
        ...

Instructors use it to try their hidden tests on typical mistakes (the bug bank) and to
build the demo class.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat

SECTION = re.compile(r"^# %% *([A-Za-z0-9_\-]+) *$", re.MULTILINE)


def parse_answers(text: str) -> dict[str, str]:
    """``{grade_id: source}`` from answers text; text before the first marker is ignored."""
    parts = SECTION.split(text)
    answers: dict[str, str] = {}
    for grade_id, body in zip(parts[1::2], parts[2::2]):
        if grade_id in answers:
            raise ValueError(f"grade_id {grade_id!r} appears twice in the answers")
        answers[grade_id] = body.strip("\n") + "\n"
    return answers


def solution_ids(notebook: nbformat.NotebookNode) -> list[str]:
    """grade_ids of the solution cells, in order."""
    return [c.metadata["nbgrader"]["grade_id"] for c in notebook.cells
            if c.get("metadata", {}).get("nbgrader", {}).get("solution")]


def build_submission(release_notebook: Path, answers: Path | dict[str, str], out: Path) -> Path:
    """Write to `out` the release notebook with its solution cells replaced by `answers`.

    Raises `ValueError` naming any answer whose grade_id has no solution cell.
    """
    nb = nbformat.read(release_notebook, as_version=4)
    if isinstance(answers, Path):
        answers = parse_answers(answers.read_text())
    known = solution_ids(nb)
    unknown = sorted(set(answers) - set(known))
    if unknown:
        raise ValueError(f"answers for {unknown}, but {release_notebook.name} has solution cells {known}")
    for cell in nb.cells:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if meta.get("solution") and meta.get("grade_id") in answers:
            cell.source = answers[meta["grade_id"]].rstrip("\n")
    out.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, out)
    return out
