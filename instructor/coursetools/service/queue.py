"""The self-check service's queue: Dramatiq on Redis (docs/selfcheck.md says why this engine).

Two actors, each on its own queue, run by ``python -m coursetools worker`` on any machine with the course:

- ``run_check`` (queue ``checks``) grades one student's notebook with `selfcheck.check_notebook` and stores the
  answer under its check id (`answers.store_answer`: the first answer wins, so a redelivered check stores nothing
  twice);
- ``grade_submission`` (queue ``grading``) grades one submission of a class for ``coursetools grade LAB --queue
  URL`` and hands its grades back through Dramatiq's result backend; the coordinator alone writes the gradebook.

Redelivery is the engine's own: a worker takes a message into its acknowledgement set and acknowledges it only
once the task has finished (or failed for good). A worker that dies stops sending heartbeats; after
`HEARTBEAT_TIMEOUT_MS` without one, the next queue maintenance run by a live worker puts its unacknowledged
messages back on their queue. Maintenance runs on `MAINTENANCE_CHANCE` in a million broker commands (the
default of one in a thousand would leave a dead worker's check waiting for about a thousand idle polls); idle
workers poll each queue at least every 0.2 s (`worker.POLL_MS`), so a killed worker's check runs again about
``HEARTBEAT_TIMEOUT_MS`` plus a few seconds after it died (the maintenance of one in four polls).
"""

from __future__ import annotations

import base64
import functools
import logging
import os
import threading
from dataclasses import dataclass
from pathlib import Path

import dramatiq
import redis
from dramatiq.brokers.redis import RedisBroker
from dramatiq.middleware import CurrentMessage, TimeLimitExceeded
from dramatiq.results import Results
from dramatiq.results.backends import RedisBackend

from coursetools.service.connections import redis_client

BROKER_ENV = "COURSE_BROKER_URL"
CHECKS, GRADING = "checks", "grading"
NAMESPACE = "coursetools"
#: A worker silent for this long is taken for dead and its messages go back on the queue (Dramatiq's default is 60 s).
HEARTBEAT_TIMEOUT_MS = int(os.environ.get("COURSE_WORKER_HEARTBEAT_MS", 15_000))
#: Broker commands in a million that also run queue maintenance (Dramatiq's default: 1,000).
MAINTENANCE_CHANCE = 250_000
#: A check's wall-clock cap in the worker, kept by Dramatiq's TimeLimit middleware (its watchdog thread starts on
#: the process-boot signal `worker.run` sends): the self-check's own budget (`selfcheck.budget`) and a margin.
TIME_LIMIT_ENV = "COURSE_CHECK_TIME_LIMIT_S"


def check_time_limit_ms() -> int:
    """``COURSE_CHECK_TIME_LIMIT_S`` in milliseconds; by default the self-check's budget plus 30 s."""
    from coursetools.service.selfcheck import budget

    try:
        return max(1, int(os.environ[TIME_LIMIT_ENV])) * 1000
    except (KeyError, ValueError):
        return (budget() + 30) * 1000


OVERRAN = ("your notebook ran past the time limit of a self-check ({seconds} s) and was stopped: look for a cell or a "
           "function that runs for minutes, or never ends (the final grading stops it the same way)")
#: A check that fails for the service's own reasons is tried this many times more, then answered with a refusal.
CHECK_RETRIES = 2
#: Grading results are kept this long in Redis for the coordinator to collect.
RESULT_TTL_MS = 24 * 3600 * 1000
#: Seconds after a check's message is acknowledged before Redis rewrites its append-only file (`ForgetFinished`).
FORGET_AFTER_S = float(os.environ.get("COURSE_BROKER_FORGET_S", 5))

log = logging.getLogger("coursetools.worker")


class CourseMismatch(Exception):
    """This worker's copy of a lab differs from the coordinator's: its grades would not be the class's grades."""


def broker_url() -> str:
    """``COURSE_BROKER_URL``, else the local broker of ``make services-up``."""
    url = os.environ.get(BROKER_ENV)
    if url:
        return url
    from coursetools import course_root
    from coursetools.service.services import broker_url as local

    return local(course_root())


class ForgetFinished(dramatiq.Middleware):
    """Redis's append-only file keeps every command, so a check's notebook stays in it after the check's message is
    acknowledged (and deleted) until the file is rewritten. After a check's acknowledgement, this has Redis rewrite
    the file within `FORGET_AFTER_S` seconds (one rewrite waits per worker process; a check acknowledged while one
    runs schedules the next): the file then holds the checks still queued, not the notebooks of checks answered.
    Nothing is done when Redis keeps no append-only file or refuses the command (a server of the course's own)."""

    def __init__(self) -> None:
        self.waiting = threading.Lock()

    def after_ack(self, broker: dramatiq.Broker, message: dramatiq.MessageProxy) -> None:
        if message.queue_name == CHECKS:
            self.schedule(broker.client)

    def schedule(self, client: redis.Redis) -> None:
        """A rewrite in `FORGET_AFTER_S` seconds, unless one is waiting already."""
        if self.waiting.acquire(blocking=False):
            timer = threading.Timer(FORGET_AFTER_S, self.rewrite, args=(client,))
            timer.daemon = True
            timer.start()

    def rewrite(self, client: redis.Redis) -> None:
        self.waiting.release()  # a check acknowledged from now on schedules another rewrite
        try:
            if client.info("persistence").get("aof_enabled"):
                client.bgrewriteaof()
        except redis.RedisError as exc:
            if "in progress" in str(exc):  # another worker's rewrite began before this check was acknowledged
                self.schedule(client)
            else:
                log.warning("the broker did not rewrite its append-only file: %s", exc)


@dataclass
class App:
    """The broker and the actors declared on it."""
    broker: RedisBroker
    url: str
    check: dramatiq.Actor
    grade: dramatiq.Actor


@functools.cache
def app(url: str | None = None) -> App:
    """The broker at `url` (default `broker_url`) with the course's actors, made once per URL."""
    url = url or broker_url()
    broker = RedisBroker(client=redis_client(url), namespace=NAMESPACE, heartbeat_timeout=HEARTBEAT_TIMEOUT_MS,
                         maintenance_chance=MAINTENANCE_CHANCE)
    # redis-py's default read timeout (5 s) would cut a blocking wait for a result short
    results = RedisBackend(client=redis_client(url, socket_timeout=None), namespace=f"{NAMESPACE}-results")
    broker.add_middleware(Results(backend=results, result_ttl=RESULT_TTL_MS))
    broker.add_middleware(CurrentMessage())
    broker.add_middleware(ForgetFinished())
    dramatiq.set_broker(broker)
    # Checks come before class grading on a worker that has both waiting (a lower priority runs first).
    check = dramatiq.actor(run_check, broker=broker, actor_name="run_check", queue_name=CHECKS, priority=0,
                           max_retries=CHECK_RETRIES, min_backoff=2000, max_backoff=10_000,
                           time_limit=check_time_limit_ms())
    grade = dramatiq.actor(grade_submission, broker=broker, actor_name="grade_submission", queue_name=GRADING,
                           priority=10, max_retries=2, store_results=True, throws=(CourseMismatch,))
    return App(broker, url, check, grade)


def submit_check(check_id: str, lab: str, student: str, notebook: bytes) -> None:
    """Queue a self-check of `student`'s `notebook` (bytes of the .ipynb) for `lab`; its answer is stored under
    `check_id` (`answers.wait_answer`)."""
    app().check.send(check_id, lab, student, base64.b64encode(notebook).decode())


def run_check(check_id: str, lab: str, student: str, notebook_b64: str) -> None:
    """The worker's side of `submit_check`: grade the notebook in the sandbox and store the answer once."""
    from coursetools import course_root
    from coursetools.service import answers, records, selfcheck

    if answers.get_answer(check_id) is not None:  # answered by a worker that died before its acknowledgement
        log.info("check %s already answered", check_id)
        return
    log.info("check %s started (%s, pid %d)", check_id, lab, os.getpid())
    notebook = base64.b64decode(notebook_b64)
    try:
        answer = selfcheck.check_notebook(course_root(), lab, student, notebook, check_id)
    except selfcheck.Refused as exc:
        answer = {"check_id": check_id, "lab": lab, "student": student, "cells": [], "refused": str(exc)}
    except TimeLimitExceeded:  # answered at once: running it again would only overrun again
        log.warning("check %s ran past its time limit", check_id)
        answer = {"check_id": check_id, "lab": lab, "student": student, "cells": [],
                  "refused": OVERRAN.format(seconds=check_time_limit_ms() // 1000)}
    except Exception:
        message = CurrentMessage.get_current_message()
        if message is None or message.options.get("retries", 0) < CHECK_RETRIES:
            raise  # the engine tries it again
        log.exception("check %s failed on its last try", check_id)
        answer = {"check_id": check_id, "lab": lab, "student": student, "cells": [],
                  "refused": "the checker failed on this notebook (the service's fault, not yours); try again in a "
                             "few minutes, and tell your teacher if it goes on"}
    stored = answers.store_answer(check_id, answer)
    records.finish(check_id, answer)  # the record says answered, whether or not its request still waits
    log.info("check %s answered%s", check_id, "" if stored else " (an earlier answer was kept)")


def grade_submission(lab: str, student: str, files: dict[str, str], fingerprint: str,
                     submission_timeout: float, sandbox: str | bool, due: str | None = None) -> dict:
    """The worker's side of ``grade --queue``: grade one submission (its files, base64) in a scratch copy of
    the lab whose due date is the course's `due` (ISO 8601, or None), and return its grades and autograded files
    (`queue_worker.grade_in_scratch`)."""
    from coursetools import course_root
    from coursetools.grading import queue_worker
    from coursetools.grading.scratch import lab_fingerprint

    log.info("grading %s/%s started (pid %d)", lab, student, os.getpid())
    mine = lab_fingerprint(course_root(), lab)
    if mine != fingerprint:
        raise CourseMismatch(f"this worker's copy of {lab} ({course_root()}) differs from the coordinator's: "
                             f"update its course folder (fingerprint {mine[:12]}, wanted {fingerprint[:12]})")
    result = queue_worker.grade_in_scratch(Path(course_root()), lab, student, files, submission_timeout, sandbox,
                                            due)
    log.info("grading %s/%s done: %s", lab, student, result["status"])
    return result
