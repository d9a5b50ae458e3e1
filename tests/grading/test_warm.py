"""Warm nbgrader starts (`coursetools.grading.warm`): one fork server per thread grades check after check, forks
each grading as a process of its own, restarts when the environment it would hand over changed, and dies with
the thread that made it."""

from __future__ import annotations

import signal
import sys
import threading
import time
from pathlib import Path

import psutil
import pytest

from coursetools import tool_env
from coursetools.course.labfiles import solution_answers
from coursetools.grading import warm
from coursetools.grading.autograde import kill_tree
from coursetools.quality.submission import build_submission
from coursetools.quality.toycourse import make_lab_course
from coursetools.service.selfcheck import check_notebook

ROOT = Path(__file__).resolve().parents[2]
LAB = "02_minimax"
VERSION = [sys.executable, "-m", "nbgrader", "--version"]


def _gone(pid: int, seconds: float = 15) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        time.sleep(0.1)
    return False


@pytest.mark.long  # two lab 02 checks and a template gradebook: about 20 s
def test_one_server_grades_one_check_after_another(tmp_path, monkeypatch):
    monkeypatch.setenv("COURSE_SECRET_SEED", "warm-test-seed")
    monkeypatch.setenv("PATH", tool_env()["PATH"])
    course = make_lab_course(tmp_path / "course", LAB, root=ROOT)
    notebook = tmp_path / "solution.ipynb"
    build_submission(course / "release" / LAB / f"{LAB}.ipynb",
                     solution_answers(ROOT / "source" / LAB / f"{LAB}.ipynb"), notebook)
    body = notebook.read_bytes()
    servers = []
    for n in range(2):
        answer = check_notebook(course, LAB, "ada", body, f"warm-check-{n}-0123")
        assert answer["refused"] is None and answer["cells"], answer
        assert all(c["verdict"] == "passed" for c in answer["cells"]), answer
        servers.append(warm.starter().proc.pid)
    assert servers[0] == servers[1], "the second check started a new server"
    server = psutil.Process(servers[0])
    assert "coursetools.grading.warm" in " ".join(server.cmdline())
    assert not server.children(), "a grading outlived its check"


def test_a_changed_environment_starts_a_new_server_and_a_grading_own_variables_do_not(tmp_path):
    starter = warm.Starter()
    try:
        env = tool_env()
        proc = starter.spawn(VERSION, cwd=tmp_path, env=env, log=tmp_path / "a.log")
        assert proc.wait(60) == 0 and "nbgrader version" in (tmp_path / "a.log").read_text()
        first = starter.proc.pid
        assert proc.pid != first and _gone(proc.pid)
        proc = starter.spawn(VERSION, cwd=tmp_path, env={**env, warm.PER_RUN[0]: str(tmp_path / "events")},
                             log=tmp_path / "b.log")
        assert proc.wait(60) == 0 and starter.proc.pid == first
        proc = starter.spawn(VERSION, cwd=tmp_path, env={**env, "COURSE_KERNEL_MEMORY_MB": "1024"},
                             log=tmp_path / "c.log")
        assert proc.wait(60) == 0 and starter.proc.pid != first
        assert _gone(first), "the server of the old environment is still running"
    finally:
        starter.close()


def test_a_killed_grading_is_reported_and_the_server_serves_on(tmp_path):
    starter = warm.Starter()
    try:
        # a grading that never ends: nbgrader's autograde in a folder whose config sleeps
        (tmp_path / "nbgrader_config.py").write_text("import time\ntime.sleep(600)\n")
        proc = starter.spawn([sys.executable, "-m", "nbgrader", "autograde", "x"], cwd=tmp_path, env=tool_env(),
                             log=tmp_path / "slow.log")
        time.sleep(1)
        assert proc.poll() is None
        kill_tree(proc.pid)
        assert proc.wait(30) == -signal.SIGKILL
        (tmp_path / "nbgrader_config.py").unlink()
        proc = starter.spawn(VERSION, cwd=tmp_path, env=tool_env(), log=tmp_path / "v.log")
        assert proc.wait(60) == 0
    finally:
        starter.close()


def test_the_server_dies_with_its_thread(tmp_path):
    seen = {}

    def work() -> None:
        starter = warm.starter()
        proc = starter.spawn(VERSION, cwd=tmp_path, env=tool_env(), log=tmp_path / "t.log")
        seen["code"], seen["server"] = proc.wait(60), starter.proc.pid

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert seen["code"] == 0
    assert _gone(seen["server"]), "the fork server outlived the thread that made it"


def test_only_nbgrader_is_started_warm(tmp_path):
    with pytest.raises(ValueError, match="nbgrader only"):
        warm.Starter().spawn([sys.executable, "-c", "print(1)"], cwd=tmp_path, env=tool_env(), log=tmp_path / "x")
