"""Every self-check, recorded (student, lab, time, per-cell verdicts), its rate limit and its lab's deadline policy.

`start` records a check as it is accepted, inside one transaction that holds a lock per student and lab: two
requests at once cannot both pass the rate limit (``COURSE_SELFCHECK_LIMIT`` checks per
``COURSE_SELFCHECK_WINDOW`` seconds, default 6 per 15 minutes). `finish` adds the answer's verdicts. After a lab's
deadline (its due date in the course's gradebook, set with ``nbgrader db assignment add LAB --duedate ...``) the
service follows the instructor's choice: closed, or open for practice (checks then marked as practice).
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

from coursetools.service.tokens import connect

LIMIT_ENV, WINDOW_ENV = "COURSE_SELFCHECK_LIMIT", "COURSE_SELFCHECK_WINDOW"
DEFAULT_LIMIT, DEFAULT_WINDOW = 6, 900


class RateLimited(Exception):
    """Too many checks of one lab by one student in the window; `retry_after` seconds until the next is accepted."""

    def __init__(self, limit: int, window: int, retry_after: int) -> None:
        self.limit, self.window, self.retry_after = limit, window, retry_after
        super().__init__(f"rate limit reached: {limit} checks of this lab per {_duration(window)}; try again in "
                         f"{_duration(retry_after)}")


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


def due_date(course: Path, lab: str) -> datetime.datetime | None:
    """The lab's due date in the course's gradebook (UTC), None when it has none."""
    from nbgrader.api import Gradebook, MissingEntry

    from coursetools.grading.gradebook import course_id, db_url

    try:
        with Gradebook(db_url(course), course_id(course)) as gb:
            due = gb.find_assignment(lab).duedate
    except MissingEntry:
        return None
    if due is None:
        return None
    return due.replace(tzinfo=datetime.timezone.utc) if due.tzinfo is None else due


def practice_after_deadline(course: Path, lab: str, policy: Policy, now: datetime.datetime | None = None) -> bool:
    """False before the deadline, True after it in practice; `Closed` after it when the lab's checks close."""
    due = due_date(course, lab)
    now = now or datetime.datetime.now(datetime.timezone.utc)
    if due is None or now <= due:
        return False
    if policy.for_lab(lab) == "practice":
        return True
    raise Closed(f"the deadline of {lab} has passed ({due:%Y-%m-%d %H:%M} UTC) and its checks are closed")


# --- records ------------------------------------------------------------------------------------------------------

def start(check_id: str, student: str, lab: str, practice: bool = False) -> None:
    """Record a check as accepted, or raise `RateLimited` (nothing recorded) when the student is over the limit."""
    limit, window = limits()
    with connect() as conn, conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"selfcheck/{student}/{lab}",))
        # clock_timestamp(), not now(): now() is when the transaction began, before the lock was ours
        rows = conn.execute(
            "SELECT extract(epoch FROM at + make_interval(secs => %s) - clock_timestamp()) FROM selfcheck_records "
            "WHERE student = %s AND lab = %s AND at > clock_timestamp() - make_interval(secs => %s) ORDER BY at",
            (window, student, lab, window)).fetchall()
        if len(rows) >= limit:
            retry = min(window, max(1, int(float(rows[len(rows) - limit][0]) + 0.999)))
            raise RateLimited(limit, window, retry)
        conn.execute("INSERT INTO selfcheck_records (check_id, student, lab, practice, at) "
                     "VALUES (%s, %s, %s, %s, clock_timestamp())", (check_id, student, lab, practice))


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
