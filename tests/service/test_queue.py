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
from coursetools.service import answers, queue
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


@pytest.fixture(scope="module")
def toy_course(tmp_path_factory):
    """A toy course, its lab's scratch gradebook built once (as a worker machine keeps it), and two notebooks."""
    from coursetools import tool_env
    from coursetools.grading.scratch import template_gradebook

    path = os.environ["PATH"]
    os.environ["PATH"] = tool_env()["PATH"]  # nbgrader runs alembic by name
    try:
        course = make_toy_course(tmp_path_factory.mktemp("queue") / "course")
        notebooks = {name: toy_submission(course, name, answers).read_bytes()
                     for name, answers in (("slow", SLOW), ("amy", PERFECT))}
        template_gradebook(course, LAB)
    finally:
        os.environ["PATH"] = path
    yield course, notebooks
    remove_course(course)


@pytest.mark.long
@pytest.mark.slow
def test_a_worker_killed_mid_check_has_it_run_by_another_within_a_minute_and_answered_once(toy_course, start_worker):
    course, notebooks = toy_course
    workers = [start_worker(course, "--threads", "1") for _ in range(2)]
    check_id = f"kill-{time.time_ns()}"
    queue.submit_check(check_id, LAB, "slow", notebooks["slow"])
    started = f"check {check_id} started"
    deadline = time.monotonic() + 120
    while not any(started in w.log() for w in workers):
        assert time.monotonic() < deadline, "no worker took the check:\n" + "\n".join(w.log() for w in workers)
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
    assert answers.get_answer(check_id) is None
    assert other.wait_for(started, 60), f"no other worker took the check within a minute:\n{other.log()}"
    redelivered = time.monotonic() - killed
    answer = answers.wait_answer(check_id, 180)
    answered = time.monotonic() - killed
    assert answer is not None, other.log()
    assert answer["refused"] is None and {c["cell"]: c["verdict"] for c in answer["cells"]}, answer
    assert all(c["points"] == c["max_points"] for c in answer["cells"]), answer  # slow, but right
    assert answers.answer_count(check_id) == 1
    assert f"check {check_id} answered" not in victim.log()
    assert other.log().count(f"check {check_id} answered") == 1
    time.sleep(2)
    alive = [p for p in children if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    assert not alive, f"the killed worker's nbgrader or kernel outlived it: {alive}"
    print(f"taken again {redelivered:.1f} s after the SIGKILL, answered {answered:.1f} s after it")


def test_a_check_that_keeps_failing_is_answered_with_a_refusal_after_the_engines_retries(toy_course, start_worker):
    course, notebooks = toy_course
    # a worker whose sandbox setting names no sandbox: every try fails for the service's own reason
    worker = start_worker(course, env={"COURSE_SELFCHECK_SANDBOX": "no-such-sandbox"})
    check_id = f"fail-{time.time_ns()}"
    queue.submit_check(check_id, LAB, "amy", notebooks["amy"])
    answer = answers.wait_answer(check_id, 120)
    assert answer is not None, worker.log()
    assert answer["cells"] == [] and "the service's fault, not yours" in answer["refused"]
    assert worker.log().count(f"check {check_id} started") == 3  # the first try and the engine's two retries
