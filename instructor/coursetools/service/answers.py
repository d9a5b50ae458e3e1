"""The answers of self-checks, in PostgreSQL, keyed by check id (``COURSE_SERVICE_DB``).

A broker delivers at least once: a check whose worker died is run again by another worker, so the same check
may be answered twice. `store_answer` keeps the first answer and ignores the others, and `wait_answer` hands
the waiting HTTP request that one answer, woken by PostgreSQL's NOTIFY rather than by polling.
"""

from __future__ import annotations

import json
import os
import threading
import time

import psycopg
from psycopg import sql

CHANNEL = "selfcheck_answers"
_schema_ready: set[str] = set()
_lock = threading.Lock()


def database_url() -> str:
    """``COURSE_SERVICE_DB``, else the local database of ``make services-up``."""
    url = os.environ.get("COURSE_SERVICE_DB")
    if url:
        return url
    from coursetools import course_root
    from coursetools.service.services import database_url as local

    return local(course_root())


def connect(url: str | None = None, **kw) -> psycopg.Connection:
    """A connection to the service's database, its tables made on first use."""
    url = url or database_url()
    conn = psycopg.connect(url, connect_timeout=10, **kw)
    if url not in _schema_ready:
        with _lock:
            ensure_schema(conn)
            _schema_ready.add(url)
    return conn


def ensure_schema(conn: psycopg.Connection) -> None:
    """Create the answers table if it is missing."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(25025)")  # two workers starting at once make it once
        conn.execute("""
            CREATE TABLE IF NOT EXISTS selfcheck_answers (
                check_id  text PRIMARY KEY,
                answer    jsonb NOT NULL,
                stored_at timestamptz NOT NULL DEFAULT now()
            )""")


def store_answer(check_id: str, answer: dict) -> bool:
    """Store `answer` for `check_id` unless one is stored already; True when this one was stored."""
    with connect() as conn:
        cur = conn.execute("INSERT INTO selfcheck_answers (check_id, answer) VALUES (%s, %s) "
                           "ON CONFLICT (check_id) DO NOTHING", (check_id, json.dumps(answer)))
        stored = cur.rowcount == 1
        if stored:
            conn.execute(sql.SQL("SELECT pg_notify({}, %s)").format(sql.Literal(CHANNEL)), (check_id,))
        return stored


def get_answer(check_id: str) -> dict | None:
    """The stored answer of `check_id`, or None."""
    with connect() as conn:
        row = conn.execute("SELECT answer FROM selfcheck_answers WHERE check_id = %s", (check_id,)).fetchone()
    return row[0] if row else None


def answer_count(check_id: str) -> int:
    """How many answers are stored for `check_id` (0 or 1: the key allows no more)."""
    with connect() as conn:
        return conn.execute("SELECT count(*) FROM selfcheck_answers WHERE check_id = %s", (check_id,)).fetchone()[0]


def wait_answer(check_id: str, timeout: float) -> dict | None:
    """The answer of `check_id` once stored, or None after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    with connect(autocommit=True) as conn:
        conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(CHANNEL)))
        while True:
            row = conn.execute("SELECT answer FROM selfcheck_answers WHERE check_id = %s", (check_id,)).fetchone()
            if row:
                return row[0]
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            # Woken by any stored answer (then read again), or after a second at most (a missed NOTIFY costs 1 s).
            for note in conn.notifies(timeout=min(left, 1.0), stop_after=1):
                if note.payload == check_id:
                    break
