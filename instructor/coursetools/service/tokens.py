"""Students' tokens for the self-check service, stored hashed in PostgreSQL (``COURSE_SERVICE_DB``).

``python -m coursetools tokens LAB --students FILE`` issues one token per student for one lab and writes them,
with the student ids, to a CSV file only the instructor can read (the database keeps only their SHA-256). A
token names its student and its lab: the service checks only that student's work on that lab, whatever the
request says. Issuing again replaces a student's token for that lab (the old one stops working).
"""

from __future__ import annotations

import csv
import datetime
import hashlib
import os
import re
import secrets
import sys
from dataclasses import dataclass
from pathlib import Path

import psycopg

from coursetools.service.connections import pg_connect

PREFIX = "sc_"
STUDENT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}")
_schema_ready: set[str] = set()


class TokenError(Exception):
    """A token the service does not accept; the message says why in plain words."""


@dataclass(frozen=True)
class Holder:
    """Whose token it is: the one student and the one lab it checks."""

    student: str
    lab: str


def database_url() -> str:
    """The service's database: ``COURSE_SERVICE_DB`` (the local one of ``make services-up`` by default)."""
    url = os.environ.get("COURSE_SERVICE_DB")
    if url:
        return url
    try:
        from coursetools.service.answers import database_url as local
    except ImportError:
        raise RuntimeError("COURSE_SERVICE_DB is not set: point it at the service's PostgreSQL database") from None
    return local()


def connect(url: str | None = None, **kw) -> psycopg.Connection:
    """A connection to the service's database, with the tokens and records tables made on first use."""
    url = url or database_url()
    conn = pg_connect(url, connect_timeout=10, **kw)
    if url not in _schema_ready:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(25026)")
            conn.execute("""
                CREATE TABLE IF NOT EXISTS selfcheck_tokens (
                    digest     text PRIMARY KEY,
                    student    text NOT NULL,
                    lab        text NOT NULL,
                    issued_at  timestamptz NOT NULL DEFAULT now(),
                    expires_at timestamptz,
                    revoked    boolean NOT NULL DEFAULT false
                )""")
            conn.execute("CREATE INDEX IF NOT EXISTS selfcheck_tokens_holder ON selfcheck_tokens (student, lab)")
            conn.execute("""
                CREATE TABLE IF NOT EXISTS selfcheck_records (
                    check_id   text PRIMARY KEY,
                    student    text NOT NULL,
                    lab        text NOT NULL,
                    at         timestamptz NOT NULL DEFAULT now(),
                    practice   boolean NOT NULL DEFAULT false,
                    answered_at timestamptz,
                    passed     boolean,
                    cells      jsonb,
                    refused    text
                )""")
            conn.execute("CREATE INDEX IF NOT EXISTS selfcheck_records_holder ON selfcheck_records (student, lab, at)")
            conn.execute("""
                CREATE TABLE IF NOT EXISTS selfcheck_refusals (
                    student text NOT NULL,
                    lab     text NOT NULL,
                    status  integer NOT NULL,
                    at      timestamptz NOT NULL DEFAULT now()
                )""")
            conn.execute("CREATE INDEX IF NOT EXISTS selfcheck_refusals_holder ON selfcheck_refusals (student, lab, at)")
        conn.commit()
        _schema_ready.add(url)
    return conn


def digest(token: str) -> str:
    """What the database keeps of a token: its SHA-256 (a token is 32 random bytes: nothing to guess)."""
    return hashlib.sha256(token.encode()).hexdigest()


def issue(lab: str, students: list[str], expires: datetime.datetime | None = None) -> dict[str, str]:
    """A new token for each student of `students` on `lab` (their earlier tokens for `lab` revoked)."""
    bad = [s for s in students if not STUDENT_ID.fullmatch(s)]
    if bad:
        raise ValueError(f"not a valid student id: {bad[0]!r} (letters, digits and . _ @ - only)")
    out = {}
    with connect() as conn, conn.transaction():
        for student in dict.fromkeys(students):
            token = PREFIX + secrets.token_urlsafe(32)
            conn.execute("UPDATE selfcheck_tokens SET revoked = true WHERE student = %s AND lab = %s",
                         (student, lab))
            conn.execute("INSERT INTO selfcheck_tokens (digest, student, lab, expires_at) VALUES (%s, %s, %s, %s)",
                         (digest(token), student, lab, expires))
            out[student] = token
    return out


def check_form(token: str | None) -> None:
    """`TokenError` when `token` is missing or cannot be one of the course's tokens (no database asked)."""
    if not token:
        raise TokenError("no token: send your personal token (course_lib reads it from COURSE_CHECK_TOKEN)")
    if not token.startswith(PREFIX) or len(token) > 100:
        raise TokenError("this token is not one of this course's tokens (copy it again from the message you got)")


def holder(token: str | None) -> Holder:
    """The student and lab of a token; `TokenError` when it is missing, unknown, revoked or expired."""
    check_form(token)
    with connect() as conn:
        row = conn.execute("SELECT student, lab, revoked, expires_at < now() FROM selfcheck_tokens WHERE digest = %s",
                           (digest(token),)).fetchone()
    if row is None:
        raise TokenError("unknown token: it is not one of this course's tokens (copy it again from the message "
                         "you got, or ask your teacher for a new one)")
    student, lab, revoked, expired = row
    if revoked:
        raise TokenError("this token was replaced by a newer one: use the newest token your teacher sent")
    if expired:
        raise TokenError("this token has expired: ask your teacher for a new one")
    return Holder(student, lab)


def read_students(path: Path) -> list[str]:
    """Student ids from a file: one a line, or a CSV whose first column holds them (a header row is skipped)."""
    out = []
    with open(path, newline="") as f:
        for row in csv.reader(f):
            if not row or not row[0].strip() or row[0].strip().startswith("#"):
                continue
            value = row[0].strip()
            if not out and value.lower() in ("student", "student_id", "id", "username"):
                continue
            out.append(value)
    return out


def issue_to_file(lab: str, students_file: Path, out: Path | None, days: float | None) -> int:
    """Issue tokens for the students listed in `students_file` and write ``student,token`` rows to `out`."""
    from coursetools import course_root
    from coursetools.labs import labs_in

    root = course_root()
    if lab not in labs_in(root):
        print(f"coursetools tokens: there is no lab {lab!r} in {root / 'source'}", file=sys.stderr)
        return 2
    try:
        students = read_students(students_file)
    except OSError as exc:
        print(f"coursetools tokens: cannot read {students_file}: {exc.strerror}", file=sys.stderr)
        return 2
    if not students:
        print(f"coursetools tokens: {students_file} lists no student", file=sys.stderr)
        return 2
    expires = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=days)) if days else None
    try:
        tokens = issue(lab, students, expires)
    except ValueError as exc:
        print(f"coursetools tokens: {exc}", file=sys.stderr)
        return 2
    out = out or root / "exports" / f"tokens-{lab}.csv"
    out.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["student", "lab", "token"])
        for student, token in tokens.items():
            w.writerow([student, lab, token])
    os.chmod(out, 0o600)
    print(f"{len(tokens)} tokens for {lab} written to {out} (readable by you only; the database keeps their hashes)"
          + (f"; they expire on {expires:%Y-%m-%d %H:%M} UTC" if expires else ""))
    return 0
