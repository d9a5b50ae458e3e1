"""The self-check service's queue on the real broker (Redis) and database (PostgreSQL), with real workers.

The answers table keeps the first answer of a check; the services run on Unix sockets only, PostgreSQL as its own
user; a worker SIGKILLed in the middle of a task has that task run by another worker within a minute, and it is
answered exactly once.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import psutil
import pytest

from coursetools.quality.toycourse import LAB, PERFECT, make_toy_course, remove_course, toy_submission
from coursetools.service import answers, classgrade, queue
from coursetools.service import services as svc

ROOT = Path(__file__).resolve().parents[2]
SLOW = PERFECT.replace("    return a * b\n", "    import time\n    time.sleep(6)\n    return a * b\n")


def test_an_answer_is_stored_once_and_wakes_its_waiter(services):
    check_id = f"test-{time.time_ns()}"
    assert answers.wait_answer(check_id, 0.3) is None
    first = {"check_id": check_id, "cells": [], "refused": None}
    timer = threading.Timer(0.5, lambda: answers.store_answer(check_id, first))
    timer.start()
    t0 = time.monotonic()
    assert answers.wait_answer(check_id, 10) == first
    assert time.monotonic() - t0 < 1.5  # woken by NOTIFY, not by a timeout
    timer.join()
    assert answers.store_answer(check_id, {"check_id": check_id, "cells": ["later"]}) is False
    assert answers.get_answer(check_id) == first
    assert answers.answer_count(check_id) == 1


def test_the_services_listen_on_unix_sockets_only_and_postgres_is_not_root(services):
    folder = svc.services_dir(ROOT)
    assert services[svc.BROKER_ENV].startswith(f"unix://{folder}/")
    assert f"host={svc.pg_dir(ROOT)}" in services[svc.DB_ENV]
    postmaster = int((svc.pg_dir(ROOT) / "data" / "postmaster.pid").read_text().split()[0])
    proc = psutil.Process(postmaster)
    assert proc.uids().real != 0, "PostgreSQL runs as root"
    if os.geteuid() == 0:
        assert proc.username() == svc.pg_user()
        assert (svc.pg_dir(ROOT) / "data").owner() == svc.pg_user()
    for pid in (postmaster, int((folder / "redis" / "redis.pid").read_text())):
        inet = [c for c in psutil.Process(pid).net_connections(kind="inet") if c.status == psutil.CONN_LISTEN]
        assert not inet, f"a service listens on a network port: {inet}"


def _cmdlines(pid: int) -> list[str]:
    out = []
    for p in psutil.Process(pid).children(recursive=True):
        try:
            out.append(" ".join(p.cmdline()))
        except psutil.Error:  # gone meanwhile
            pass
    return out


@pytest.fixture
def slow_course(tmp_path):
    course = make_toy_course(tmp_path / "course")
    toy_submission(course, "slow", SLOW, timestamp="2026-03-01 12:00:00.000000 UTC")
    classgrade._template(course, LAB)  # the lab's scratch gradebook, which workers on this machine share
    yield course
    remove_course(course)


@pytest.mark.slow
def test_a_worker_killed_mid_task_has_it_run_by_another_within_a_minute_once(slow_course, start_worker):
    course = slow_course
    workers = [start_worker(course, "--threads", "1") for _ in range(2)]
    files, _ = classgrade._files_of(course, LAB, "slow", [LAB])
    message = queue.app().grade.send(LAB, "slow", files, classgrade.lab_fingerprint(course, LAB), 120, "bwrap")
    started = f"grading {LAB}/slow started"
    deadline = time.monotonic() + 120
    while not any(started in w.log() for w in workers):
        assert time.monotonic() < deadline, "no worker took the submission:\n" + "\n".join(w.log() for w in workers)
        time.sleep(0.1)
    victim, other = (workers[0], workers[1]) if started in workers[0].log() else (workers[1], workers[0])
    while not any("autograde" in line for line in _cmdlines(victim.proc.pid)):  # nbgrader is at work
        assert time.monotonic() < deadline, f"the worker never started nbgrader:\n{victim.log()}"
        time.sleep(0.2)
    time.sleep(2)
    children = psutil.Process(victim.proc.pid).children(recursive=True)
    victim.proc.send_signal(signal.SIGKILL)
    killed = time.monotonic()
    victim.proc.wait()
    assert other.wait_for(started, 60), f"no other worker took the task within a minute:\n{other.log()}"
    redelivered = time.monotonic() - killed
    result = message.get_result(block=True, timeout=180_000)
    assert result["status"] == "graded", result
    assert sum(nb["grades"]["test_mul"] for nb in result["notebooks"].values()) == 2
    done = f"grading {LAB}/slow done"
    assert done not in victim.log() and other.log().count(done) == 1
    time.sleep(2)
    alive = [p for p in children if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    assert not alive, f"the killed worker's nbgrader or kernel outlived it: {alive}"
    print(f"redelivered {redelivered:.1f} s after the SIGKILL")
