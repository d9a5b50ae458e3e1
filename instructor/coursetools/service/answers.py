"""The answers of self-checks, in PostgreSQL, keyed by check id (``COURSE_SERVICE_DB``).

A broker delivers at least once: a check whose worker died is run again by another worker, so the same check
may be answered twice. `store_answer` keeps the first answer and ignores the others and NOTIFYs its check id.
The HTTP service waits for answers with one `Listener`: one connection LISTENing for every request of the
process, so a waiting request holds no connection and no thread of its own (`wait_answer`, one connection
each, is for scripts and tests).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import threading
import time

import psycopg
from psycopg import sql

from coursetools.service.connections import pg_connect

CHANNEL = "selfcheck_answers"
#: How often the listener reads every waited-for answer itself (a NOTIFY lost while it reconnected costs this).
SWEEP_SECONDS = 5.0
log = logging.getLogger("coursetools.service")
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
    conn = pg_connect(url, connect_timeout=10, **kw)
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


class Listener:
    """One connection that LISTENs for stored answers on behalf of every waiting request of this process.

    `wait` registers a future under the check id and awaits it; the listener's thread resolves it when a NOTIFY
    names the check (or its sweep, every `SWEEP_SECONDS`, finds the answer stored). A request that gives up (its
    timeout, its client gone) only removes its future."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url
        self._waiting: dict[str, list[tuple[asyncio.AbstractEventLoop, asyncio.Future]]] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="answers-listener", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)

    def waiting(self) -> int:
        """How many requests are waiting."""
        with self._lock:
            return sum(len(v) for v in self._waiting.values())

    async def wait(self, check_id: str, timeout: float) -> dict | None:
        """The answer of `check_id` once stored, or None after `timeout` seconds."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future = loop.create_future()
        entry = (loop, future)
        with self._lock:
            self._waiting.setdefault(check_id, []).append(entry)
        try:
            answer = await asyncio.to_thread(get_answer, check_id)  # stored before it was waited for
            if answer is not None:
                return answer
            return await asyncio.wait_for(future, timeout)
        except asyncio.TimeoutError:
            return None
        finally:
            with self._lock:
                entries = self._waiting.get(check_id, [])
                if entry in entries:
                    entries.remove(entry)
                if not entries:
                    self._waiting.pop(check_id, None)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                with connect(self.url, autocommit=True) as conn:
                    conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(CHANNEL)))
                    swept = 0.0
                    while not self._stop.is_set():
                        if time.monotonic() - swept > SWEEP_SECONDS:
                            with self._lock:
                                ids = list(self._waiting)
                            self._deliver(conn, ids)
                            swept = time.monotonic()
                        named = [n.payload for n in conn.notifies(timeout=1.0, stop_after=50)]
                        with self._lock:
                            named = [c for c in named if c in self._waiting]
                        self._deliver(conn, named)
            except psycopg.Error as exc:
                log.warning("the answers' listener lost its connection (%s); connecting again", exc)
                self._stop.wait(1.0)

    def _deliver(self, conn: psycopg.Connection, ids: list[str]) -> None:
        if not ids:
            return
        rows = conn.execute("SELECT check_id, answer FROM selfcheck_answers WHERE check_id = ANY(%s)",
                            (ids,)).fetchall()
        for check_id, answer in rows:
            with self._lock:
                entries = list(self._waiting.get(check_id, []))
            for loop, future in entries:
                loop.call_soon_threadsafe(_resolve, future, answer)


def _resolve(future: asyncio.Future, answer: dict) -> None:
    if not future.done():
        future.set_result(answer)
