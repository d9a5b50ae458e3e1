"""The course's gradebook, as every grading path uses it: where it is (`db_url`, `course_id`), a lab and a student
made sure of (`ensure_assignment`, `ensure_student`), and one way to write a submission into it
(`record_submission`: its grades, or a 0 for work that cannot be graded) and to read its score back.

Batch grading (`grading.autograde`), class grading on the queue (`service.classgrade`) and the self-check
service (`service.records`) all go through these, whatever the gradebook (sqlite or PostgreSQL).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from coursetools import tool_env
from coursetools.grading.intake import read_timestamp


def course_config(root: Path):
    """The course's nbgrader configuration (a traitlets Config)."""
    from traitlets.config.loader import PyFileConfigLoader

    return PyFileConfigLoader("nbgrader_config.py", path=str(root)).load_config()


def db_url(root: Path) -> str:
    """The gradebook's address: ``CourseDirectory.db_url`` of the course's nbgrader_config.py."""
    return course_config(root).CourseDirectory.db_url


def course_id(root: Path) -> str:
    """``CourseDirectory.course_id`` of the course's nbgrader_config.py."""
    return course_config(root).CourseDirectory.course_id


def notebook_names(root: Path, lab: str) -> list[str]:
    """The lab's notebooks, as the gradebook knows them."""
    from nbgrader.api import Gradebook

    with Gradebook(db_url(root), course_id(root)) as gb:
        return sorted(nb.name for nb in gb.find_assignment(lab).notebooks)


@contextmanager
def tools_on_path() -> Iterator[None]:
    """This Python's bin folder first on PATH for the block: nbgrader, in this process, runs ``alembic`` by name
    when it opens or makes a gradebook (a process started by the venv's python without activating it has no such
    PATH)."""
    path = os.environ.get("PATH", "")
    os.environ["PATH"] = tool_env()["PATH"]
    try:
        yield
    finally:
        os.environ["PATH"] = path


def ensure_assignment(root: Path, lab: str) -> None:
    """Record `lab` (its cells, points and hidden tests) in the gradebook if it is not there yet.

    Runs ``nbgrader generate_assignment`` into a throw-away folder, so ``release/`` is not touched.
    """
    from nbgrader.api import Gradebook, MissingEntry

    if not (root / "source" / lab).is_dir():
        raise FileNotFoundError(f"no lab {lab!r}: {root / 'source' / lab} does not exist")
    with tools_on_path(), Gradebook(db_url(root), course_id(root)) as gb:
        try:
            if gb.find_assignment(lab).notebooks:
                return
        except MissingEntry:
            pass
    for attempt in range(3):
        with tempfile.TemporaryDirectory(prefix="release-") as tmp:
            proc = subprocess.run(
                [sys.executable, "-m", "nbgrader", "generate_assignment", lab, "--force", "--log-level=WARN",
                 f"--CourseDirectory.release_directory={tmp}"],
                cwd=root, env=tool_env(), capture_output=True, text=True)
        # Two graders of different labs on one PostgreSQL gradebook can both find the course's row missing and both
        # insert it: the one that loses the race fails on the unique key, and finds the row when it tries again.
        if not proc.returncode or "UniqueViolation" not in proc.stdout + proc.stderr or attempt == 2:
            break
        time.sleep(1 + attempt)
    if proc.returncode:
        raise RuntimeError(f"nbgrader generate_assignment {lab} failed:\n{proc.stdout}{proc.stderr}")


def ensure_student(gb, student: str) -> None:
    """Add `student` to the open gradebook `gb` unless they are there already.

    Two graders of different labs on one PostgreSQL gradebook can both find a student missing and both insert
    them: nbgrader rolls back the one that loses the race (InvalidEntry), and that one then finds the row.
    """
    from nbgrader.api import InvalidEntry

    try:
        gb.update_or_create_student(student)
    except InvalidEntry:
        gb.find_student(student)  # MissingEntry here means the insert failed for another reason


def read_grades(gb, lab: str, student: str) -> dict[str, dict]:
    """A graded submission's notebooks in the open gradebook `gb`, as `record_submission` takes them: per notebook
    its late penalty, its grades' automatic scores and its comments' automatic text (JSON-able)."""
    return {nb.name: {"late_penalty": nb.late_submission_penalty,
                      "grades": {g.name: g.auto_score for g in nb.grades},
                      "comments": {cm.name: cm.auto_comment for cm in nb.comments}}
            for nb in gb.find_submission(lab, student).notebooks}


def record_submission(url: str, course: str, lab: str, student: str, timestamp,
                      notebooks: dict[str, dict] | None = None) -> None:
    """Write one submission into the gradebook at `url`: the student, the submission with its `timestamp` (left
    as it is when empty), and the grades of `notebooks` (`read_grades`). With no notebooks the submission is
    recorded without grades: work that cannot be graded scores 0 (and shows up in exports)."""
    from nbgrader.api import Gradebook
    from sqlalchemy.exc import SAWarning

    with warnings.catch_warnings(), Gradebook(url, course) as gb:
        warnings.simplefilter("ignore", SAWarning)  # nbgrader's own autoflush noise
        ensure_student(gb, student)
        gb.update_or_create_submission(lab, student, **({"timestamp": timestamp} if timestamp else {}))
        for name, nb in (notebooks or {}).items():
            dnb = gb.find_submission_notebook(name, lab, student)
            dnb.late_submission_penalty = nb["late_penalty"]
            for gname, score in nb["grades"].items():
                dg = gb.find_grade(gname, name, lab, student)
                dg.auto_score = score
                dg.needs_manual_grade = dg.manual_score is not None or score is None
            for cname, text in nb["comments"].items():
                gb.find_comment(cname, name, lab, student).auto_comment = text
        gb.db.commit()


def record_unusable(root: Path, lab: str, student: str, url: str, course: str) -> None:
    """A submission that cannot be graded: recorded with a score of 0 (its ``timestamp.txt`` kept), and any
    autograded copy of it removed."""
    root = Path(root)
    record_submission(url, course, lab, student, read_timestamp(root / "submitted" / student / lab))
    shutil.rmtree(root / "autograded" / student / lab, ignore_errors=True)


def submission_score(url: str, course: str, lab: str, student: str) -> float | None:
    """The submission's score in the gradebook at `url` (None when it has none)."""
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(url, course) as gb:
        try:
            return gb.find_submission(lab, student).score
        except MissingEntry:
            return None
