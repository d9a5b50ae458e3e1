"""The worker's half of ``coursetools grade LAB --queue URL``: one submission, sent as its files, graded in a scratch
course of its own (`scratch.make_course`) by the same `Grader` as ``grade --jobs N``, and handed back as data.

The coordinator (`service.classgrade`) alone writes the course's gradebook and ``autograded/``; it writes a
returned submission's files with `write_files`, as this side wrote the submission's.
"""

from __future__ import annotations

import base64
import os
import shutil
import tempfile
from pathlib import Path

from coursetools.course.dates import parse_instant
from coursetools.grading import warm
from coursetools.grading.autograde import Grader
from coursetools.grading.gradebook import course_id, read_grades
from coursetools.grading.scratch import make_course, set_due, template_gradebook

SCRATCH = Path("build") / "worker"


def safe_relpath(name: str) -> Path:
    """`name` as a relative path, refused (ValueError) unless it is plain: no absolute path, no ``.`` or ``..``,
    no empty part, no NUL."""
    path = Path(name)
    if not name or path.is_absolute() or any(part in ("", ".", "..") for part in path.parts) or "\0" in name:
        raise ValueError(f"a file name that is not a plain relative path: {name!r}")
    return path


def write_files(folder: Path, files: dict[str, str]) -> None:
    """Write `files` (base64 by plain relative path, `safe_relpath`) under `folder`, each a new file (never
    through a link, never over a file that is there)."""
    for name, data in files.items():
        dest = folder / safe_relpath(name)
        dest.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        with os.fdopen(fd, "wb") as f:
            f.write(base64.b64decode(data))


def grade_in_scratch(root: Path, lab: str, student: str, files: dict[str, str], submission_timeout: float,
                     sandbox: str | bool, due: str | None = None) -> dict:
    """Grade one submission (its files, base64 by relative path) in a scratch copy of `lab` whose due date is the
    coordinator's `due` (ISO 8601 with its offset, None: no due date); its grades, comments, autograded files and
    what the grader noted, as JSON-able data."""
    from nbgrader.api import Gradebook, MissingEntry

    safe_relpath(student)
    template = template_gradebook(root, lab)
    (Path(root) / SCRATCH).mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix=f"{lab}-", dir=Path(root) / SCRATCH))
    try:
        make_course(folder, Path(root), lab, template, what="a class grading's scratch course")
        set_due(folder / "gradebook.db", course_id(folder), lab, parse_instant(due) if due else None)
        sub = folder / "submitted" / student / lab
        sub.mkdir(parents=True)
        write_files(sub, files)
        report = Grader(folder, lab, jobs=1, students=[student], force=True, submission_timeout=submission_timeout,
                        sandbox=sandbox, progress=None, starter=warm.starter()).run()
        r = report.results[student]
        out = {"status": r.status, "reason": r.reason, "seconds": r.seconds, "flags": r.flags, "notes": r.notes,
               "timing": r.timing, "notebooks": {}, "autograded": {}, "warnings": report.warnings}
        if r.status == "graded":
            with Gradebook("sqlite:///" + str(folder / "gradebook.db"), course_id(folder)) as gb:
                try:
                    out["notebooks"] = read_grades(gb, lab, student)
                except MissingEntry:
                    pass
            graded = folder / "autograded" / student / lab
            for path in sorted(graded.rglob("*")):
                if path.is_file() and not path.is_symlink():
                    out["autograded"][str(path.relative_to(graded))] = base64.b64encode(path.read_bytes()).decode()
        return out
    finally:
        shutil.rmtree(folder, ignore_errors=True)
