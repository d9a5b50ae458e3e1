"""Intake of a class (real nbgrader, real bwrap): notebooks too big to grade, LMS zips with links, and a grader
killed outright.

- A notebook of 150,000 empty cells is NOT GRADED with the reason, at once, and the others are graded.
- A zip member that is a link or whose path leaves its folder is refused by name and never extracted.
- ``kill -9`` of the coordinator mid-class leaves no nbgrader, kernel or sandbox process of the course behind,
  and the same command then grades the rest.
"""

from __future__ import annotations

import datetime as dt
import os
import pwd
import shutil
import signal
import stat
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import nbformat
import psutil
import pytest
from nbgrader.api import Gradebook

from coursetools import tool_env
from coursetools.grading.autograde import grade
from coursetools.grading.intake import check_submission
from coursetools.grading.exchange import collect_zip
from coursetools.quality.toycourse import LAB, PERFECT, make_toy_course, remove_course, toy_submission

SLOW = PERFECT.replace("def mul(a, b):", "import time\ntime.sleep(6)\ndef mul(a, b):")


def _scores(course: Path) -> dict[str, float]:
    with Gradebook("sqlite:///" + str(course / "gradebook.db"), "adversarial-search") as gb:
        return {s.student_id: s.score for s in gb.assignment_submissions(LAB)}


def test_intake_a_notebook_of_150000_cells_is_not_graded_and_holds_nobody_up(tmp_path):
    course = make_toy_course(tmp_path / "course")
    try:
        for student in ("ada", "grace"):
            toy_submission(course, student, PERFECT)
        big = toy_submission(course, "huge", PERFECT)
        nb = nbformat.read(big, as_version=4)
        nb.cells += [nbformat.v4.new_code_cell("") for _ in range(150_000)]
        nbformat.write(nb, big, version=4)
        t0 = time.monotonic()
        problem = check_submission(course, LAB, "huge", [LAB])
        seconds = time.monotonic() - t0
        assert problem and "150" in problem and "cells" in problem and "COURSE_NOTEBOOK_MAX_CELLS" in problem, problem
        assert seconds < 20, f"checking the big notebook took {seconds:.1f} s"  # main: 80 s on a busy machine
        report = grade(course, LAB, jobs=2, progress=None)
        result = report.results["huge"]
        assert result.status == "not graded" and "too big to grade" in result.reason, report.summary()
        assert "NOT GRADED huge: " in report.summary()
        assert {s: report.results[s].status for s in ("ada", "grace")} == {"ada": "graded", "grace": "graded"}
        assert _scores(course) == {"ada": 5, "grace": 5, "huge": 0}
    finally:
        remove_course(course)


def test_intake_a_zip_member_that_is_a_link_or_leaves_its_folder_is_refused(tmp_path):
    course = make_toy_course(tmp_path / "course")
    try:
        good = toy_submission(course, "someone", PERFECT).read_bytes()
        shutil.rmtree(course / "submitted")
        archive = tmp_path / "uploads.zip"
        with zipfile.ZipFile(archive, "w") as z:
            z.writestr("ada_attempt_20260301T140500_toy.ipynb", good)
            link = zipfile.ZipInfo("eve_attempt_20260301T140500_toy.ipynb")
            link.external_attr = (stat.S_IFLNK | 0o777) << 16
            z.writestr(link, "../../../source/toy/toy.ipynb")
            z.writestr("../../mallory_attempt_20260301T140500_toy.ipynb", good)
        result = collect_zip(course, LAB, archive)
        assert sorted(result.collected) == ["ada"], result.summary()
        summary = result.summary()
        assert "eve_attempt_20260301T140500_toy.ipynb: a symlink in the zip; not collected" in summary, summary
        assert "its path leaves its folder; not collected" in summary, summary
        assert not (course / "submitted" / "eve").exists() and not (course / "submitted" / "mallory").exists()
        assert not [p for p in tmp_path.rglob("mallory*")]
    finally:
        remove_course(course)


@pytest.mark.skipif(os.geteuid() != 0, reason="the submission's owner must be the account it names: chown needs root")
def test_intake_exchange_collect_follows_no_link(tmp_path):
    """``nbgrader collect`` (the course's collector) leaves a link in the inbound out and says so."""
    course = make_toy_course(tmp_path / "course")
    try:
        notebook = toy_submission(course, "someone", PERFECT).read_bytes()
        shutil.rmtree(course / "submitted")
        inbound = tmp_path / "exchange" / "adversarial-search" / "inbound"
        stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f UTC")
        folder = inbound / f"nobody+{LAB}+{stamp}+abcdef"  # an account's own submission, made just now
        folder.mkdir(parents=True)
        (folder / f"{LAB}.ipynb").write_bytes(notebook)
        (folder / "timestamp.txt").write_text(stamp)
        (folder / "notes.json").symlink_to(course / "source" / LAB / f"{LAB}.ipynb")
        (folder / "environ").symlink_to("/proc/self/environ")
        nobody = pwd.getpwnam("nobody")
        for path in (folder, *folder.iterdir()):
            os.chown(path, nobody.pw_uid, nobody.pw_gid, follow_symlinks=False)
        proc = subprocess.run([sys.executable, "-m", "nbgrader", "collect", LAB, f"--Exchange.root={tmp_path / 'exchange'}"],
                              cwd=course, env=tool_env(), capture_output=True, text=True)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        got = course / "submitted" / "nobody" / LAB
        assert sorted(p.name for p in got.iterdir()) == ["timestamp.txt", f"{LAB}.ipynb"]
        log = proc.stdout + proc.stderr
        assert f"FLAGGED nobody: a symlink notes.json -> {course / 'source' / LAB / f'{LAB}.ipynb'}" in log, log
        assert "FLAGGED nobody: a symlink environ -> /proc/self/environ" in log, log
    finally:
        remove_course(course)


def _cmd(p: psutil.Process) -> str:
    try:
        return p.name() + " " + " ".join(p.cmdline())
    except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
        return ""


def _of_the_course(course: Path) -> list[str]:
    """The processes still running for `course`: its nbgrader shards, kernels and sandboxes."""
    left = []
    for p in psutil.process_iter(["pid", "cmdline"]):
        try:
            cmdline = " ".join(p.info["cmdline"] or [])
            cwd = p.cwd()
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
        if p.pid != os.getpid() and (str(course) in cmdline or cwd.startswith(str(course))):
            left.append(f"{p.pid} {cmdline[:200]}")
    return left


def test_intake_a_killed_grader_leaves_no_process_behind(tmp_path):
    course = make_toy_course(tmp_path / "course")
    try:
        students = [f"student{k}" for k in range(4)]
        for student in students:
            toy_submission(course, student, SLOW)
        coordinator = subprocess.Popen(
            [sys.executable, "-c", "import sys; from pathlib import Path; from coursetools.grading.autograde import "
             "grade; grade(Path(sys.argv[1]), sys.argv[2], jobs=2, progress=None)", str(course), LAB],
            cwd=course, env=tool_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        me = psutil.Process(coordinator.pid)
        kernels: list[psutil.Process] = []
        end = time.monotonic() + 180
        while time.monotonic() < end and len(kernels) < 2:  # both shards are grading, each in a kernel
            time.sleep(0.5)
            kernels = [p for p in me.children(recursive=True)
                       if "ipykernel" in _cmd(p) and not _cmd(p).startswith("bwrap")]
        assert len(kernels) >= 2, "the shards did not start their kernels"
        tree = me.children(recursive=True)
        assert any("nbgrader" in _cmd(p) for p in tree)
        coordinator.send_signal(signal.SIGKILL)
        coordinator.wait()
        _, alive = psutil.wait_procs(tree, timeout=20)
        assert alive == [], [_cmd(p)[:200] for p in alive]
        end = time.monotonic() + 30  # a kernel launched as the grader died ends a moment later, in cascade
        while _of_the_course(course) and time.monotonic() < end:
            time.sleep(0.5)
        assert _of_the_course(course) == []
        report = grade(course, LAB, jobs=2, progress=None)  # the same command grades the rest
        assert not report.not_graded(), report.summary()
        assert _scores(course) == dict.fromkeys(students, 5)
    finally:
        remove_course(course)

