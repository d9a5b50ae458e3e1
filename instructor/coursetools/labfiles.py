"""A lab's files as the tools read them: the source notebook's solutions, and nbgrader run on a course folder.

Used by the bug bank (`coursetools.bank`), the toy and one-lab courses (`coursetools.toycourse`) and the demo.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import nbformat

from . import tool_env


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


def run_nbgrader(course: Path, *args: str, timeout: float = 1800) -> subprocess.CompletedProcess:
    """Run an nbgrader command in `course`, raising with its output if it fails."""
    env = tool_env(COURSE_DB_URL="sqlite:///" + str(course / "gradebook.db"))
    proc = subprocess.run([sys.executable, "-m", "nbgrader", *args, "--log-level=WARN"], cwd=course,
                          capture_output=True, text=True, timeout=timeout, env=env)
    if proc.returncode:
        raise RuntimeError(f"nbgrader {' '.join(args)} failed:\n{proc.stdout}\n{proc.stderr}")
    return proc
