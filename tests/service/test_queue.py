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
STALL = PERFECT.replace("    return a + b\n", "    import time\n    time.sleep(600)\n    return a + b\n")


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
                     for name, answers in (("slow", SLOW), ("amy", PERFECT), ("stall", STALL))}
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
    assert other.wait_for(f"check {check_id} answered", 30), other.log()  # logged just after the answer is stored
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


@pytest.mark.long
def test_a_check_past_its_time_limit_is_answered_once_and_never_tried_again(toy_course, start_worker):
    """The worker keeps a check's time limit (Dramatiq's TimeLimit, whose watchdog the worker starts): a notebook
    that runs past it is stopped, answered once in plain words, and not retried; its nbgrader and kernel end."""
    course, notebooks = toy_course
    worker = start_worker(course, "--threads", "1", env={queue.TIME_LIMIT_ENV: "8"})
    check_id = f"overrun-{time.time_ns()}"
    t0 = time.monotonic()
    queue.submit_check(check_id, LAB, "stall", notebooks["stall"])
    answer = answers.wait_answer(check_id, 120)
    took = time.monotonic() - t0
    assert answer is not None, worker.log()
    assert answer["cells"] == [] and "ran past the time limit of a self-check (8 s)" in answer["refused"], answer
    assert took < 60, f"answered {took:.0f} s after it was sent: the time limit was not kept"
    time.sleep(5)  # a retry, were there one, would have started by now
    assert worker.log().count(f"check {check_id} started") == 1, worker.log()
    assert answers.answer_count(check_id) == 1
    assert not any("autograde" in line or "ipykernel" in line for line in _cmdlines(worker.proc.pid)), \
        _cmdlines(worker.proc.pid)


def test_each_worker_thread_starts_its_warm_nbgrader_server_as_it_boots(toy_course, start_worker):
    """Before any check arrives, each worker thread has its fork server (`grading.warm`), so no check waits for it."""
    course, _ = toy_course
    worker = start_worker(course, "--threads", "2")
    deadline = time.monotonic() + 60
    while len([c for c in _cmdlines(worker.proc.pid) if "-m coursetools.grading.warm" in c]) < 2:
        assert time.monotonic() < deadline, f"no warm server per thread: {_cmdlines(worker.proc.pid)}\n{worker.log()}"
        time.sleep(0.2)


def test_a_worker_refuses_to_start_without_the_secret_seed(tmp_path):
    """Without COURSE_SECRET_SEED the cases a check draws would follow a constant anyone can read: no worker."""
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "COURSE_SECRET_SEED"}
    proc = subprocess.run([sys.executable, "-m", "coursetools", "worker"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "COURSE_SECRET_SEED is not set" in proc.stderr and "ready" not in proc.stderr


def _aof_holds(folder: Path, text: bytes) -> bool:
    return any(text in p.read_bytes() for p in folder.iterdir() if p.is_file())


@pytest.mark.slow
def test_the_brokers_file_is_private_and_forgets_an_answered_check(toy_course, start_worker):
    """Redis's append-only file holds a queued check's notebook: in a folder only its owner can open, and rewritten
    a few seconds after the check is answered, so the notebook is no longer in it."""
    import base64
    import json
    import stat

    course, notebooks = toy_course
    folder = svc.services_dir(ROOT) / "redis"
    aof = folder / "appendonlydir"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert all(not p.stat().st_mode & 0o077 for p in [aof, *aof.iterdir()]), "the append-only file is not private"
    marker = f"marker-{time.time_ns()}-" * 4
    nb = json.loads(notebooks["amy"])
    nb["metadata"]["marker"] = marker
    data = json.dumps(nb).encode()
    start = data.index(marker.encode()) // 3 * 3  # a stretch of the message's base64 that holds the marker
    seen = base64.b64encode(data)[start // 3 * 4: start // 3 * 4 + 80]
    worker = start_worker(course)  # COURSE_BROKER_FORGET_S: its default, 5 s
    check_id = f"forget-{time.time_ns()}"
    queue.submit_check(check_id, LAB, "amy", data)
    deadline = time.monotonic() + 5
    while not _aof_holds(aof, seen):
        assert time.monotonic() < deadline, "the queued check never reached the append-only file"
        time.sleep(0.1)
    assert answers.wait_answer(check_id, 240) is not None, worker.log()
    deadline = time.monotonic() + 35
    while _aof_holds(aof, seen):
        assert time.monotonic() < deadline, "the answered check's notebook stayed in the append-only file"
        time.sleep(0.5)
    assert not [p for p in aof.iterdir() if p.suffix == ".rdb"], "a binary (compressed) part escapes the search"


@pytest.mark.skipif(os.geteuid() != 0, reason="PostgreSQL's own user owns the folder only when this is root")
def test_postgresql_s_folder_under_tmp_is_private_and_its_name_unguessable(tmp_path):
    user = svc.pg_user()
    made = []
    try:
        first = svc.private_pg_dir(tmp_path / "a" / "pg-folder", user)
        made.append(first)
        again = svc.private_pg_dir(tmp_path / "a" / "pg-folder", user)
        other = svc.private_pg_dir(tmp_path / "b" / "pg-folder", user)
        made.append(other)
        assert again == first and other != first  # kept by its record; a new one per services folder
        assert first.owner() == user and (first.stat().st_mode & 0o777) == 0o700
        # someone else's folder (or a link) at the recorded name is refused, not used
        first.chmod(0o755)
        with pytest.raises(svc.ServiceError, match="not a private folder"):
            svc.private_pg_dir(tmp_path / "a" / "pg-folder", user)
        link = tmp_path / "planted"
        link.symlink_to(other)
        (tmp_path / "c").mkdir()
        (tmp_path / "c" / "pg-folder").write_text(f"{link}\n")
        with pytest.raises(svc.ServiceError, match="not a private folder"):
            svc.private_pg_dir(tmp_path / "c" / "pg-folder", user)
    finally:
        for folder in made:
            folder.rmdir()
