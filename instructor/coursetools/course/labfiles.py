"""A lab's files as the tools read them: the source notebook's solutions, and nbgrader run on a course folder.

Used by the bug bank (`coursetools.quality.bank`), the toy and one-lab courses
(`coursetools.quality.toycourse`) and the demo.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import nbformat

from coursetools import tool_env


def solution_answers(source_notebook: Path) -> dict[str, str]:
    """The source notebook's solution cells, stripped of the solution markers."""
    nb = nbformat.read(source_notebook, as_version=4)
    out = {}
    for cell in nb.cells:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if meta.get("solution") and cell.cell_type == "code":
            lines = [ln for ln in cell.source.splitlines() if ln.strip() not in ("### BEGIN SOLUTION", "### END SOLUTION")]
            out[meta["grade_id"]] = "\n".join(lines) + "\n"
    return out


MODEL_ANSWER = "**Model answer.**"
RUBRIC = "**Rubric"


def written_answers(source_notebook: Path) -> dict[str, str]:
    """The model answers of the source notebook's written questions (markdown cells graded by hand).

    Such a cell holds, between the solution markers, ``**Model answer.** ...`` and then
    ``**Rubric (N points).** ...``; nbgrader replaces the whole region by the text stub in the
    release, so neither reaches students. Returns ``{grade_id: the model answer}``, without the
    rubric (what a good student would hand in).
    """
    nb = nbformat.read(source_notebook, as_version=4)
    out = {}
    for cell in nb.cells:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if not (meta.get("solution") and meta.get("grade") and cell.cell_type == "markdown"):
            continue
        text = cell.source.replace("### BEGIN SOLUTION", "").replace("### END SOLUTION", "")
        if MODEL_ANSWER not in text or RUBRIC not in text:
            raise ValueError(f"{source_notebook.name}: written question {meta['grade_id']} needs a "
                             f"{MODEL_ANSWER} and a {RUBRIC} (N points).** part")
        answer = text.split(MODEL_ANSWER, 1)[1].split(RUBRIC, 1)[0]
        out[meta["grade_id"]] = answer.strip() + "\n"
    return out


def rubric_lines(source_notebook: Path) -> dict[str, list[str]]:
    """The rubric of each written question, ``{grade_id: its non-empty lines}``."""
    nb = nbformat.read(source_notebook, as_version=4)
    out = {}
    for cell in nb.cells:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if meta.get("solution") and meta.get("grade") and cell.cell_type == "markdown" and RUBRIC in cell.source:
            rubric = cell.source.split(RUBRIC, 1)[1].split("### END SOLUTION", 1)[0]
            out[meta["grade_id"]] = [ln.strip() for ln in (RUBRIC + rubric).splitlines() if ln.strip()]
    return out


def run_nbgrader(course: Path, *args: str, timeout: float = 1800) -> subprocess.CompletedProcess:
    """Run an nbgrader command in `course`, raising with its output if it fails."""
    env = tool_env(COURSE_DB_URL="sqlite:///" + str(course / "gradebook.db"))
    proc = subprocess.run([sys.executable, "-m", "nbgrader", *args, "--log-level=WARN"], cwd=course,
                          capture_output=True, text=True, timeout=timeout, env=env)
    if proc.returncode:
        raise RuntimeError(f"nbgrader {' '.join(args)} failed:\n{proc.stdout}\n{proc.stderr}")
    return proc
