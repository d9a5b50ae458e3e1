"""What a lab's submissions are before anything grades them: which students submitted (`submitted_students`),
whether a submission can be graded (`check_submission`, under the caps of `notebook_caps`), its
``timestamp.txt`` (`read_timestamp`), and whether its grades are already up to date (`is_up_to_date`).

Nothing here follows a link or opens a student's file for writing.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import nbformat

from coursetools.sandbox.safecopy import entry_problem, read_regular

NOTEBOOK_MAX_MB_ENV, NOTEBOOK_MAX_CELLS_ENV = "COURSE_NOTEBOOK_MAX_MB", "COURSE_NOTEBOOK_MAX_CELLS"


def read_timestamp(folder: Path) -> str | None:
    """The submission's ``timestamp.txt``, read without following a link (None when it is not a small plain file)."""
    try:
        return read_regular(folder / "timestamp.txt", 4096).decode(errors="replace").strip()
    except (OSError, ValueError):
        return None


def submitted_students(root: Path, lab: str) -> list[str]:
    """The students with a folder `lab` in submitted/ (a link there counts: `check_submission` refuses it)."""
    base = root / "submitted"
    if not base.is_dir():
        return []
    return sorted(p.name for p in base.iterdir() if (p / lab).is_dir() or (p / lab).is_symlink())


def notebook_caps() -> tuple[int, int]:
    """(bytes, cells) a submitted notebook may have: ``COURSE_NOTEBOOK_MAX_MB`` (20) and ``COURSE_NOTEBOOK_MAX_CELLS``
    (2000)."""
    def env(name: str, default: int) -> int:
        try:
            return max(1, int(os.environ.get(name, default)))
        except ValueError:
            return default
    return env(NOTEBOOK_MAX_MB_ENV, 20) * 1024 * 1024, env(NOTEBOOK_MAX_CELLS_ENV, 2000)


def check_submission(root: Path, lab: str, student: str, names: list[str]) -> str | None:
    """Why `student`'s submission cannot be graded (None when it can).

    Nothing is followed: a student's folder or notebook that is a link is refused, and a notebook over the size or
    cell-count cap (`notebook_caps`) is refused before it is validated."""
    folder = root / "submitted" / student / lab
    for path in (folder.parent, folder):
        problem = entry_problem(path)
        if problem:
            return f"{path.relative_to(root)} is {problem}, not a folder"
    max_bytes, max_cells = notebook_caps()
    present = []
    for n in names:
        problem = entry_problem(folder / f"{n}.ipynb")
        if problem:
            return f"{folder.relative_to(root)}/{n}.ipynb is {problem}, not a notebook"
        if (folder / f"{n}.ipynb").is_file():
            present.append(n)
    if not present:
        found = sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []
        return f"no {' or '.join(n + '.ipynb' for n in names)} in {folder.relative_to(root)} (found: {found or 'nothing'})"
    for name in present:
        path = folder / f"{name}.ipynb"
        try:
            raw = read_regular(path, max_bytes)
            data = json.loads(raw)
        except ValueError as exc:  # over the size cap, or not JSON
            msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            if "cap of" in msg:
                return f"{path.relative_to(root)} is too big to grade: {msg} ({NOTEBOOK_MAX_MB_ENV})"
            return f"{path.relative_to(root)} is not a valid notebook ({type(exc).__name__}: {msg[:200]})"
        except (OSError, RecursionError) as exc:
            return f"{path.relative_to(root)} could not be read ({type(exc).__name__}: {str(exc)[:200]})"
        cells = data.get("cells") if isinstance(data, dict) else None
        if isinstance(cells, list) and len(cells) > max_cells:
            return (f"{path.relative_to(root)} is too big to grade: {len(cells)} cells, over the cap of {max_cells} "
                    f"({NOTEBOOK_MAX_CELLS_ENV})")
        try:
            nbformat.validate(nbformat.reads(raw.decode(errors="replace"), as_version=4))
        except Exception as exc:  # JSON that is not a notebook, ...
            msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            return f"{path.relative_to(root)} is not a valid notebook ({type(exc).__name__}: {msg[:200]})"
    return None


def is_up_to_date(root: Path, lab: str, student: str, names: list[str], recorded: set[str]) -> bool:
    """True when the autograded copy matches the submission and the gradebook has its grades."""
    if student not in recorded:
        return False
    sub, out = root / "submitted" / student / lab, root / "autograded" / student / lab
    if not all((out / f"{n}.ipynb").is_file() for n in names if (sub / f"{n}.ipynb").is_file()):
        return False
    return read_timestamp(sub) == read_timestamp(out)
