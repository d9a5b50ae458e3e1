"""``coursetools grade LAB --queue URL``: a class graded by the self-check service's workers.

The coordinator (this process, on the instructor's machine) checks each submission as ``grade`` does, sends
each one's files as a message on the ``grading`` queue, and collects the results through Dramatiq's result
backend. A worker grades the submission with the same `Grader` as ``grade --jobs N`` (nbgrader, the sandbox,
the same checks) in a scratch copy of the lab with a scratch sqlite gradebook, and hands back the grades and
the autograded notebook. Only the coordinator writes the course's gradebook and ``autograded/``.

A worker's copy of the lab must be the coordinator's: each message carries the lab's fingerprint, and a worker
whose copy differs refuses the message (`queue.CourseMismatch`) instead of grading it with other checks.
"""

from __future__ import annotations

import base64
import fcntl
import hashlib
import os
import shutil
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Callable

from coursetools.grading.autograde import (Grader, Report, Result, _timestamp, check_submission, course_id, db_url,
                                           ensure_assignment, ensure_student, is_up_to_date, notebook_names,
                                           submitted_students)
from coursetools.sandbox.safecopy import copy_submission, printable
from coursetools.service.selfcheck import write_scratch_config

SCRATCH = Path("build") / "worker"


def lab_fingerprint(root: Path, lab: str) -> str:
    """A hash of every file of ``source/<lab>/`` (names and bytes)."""
    h = hashlib.sha256()
    base = Path(root) / "source" / lab
    for path in sorted(p for p in base.rglob("*") if p.is_file() and ".ipynb_checkpoints" not in p.parts):
        h.update(str(path.relative_to(base)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


# --- the worker's side -------------------------------------------------------------------------------------

def _safe_relpath(name: str) -> Path:
    path = Path(name)
    if not name or path.is_absolute() or any(part in ("", ".", "..") for part in path.parts) or "\0" in name:
        raise ValueError(f"a file name that is not a plain relative path: {name!r}")
    return path


def _write_files(folder: Path, files: dict[str, str]) -> None:
    for name, data in files.items():
        dest = folder / _safe_relpath(name)
        dest.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        with os.fdopen(fd, "wb") as f:
            f.write(base64.b64decode(data))


def _template(root: Path, lab: str) -> Path:
    """A sqlite gradebook holding `lab` (made once per worker machine and version of the lab)."""
    base = Path(root) / SCRATCH / "templates"
    base.mkdir(parents=True, exist_ok=True)
    folder = base / f"{lab}-{lab_fingerprint(root, lab)[:16]}"
    with open(base / f"{lab}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / "gradebook.db").is_file():
            shutil.rmtree(folder, ignore_errors=True)
            (folder / "source").mkdir(parents=True)
            shutil.copytree(Path(root) / "source" / lab, folder / "source" / lab)
            write_scratch_config(folder, Path(root), what="a class grading's scratch course")
            ensure_assignment(folder, lab)
    return folder / "gradebook.db"


def grade_in_scratch(root: Path, lab: str, student: str, files: dict[str, str], submission_timeout: float,
                     sandbox: str | bool) -> dict:
    """Grade one submission (its files, base64 by relative path) in a scratch copy of `lab`; its grades, comments,
    autograded files and what the grader noted, as JSON-able data."""
    from nbgrader.api import Gradebook, MissingEntry

    _safe_relpath(student)
    template = _template(root, lab)
    (Path(root) / SCRATCH).mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix=f"{lab}-", dir=Path(root) / SCRATCH))
    try:
        (folder / "source").mkdir()
        shutil.copytree(Path(root) / "source" / lab, folder / "source" / lab)
        write_scratch_config(folder, Path(root), what="a class grading's scratch course")
        src = sqlite3.connect(template)
        dst = sqlite3.connect(folder / "gradebook.db")
        with dst:
            src.backup(dst)
        src.close()
        dst.close()
        sub = folder / "submitted" / student / lab
        sub.mkdir(parents=True)
        _write_files(sub, files)
        report = Grader(folder, lab, jobs=1, students=[student], force=True, submission_timeout=submission_timeout,
                        sandbox=sandbox, progress=None).run()
        r = report.results[student]
        out = {"status": r.status, "reason": r.reason, "seconds": r.seconds, "flags": r.flags, "notes": r.notes,
               "timing": r.timing, "notebooks": {}, "autograded": {}, "warnings": report.warnings}
        if r.status == "graded":
            with Gradebook("sqlite:///" + str(folder / "gradebook.db"), course_id(folder)) as gb:
                try:
                    found = gb.find_submission(lab, student)
                except MissingEntry:
                    found = None
                for nb in found.notebooks if found else []:
                    out["notebooks"][nb.name] = {
                        "late_penalty": nb.late_submission_penalty,
                        "grades": {g.name: g.auto_score for g in nb.grades},
                        "comments": {cm.name: cm.auto_comment for cm in nb.comments}}
            graded = folder / "autograded" / student / lab
            for path in sorted(graded.rglob("*")):
                if path.is_file() and not path.is_symlink():
                    out["autograded"][str(path.relative_to(graded))] = base64.b64encode(path.read_bytes()).decode()
        return out
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# --- the coordinator's side --------------------------------------------------------------------------------

def _files_of(root: Path, lab: str, student: str, names: list[str]) -> tuple[dict[str, str], list[str]]:
    """The submission's files as base64 (copied first without following anything), and what was left out."""
    with tempfile.TemporaryDirectory(prefix="queue-") as tmp:
        copied = copy_submission(Path(root) / "submitted" / student / lab, Path(tmp) / lab,
                                 first=tuple(f"{n}.ipynb" for n in names))
        base = Path(tmp) / lab
        files = {str(p.relative_to(base)): base64.b64encode(p.read_bytes()).decode()
                 for p in sorted(base.rglob("*")) if p.is_file() and not p.is_symlink()}
    return files, list(copied.problems)


def _merge(root: Path, lab: str, student: str, url: str, course: str, result: dict) -> None:
    """Write one graded submission into the course's gradebook, then its notebooks into autograded/."""
    import warnings

    from nbgrader.api import Gradebook
    from sqlalchemy.exc import SAWarning

    stamp = _timestamp(Path(root) / "submitted" / student / lab)
    with warnings.catch_warnings(), Gradebook(url, course) as gb:
        warnings.simplefilter("ignore", SAWarning)
        ensure_student(gb, student)
        gb.update_or_create_submission(lab, student, **({"timestamp": stamp} if stamp else {}))
        for name, nb in result["notebooks"].items():
            dnb = gb.find_submission_notebook(name, lab, student)
            dnb.late_submission_penalty = nb["late_penalty"]
            for gname, score in nb["grades"].items():
                dg = gb.find_grade(gname, name, lab, student)
                dg.auto_score = score
                dg.needs_manual_grade = dg.manual_score is not None or score is None
            for cname, text in nb["comments"].items():
                gb.find_comment(cname, name, lab, student).auto_comment = text
        gb.db.commit()
    out = Path(root) / "autograded" / student / lab
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    _write_files(out, result["autograded"])


def _score(url: str, course: str, lab: str, student: str) -> float | None:
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(url, course) as gb:
        try:
            return gb.find_submission(lab, student).score
        except MissingEntry:
            return None


def grade_on_queue(root: Path, lab: str, queue_url: str, *, students: list[str] | None = None, force: bool = False,
                   submission_timeout: float = 600.0, sandbox: bool | str = True, stall: float | None = None,
                   progress: Callable[[str], None] | None = print) -> Report:
    """Grade `lab`'s submissions on the workers of the broker at `queue_url`; only this process writes the gradebook.

    A submission whose result has not come back while no other result came for `stall` seconds (default: the
    submission cap plus five minutes) is reported not graded: no worker is taking the queue."""
    from dramatiq.results import ResultFailure, ResultMissing

    from coursetools.service import queue

    say = progress or (lambda line: None)
    root = Path(root).resolve()
    t0 = time.monotonic()
    ensure_assignment(root, lab)
    names, url, course = notebook_names(root, lab), db_url(root), course_id(root)
    report = Report(lab, logs=None)
    from nbgrader.api import Gradebook

    with Gradebook(url, course) as gb:
        max_score = gb.find_assignment(lab).max_score
        recorded = {s.student_id for s in gb.assignment_submissions(lab)}
    fingerprint = lab_fingerprint(root, lab)
    actor = queue.app(queue_url).grade
    mode = "bwrap" if sandbox is True else sandbox
    sent, flags = {}, {}
    for s in students if students is not None else submitted_students(root, lab):
        if not force and is_up_to_date(root, lab, s, names, recorded):
            report.results[s] = Result(s, "up to date", score=_score(url, course, lab, s), max_score=max_score)
            continue
        problem = check_submission(root, lab, s, names)
        files: dict[str, str] = {}
        if not problem:
            try:
                files, flags[s] = _files_of(root, lab, s, names)
            except OSError as exc:
                problem = f"its folder could not be copied ({exc})"
        if problem:  # recorded with 0, as `grade` does
            _record_unusable(root, lab, s, url, course)
            report.results[s] = Result(s, "not graded", problem, score=0.0, max_score=max_score)
            say(f"[{lab}] {printable(s)}: NOT GRADED: {printable(problem)}")
            continue
        sent[s] = actor.send_with_options(args=(lab, s, files, fingerprint, submission_timeout, mode),
                                          time_limit=int((submission_timeout + 300) * 1000))
    say(f"[{lab}] {len(sent)} submission(s) sent to the workers on {queue_url}")
    stall = stall if stall is not None else submission_timeout + 300
    last, done, total = time.monotonic(), 0, len(sent)
    while sent:
        for s, message in list(sent.items()):
            try:
                result = message.get_result(block=False)
            except ResultMissing:
                continue
            except ResultFailure as exc:
                result = {"status": "not graded", "reason": f"the worker failed: {exc}", "flags": [], "notes": [],
                          "timing": {}, "seconds": 0.0}
            del sent[s]
            done, last = done + 1, time.monotonic()
            if result["status"] == "graded":
                _merge(root, lab, s, url, course, result)
                score = _score(url, course, lab, s)
                say(f"[{lab} {done}/{total}] {printable(s)}: {score:g}/{max_score:g} in {result['seconds']:.1f} s")
            else:
                score = _score(url, course, lab, s)
                say(f"[{lab} {done}/{total}] {printable(s)}: NOT GRADED: {printable(result['reason'])}")
            report.results[s] = Result(s, result["status"], result.get("reason", ""), seconds=result["seconds"],
                                       score=score, max_score=max_score,
                                       flags=flags.get(s, []) + list(result.get("flags", [])),
                                       notes=list(result.get("notes", [])), timing=dict(result.get("timing", {})))
            for w in result.get("warnings", []):
                if w not in report.warnings:
                    report.warnings.append(w)
        if sent and time.monotonic() - last > stall:
            for s in sent:
                report.results[s] = Result(s, "not graded", f"no worker answered within {stall:.0f} s (are workers "
                                           f"running on {queue_url}?)", score=_score(url, course, lab, s),
                                           max_score=max_score)
            break
        time.sleep(0.2)
    report.seconds = time.monotonic() - t0
    return report


def _record_unusable(root: Path, lab: str, student: str, url: str, course: str) -> None:
    """A submission that cannot be graded scores 0 in the gradebook (as `Grader._record_unusable` does)."""
    import warnings

    from nbgrader.api import Gradebook
    from sqlalchemy.exc import SAWarning

    with warnings.catch_warnings(), Gradebook(url, course) as gb:
        warnings.simplefilter("ignore", SAWarning)
        ensure_student(gb, student)
        ts = _timestamp(Path(root) / "submitted" / student / lab)
        gb.update_or_create_submission(lab, student, **({"timestamp": ts} if ts else {}))
    shutil.rmtree(Path(root) / "autograded" / student / lab, ignore_errors=True)

