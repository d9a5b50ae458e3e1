"""The real broker (Redis) and database (PostgreSQL) for the self-check service's tests, and its workers.

`services` starts both as local processes on Unix sockets under build/services/ (as ``make services-up`` does)
unless they are running already, points ``COURSE_BROKER_URL`` and ``COURSE_SERVICE_DB`` at a Redis database and a
PostgreSQL database of the tests' own (emptied first), and stops what it started when the session ends.
`start_worker` runs ``python -m coursetools worker`` in a course folder, its log in a file.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from coursetools.quality.processes import stop

ROOT = Path(__file__).resolve().parents[2]
TEST_SEED = "the-service-tests-own-seed"  # a worker refuses to start without a secret seed


@pytest.fixture(scope="session")
def services() -> dict[str, str]:
    from coursetools.quality.processes import environ_set
    from coursetools.service import queue
    from coursetools.service import services as svc

    started = not svc.running(ROOT)
    try:
        svc.up(ROOT)
    except svc.ServiceError as exc:
        pytest.fail(f"the broker and database did not start: {exc}")
    values = svc.test_env(ROOT)
    with environ_set(values):
        queue.app.cache_clear()
        yield values
    queue.app.cache_clear()
    if started:
        svc.down(ROOT)


class Worker:
    """A ``python -m coursetools worker`` process and its log."""

    def __init__(self, course: Path, log: Path, env: dict[str, str], *args: str, prefix: tuple[str, ...] = ()) -> None:
        self.log_path = log
        self._log = open(log, "w")
        # `prefix` runs it elsewhere: ("ip", "netns", "exec", NAME) on a second host (it execs, so the pid stays)
        self.proc = subprocess.Popen([*prefix, sys.executable, "-m", "coursetools", "worker", *args], cwd=course,
                                     stdout=self._log, stderr=subprocess.STDOUT, env={**os.environ, **env},
                                     start_new_session=True)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_for(self, text: str, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text in self.log():
                return True
            if self.proc.poll() is not None:
                return text in self.log()
            time.sleep(0.1)
        return False

    def stop(self) -> None:
        stop(self.proc)
        self._log.close()


@pytest.fixture
def spawn_worker(tmp_path):
    """Start workers: ``spawn_worker(course, *args, env=..., prefix=...)``, each on the environment given (over this
    process's); every one still running is stopped after the test."""
    workers: list[Worker] = []

    def start(course: Path, *args: str, env: dict[str, str], prefix: tuple[str, ...] = ()) -> Worker:
        w = Worker(course, tmp_path / f"worker-{len(workers)}.log", {"COURSE_SECRET_SEED": TEST_SEED, **env}, *args,
                   prefix=prefix)
        workers.append(w)
        assert w.wait_for(" ready: ", 180), f"the worker did not start:\n{w.log()}"
        return w

    yield start
    for w in workers:
        w.stop()


@pytest.fixture
def start_worker(services, spawn_worker):
    """Start workers on the tests' services: ``start_worker(course, *args)``; stopped after the test."""
    def start(course: Path, *args: str, env: dict[str, str] | None = None) -> Worker:
        return spawn_worker(course, *args, env={**services, **(env or {})})

    return start
