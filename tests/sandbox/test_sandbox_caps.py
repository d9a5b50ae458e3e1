"""Caps on a whole sandbox, with the host's real cgroups (v1 or v2, whichever it has): the memory of all its
processes together, their number, and what the grader says where no cgroup can be made."""

from __future__ import annotations

import os
import subprocess
import sys

from coursetools.grading.autograde import Report
from coursetools.sandbox import launcher

HOG = "import time; x = bytearray({mb} * 2**20); time.sleep(1)"


def _in_cgroup(name: str, memory_mb: int, max_pids: int, code: str) -> subprocess.CompletedProcess:
    """Run `code` in a fresh Python put into the cgroup `name` before it starts anything."""
    gate_r, gate_w = os.pipe()
    proc = subprocess.Popen([sys.executable, "-S", "-c", f"import os; os.read({gate_r}, 1)\n{code}"],
                            pass_fds=(gate_r,), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    os.close(gate_r)
    problem = launcher.make_cgroup(name, memory_mb, max_pids, pid=proc.pid)
    os.write(gate_w, b"x")
    os.close(gate_w)
    out, err = proc.communicate(timeout=120)
    assert problem is None, problem
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def test_memory_cap_holds_for_all_processes_together():
    """Three children of 100 MB each under a 200 MB cap: each alone fits, together they do not."""
    name = launcher.cgroup_name(10**7 + os.getpid())
    code = ("import subprocess, sys\nkids = [subprocess.Popen([sys.executable, '-S', '-c', %r]) for _ in range(3)]\n"
            "print([k.wait() for k in kids])" % HOG.format(mb=100))
    try:
        done = _in_cgroup(name, 200, 16, code)
        usage = launcher.cgroup_usage(name)
    finally:
        assert launcher.remove_cgroup(name)
    assert "-9" in done.stdout, done.stdout + done.stderr  # the out-of-memory killer ended at least one child
    assert usage["limit"] == 200 * 2**20
    assert 150 * 2**20 <= usage["peak"] <= usage["limit"], usage
    assert usage.get("oom_kill", 0) + usage.get("failcnt", 0) >= 1, usage


def test_pids_cap_holds_on_this_hosts_cgroups():
    name = launcher.cgroup_name(2 * 10**7 + os.getpid())
    code = ("import os, time\nmade = 0\nfor _ in range(40):\n    try:\n        if os.fork() == 0:\n"
            "            time.sleep(2)\n            os._exit(0)\n        made += 1\n    except OSError:\n"
            "        break\nprint('forked', made)")
    try:
        done = _in_cgroup(name, 256, 10, code)
    finally:
        launcher.remove_cgroup(name)
    assert "forked 9" in done.stdout, done.stdout + done.stderr


def test_a_host_without_cgroups_is_named_in_the_summary(monkeypatch, tmp_path):
    monkeypatch.setattr(launcher, "CGROUPS", tmp_path / "no-cgroups-here")
    problem = launcher.cgroup_problem()
    assert problem and "no memory cgroup could be made here" in problem
    summary = Report("03_alphabeta", warnings=[problem]).summary()
    assert "NOTE: no memory cgroup could be made here" in summary


def test_this_host_lets_the_grader_make_one():
    """CI and these machines run the grader as root on cgroups v1/hybrid: the cap must be there, not skipped."""
    assert launcher.cgroup_problem() is None
