"""``coursetools grade LAB --queue URL``: a class graded by the self-check service's workers.

The coordinator (this process, on the instructor's machine) checks each submission as ``grade`` does, sends
each one's files as a message on the ``grading`` queue, and collects the results through Dramatiq's result
backend. A worker grades the submission with the same `Grader` as ``grade --jobs N`` (nbgrader, the sandbox,
the same checks) in a scratch copy of the lab with a scratch sqlite gradebook, and hands back the grades and
the autograded notebook. Only the coordinator writes the course's gradebook and ``autograded/``.

A worker's copy of the lab must be the coordinator's: each message carries the lab's fingerprint
(`scratch.lab_fingerprint`), and a worker whose copy differs refuses the message (`queue.CourseMismatch`) instead
of grading it with other checks. The worker's half is `grading.queue_worker`.
"""

from __future__ import annotations

import base64
import shutil
import tempfile
import time
from pathlib import Path
from typing import Callable

from coursetools.grading.autograde import Report, Result
from coursetools.grading.gradebook import (course_id, db_url, ensure_assignment, notebook_names, record_submission,
                                           record_unusable, submission_score)
from coursetools.grading.intake import check_submission, is_up_to_date, read_timestamp, submitted_students
from coursetools.grading.queue_worker import write_files
from coursetools.grading.scratch import lab_fingerprint
from coursetools.sandbox.safecopy import copy_submission, printable


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
    record_submission(url, course, lab, student, read_timestamp(Path(root) / "submitted" / student / lab),
                      result["notebooks"])
    out = Path(root) / "autograded" / student / lab
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    write_files(out, result["autograded"])


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
            report.results[s] = Result(s, "up to date", score=submission_score(url, course, lab, s), max_score=max_score)
            continue
        problem = check_submission(root, lab, s, names)
        files: dict[str, str] = {}
        if not problem:
            try:
                files, flags[s] = _files_of(root, lab, s, names)
            except OSError as exc:
                problem = f"its folder could not be copied ({exc})"
        if problem:  # recorded with 0, as `grade` does
            record_unusable(root, lab, s, url, course)
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
                score = submission_score(url, course, lab, s)
                say(f"[{lab} {done}/{total}] {printable(s)}: {score:g}/{max_score:g} in {result['seconds']:.1f} s")
            else:
                score = submission_score(url, course, lab, s)
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
                                           f"running on {queue_url}?)", score=submission_score(url, course, lab, s),
                                           max_score=max_score)
            break
        time.sleep(0.2)
    report.seconds = time.monotonic() - t0
    return report

