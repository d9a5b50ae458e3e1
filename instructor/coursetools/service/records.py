"""Every self-check, recorded (student, lab, time, per-cell verdicts), its rate limit and its lab's deadline policy.

`start` records a check as it is accepted, inside one transaction that holds a lock per student: two requests
at once cannot both pass the rate limit (``COURSE_SELFCHECK_LIMIT`` checks per ``COURSE_SELFCHECK_WINDOW`` seconds,
default 6 per 15 minutes, per lab), and a student has at most one check in flight (`Busy`), so one student's
checks never wait in the queue ahead of another's first. `finish` adds the answer's verdicts (the worker that
stores the answer calls it, so a check answered after its request gave up is recorded as answered). Uploads the
service refuses (not a notebook, too large, another lab's) are counted per student and lab (`refused`) against a
limit of their own, ``COURSE_SELFCHECK_REFUSALS`` per window (default 10). After a lab's deadline (its due date
in the course's gradebook, set with ``coursetools due-date LAB WHEN``, the same instant the final grading's late
penalty reads) the service follows the instructor's choice: closed, or open for practice (checks then marked as practice).
`checks_to_pass` gives, per student, how many checks they needed before every test cell passed (class report).
"""

from __future__ import annotations

import csv
import datetime
import json
import os
import statistics
from dataclasses import dataclass
from pathlib import Path

from coursetools.grading.gradebook import due_date
from coursetools.service.tokens import connect

LIMIT_ENV, WINDOW_ENV = "COURSE_SELFCHECK_LIMIT", "COURSE_SELFCHECK_WINDOW"
REFUSALS_ENV, IN_FLIGHT_ENV = "COURSE_SELFCHECK_REFUSALS", "COURSE_SELFCHECK_IN_FLIGHT_S"
DEFAULT_LIMIT, DEFAULT_WINDOW, DEFAULT_REFUSALS = 6, 900, 10
#: A check unanswered for this long no longer counts as in flight (its worker died and it was lost).
DEFAULT_IN_FLIGHT = 900


class RateLimited(Exception):
    """Too many checks of one lab by one student in the window; `retry_after` seconds until the next is accepted."""

    def __init__(self, limit: int, window: int, retry_after: int) -> None:
        self.limit, self.window, self.retry_after = limit, window, retry_after
        super().__init__(f"rate limit reached: {limit} checks of this lab per {_duration(window)}; try again in "
                         f"{_duration(retry_after)}")


class TooManyRefused(RateLimited):
    """Too many uploads of one lab refused for one student in the window."""

    def __init__(self, limit: int, window: int, retry_after: int) -> None:
        super().__init__(limit, window, retry_after)
        self.args = (f"too many uploads refused: {limit} of this lab in {_duration(window)} were not notebooks the "
                     f"service could check; try again in {_duration(retry_after)}",)


class Busy(Exception):
    """The student has a check still in flight; `check_id` names it and `retry_after` says when to ask again."""

    def __init__(self, check_id: str, retry_after: int = 10) -> None:
        self.check_id, self.retry_after = check_id, retry_after
        super().__init__(f"your check {check_id} is still running: wait for its answer (one check at a time per "
                         f"student), then send again")


class Closed(Exception):
    """The lab's deadline has passed and its checks are closed."""


def _duration(seconds: int) -> str:
    if seconds < 90:
        return f"{seconds} s"
    return f"{round(seconds / 60)} minutes"


def limits() -> tuple[int, int]:
    """(checks, seconds): at most that many checks of a lab per student in any window of that many seconds."""
    def read(name: str, default: int) -> int:
        try:
            return max(1, int(os.environ.get(name, default)))
        except ValueError:
            return default
    return read(LIMIT_ENV, DEFAULT_LIMIT), read(WINDOW_ENV, DEFAULT_WINDOW)


def _setting(name: str, default: int) -> int:
    try:
        return max(1, int(os.environ.get(name, default)))
    except ValueError:
        return default


# --- the deadline policy ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Policy:
    """What happens after each lab's deadline: ``closed`` (no checks) or ``practice`` (checks, marked practice)."""

    after: str = "closed"
    practice_labs: frozenset[str] = frozenset()
    closed_labs: frozenset[str] = frozenset()

    def for_lab(self, lab: str) -> str:
        if lab in self.practice_labs:
            return "practice"
        if lab in self.closed_labs:
            return "closed"
        return self.after


def practice_after_deadline(course: Path, lab: str, policy: Policy, now: datetime.datetime | None = None) -> bool:
    """False before the deadline, True after it in practice; `Closed` after it when the lab's checks close."""
    due = due_date(course, lab)  # the instant the final grading's late penalty reads too
    now = now or datetime.datetime.now(datetime.timezone.utc)
    if due is None or now <= due:
        return False
    if policy.for_lab(lab) == "practice":
        return True
    raise Closed(f"the deadline of {lab} has passed ({due:%Y-%m-%d %H:%M} UTC) and its checks are closed")


# --- records ------------------------------------------------------------------------------------------------------

def start(check_id: str, student: str, lab: str, practice: bool = False) -> None:
    """Record a check as accepted, or raise `RateLimited` when the student is over the limit of the lab, or `Busy`
    when they have a check in flight (nothing recorded then)."""
    with connect() as conn, conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"selfcheck/{student}",))
        _check_limits(conn, student, lab)
        conn.execute("INSERT INTO selfcheck_records (check_id, student, lab, practice, at) "
                     "VALUES (%s, %s, %s, %s, clock_timestamp())", (check_id, student, lab, practice))


def may_start(student: str, lab: str) -> None:
    """`RateLimited`, `TooManyRefused` or `Busy` now, before the service spends anything on a notebook (`start`
    decides again, under its lock)."""
    with connect() as conn:
        refusals_left(conn, student, lab)
        _check_limits(conn, student, lab)


def _check_limits(conn, student: str, lab: str) -> None:
    limit, window = limits()
    # clock_timestamp(), not now(): now() is when the transaction began, before the lock was ours
    rows = conn.execute(
        "SELECT extract(epoch FROM at + make_interval(secs => %s) - clock_timestamp()) FROM selfcheck_records "
        "WHERE student = %s AND lab = %s AND at > clock_timestamp() - make_interval(secs => %s) ORDER BY at",
        (window, student, lab, window)).fetchall()
    if len(rows) >= limit:
        retry = min(window, max(1, int(float(rows[len(rows) - limit][0]) + 0.999)))
        raise RateLimited(limit, window, retry)
    busy = conn.execute(
        "SELECT check_id FROM selfcheck_records WHERE student = %s AND answered_at IS NULL "
        "AND at > clock_timestamp() - make_interval(secs => %s) ORDER BY at DESC LIMIT 1",
        (student, _setting(IN_FLIGHT_ENV, DEFAULT_IN_FLIGHT))).fetchone()
    if busy:
        raise Busy(busy[0])


def refusals_left(conn, student: str, lab: str) -> None:
    """`TooManyRefused` when the student's refused uploads of `lab` in the window reached their limit."""
    limit, window = _setting(REFUSALS_ENV, DEFAULT_REFUSALS), limits()[1]
    rows = conn.execute(
        "SELECT extract(epoch FROM at + make_interval(secs => %s) - clock_timestamp()) FROM selfcheck_refusals "
        "WHERE student = %s AND lab = %s AND at > clock_timestamp() - make_interval(secs => %s) ORDER BY at",
        (window, student, lab, window)).fetchall()
    if len(rows) >= limit:
        raise TooManyRefused(limit, window, min(window, max(1, int(float(rows[len(rows) - limit][0]) + 0.999))))


def refused(student: str, lab: str, status: int) -> None:
    """Count one refused upload of `lab` by `student` (its HTTP status) against their limit of refusals."""
    with connect() as conn:
        conn.execute("INSERT INTO selfcheck_refusals (student, lab, status, at) VALUES (%s, %s, %s, clock_timestamp())",
                     (student, lab, status))


def record_of(check_id: str, student: str) -> dict | None:
    """The record of `student`'s check `check_id` (None when it is no check of theirs)."""
    with connect() as conn:
        row = conn.execute("SELECT lab, at, practice, answered_at FROM selfcheck_records "
                           "WHERE check_id = %s AND student = %s", (check_id, student)).fetchone()
    return None if row is None else {"lab": row[0], "at": row[1], "practice": row[2], "answered_at": row[3]}


def finish(check_id: str, answer: dict) -> None:
    """Add an answer's per-cell verdicts to its check's record (the first answer only)."""
    cells = {str(c.get("cell")): c.get("verdict") for c in answer.get("cells", [])}
    passed = bool(cells) and all(v == "passed" for v in cells.values()) and not answer.get("refused")
    with connect() as conn:
        conn.execute("UPDATE selfcheck_records SET answered_at = now(), passed = %s, cells = %s, refused = %s "
                     "WHERE check_id = %s AND answered_at IS NULL",
                     (passed, json.dumps(cells), answer.get("refused"), check_id))


def history(student: str, lab: str) -> list[dict]:
    """A student's checks of a lab, oldest first."""
    with connect() as conn:
        rows = conn.execute("SELECT check_id, at, practice, passed, cells, refused FROM selfcheck_records "
                            "WHERE student = %s AND lab = %s ORDER BY at", (student, lab)).fetchall()
    return [{"check_id": r[0], "at": r[1], "practice": r[2], "passed": r[3], "cells": r[4], "refused": r[5]}
            for r in rows]


def checks_to_pass(lab: str) -> dict[str, tuple[int, int | None]]:
    """Per student: (checks made before the deadline, how many it took until every test cell passed, or None)."""
    with connect() as conn:
        rows = conn.execute("SELECT student, passed FROM selfcheck_records WHERE lab = %s AND NOT practice "
                            "ORDER BY student, at", (lab,)).fetchall()
    out: dict[str, tuple[int, int | None]] = {}
    for student, passed in rows:
        made, needed = out.get(student, (0, None))
        made += 1
        if needed is None and passed:
            needed = made
        out[student] = (made, needed)
    return out


def write_checks_report(root: Path, lab: str) -> tuple[Path, str] | None:
    """``exports/<lab>-checks.csv`` (student, checks, checks until all passed) and a one-line summary; None when
    no check of the lab is recorded."""
    counts = checks_to_pass(lab)
    if not counts:
        return None
    out = root / "exports" / f"{lab}-checks.csv"
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["student", "checks", "checks_until_all_passed"])
        for student, (made, needed) in sorted(counts.items()):
            w.writerow([student, made, "" if needed is None else needed])
    needed = sorted(n for _, n in counts.values() if n is not None)
    line = (f"self-checks of {lab}: {len(counts)} students checked, {len(needed)} passed every test cell in a check"
            + (f", after a median of {statistics.median(needed):g} checks (most: {needed[-1]})" if needed else ""))
    return out, line
