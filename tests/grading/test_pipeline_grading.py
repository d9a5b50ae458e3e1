"""`python -m coursetools grade LAB --jobs N` through the real nbgrader and real kernels.

Parallel shards, idempotent re-runs, a crash in the middle of a class, a gradebook rebuilt
from submitted/, a kernel that fails to start, a submission over its wall-clock cap, a
grader told to stop that leaves no process behind.
"""

from __future__ import annotations

import hashlib
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from nbgrader.api import Gradebook

from coursetools import tool_env
from coursetools.grading.autograde import grade, kill_tree
from coursetools.quality.toycourse import LAB, PERFECT, make_toy_course, remove_course, toy_submission

ADD = "# %% add_solution\ndef add(a, b):\n    return a + b\n"
STUDENTS = {
    "ada": (PERFECT, 5),
    "ben": (ADD + "# %% mul_solution\ndef mul(a, b):\n    return a + b\n", 3),
    "cyd": (PERFECT, 5),
    "dan": ("", 0),
    "eve": ("# %% add_solution\ndef add(a, b):\n    return a - b\n# %% mul_solution\ndef mul(a, b):\n    return a * b\n", 2),
    "fay": (PERFECT, 5),
}


def scores_of(course: Path) -> dict[str, float]:
    with Gradebook("sqlite:///" + str(course / "gradebook.db"), "adversarial-search") as gb:
        return {s.student_id: s.score for s in gb.assignment_submissions(LAB)}


def digest(folder: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            h.update(str(p.relative_to(folder)).encode() + p.read_bytes())
    return h.hexdigest()


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    folder = make_toy_course(tmp_path_factory.mktemp("grading") / "course")
    for student, (answers, _) in STUDENTS.items():
        toy_submission(folder, student, answers, timestamp=f"2026-03-0{len(student)} 12:00:00.000000 UTC")
    yield folder
    remove_course(folder)


def test_pipeline_parallel_grading_records_every_score(course):
    before = digest(course / "submitted")
    report = grade(course, LAB, jobs=2, progress=None)
    assert not report.not_graded(), report.summary()
    assert scores_of(course) == {s: float(v) for s, (_, v) in STUDENTS.items()}
    assert digest(course / "submitted") == before
    for student in STUDENTS:
        assert (course / "autograded" / student / LAB / f"{LAB}.ipynb").is_file()
    assert not list((course / "build" / "grading" / LAB).glob("shard-*")), "shard copies are cleaned up"
    for result in report.results.values():  # where each submission's time went, as make bench prints it
        assert set(result.timing) == {"start", "kernel", "checks"}, result.timing
        assert result.timing["start"] > 0 and result.timing["kernel"] > 0 and result.timing["checks"] >= 0
        assert sum(result.timing.values()) <= result.seconds + 1
    assert any(r.timing["checks"] > 0 for r in report.results.values())


def test_pipeline_rerun_is_idempotent(course):
    t0 = time.monotonic()
    report = grade(course, LAB, jobs=2, progress=None)
    assert {r.status for r in report.results.values()} == {"up to date"}
    assert time.monotonic() - t0 < 30, "nothing to do must not start nbgrader"
    assert scores_of(course) == {s: float(v) for s, (_, v) in STUDENTS.items()}


def test_pipeline_resubmission_is_regraded(course):
    toy_submission(course, "ben", PERFECT, timestamp="2026-03-09 12:00:00.000000 UTC")
    report = grade(course, LAB, jobs=2, progress=None)
    assert report.results["ben"].status == "graded"
    assert sum(r.status == "graded" for r in report.results.values()) == 1
    assert scores_of(course)["ben"] == 5.0
    toy_submission(course, "ben", STUDENTS["ben"][0], timestamp="2026-03-10 12:00:00.000000 UTC")
    grade(course, LAB, jobs=1, progress=None)
    assert scores_of(course)["ben"] == 3.0


def test_pipeline_crash_mid_class_keeps_grades_and_next_run_finishes(course):
    import shutil

    shutil.rmtree(course / "autograded", ignore_errors=True)  # as if nothing had been graded yet
    proc = subprocess.Popen([sys.executable, "-m", "coursetools", "grade", LAB, "--jobs", "1"],
                            cwd=course, env=tool_env(), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    graded_before_crash = []
    try:
        for line in proc.stdout:
            if "/5]" in line or "/6]" in line:
                graded_before_crash.append(line.split("]")[1].split(":")[0].strip())
            if len(graded_before_crash) == 2:
                break
    finally:
        kill_tree(proc.pid)  # the whole tree at once, as a crash would: coordinator, nbgrader, kernel
        proc.wait()
    assert len(graded_before_crash) == 2
    report = grade(course, LAB, jobs=2, progress=None)
    for student in graded_before_crash:
        assert report.results[student].status == "up to date", f"{student}'s grade was lost in the crash"
    assert sum(r.status == "graded" for r in report.results.values()) == len(STUDENTS) - 2
    assert scores_of(course) == {s: float(v) for s, (_, v) in STUDENTS.items()}


def test_pipeline_gradebook_rebuilt_from_source_and_submitted(course):
    (course / "gradebook.db").unlink()
    report = grade(course, LAB, jobs=2, progress=None)
    assert sum(r.status == "graded" for r in report.results.values()) == len(STUDENTS)
    assert scores_of(course) == {s: float(v) for s, (_, v) in STUDENTS.items()}


FLAKY_KERNEL = """
import json, os, sys
# The kernel runs in the grading sandbox: the one folder it may write to is its IPC folder.
info = json.load(open(sys.argv[sys.argv.index("-f") + 1]))
flag = os.path.join(os.path.dirname(info["ip"]), "started-once")
if not os.path.exists(flag):
    open(flag, "w").close()
    sys.exit("flaky kernel: refusing to start the first time")
from ipykernel import kernelapp
kernelapp.launch_new_instance()
"""


@pytest.fixture(scope="module")
def troubled(tmp_path_factory):
    """One run where the first kernel fails to start and one submission sleeps past its cap."""
    tmp = tmp_path_factory.mktemp("troubled")
    spec = tmp / "jupyter" / "kernels" / "python3"
    spec.mkdir(parents=True)
    (tmp / "flaky.py").write_text(FLAKY_KERNEL)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, str(tmp / "flaky.py"), "-f", "{connection_file}"],
        "display_name": "Python 3 (flaky)", "language": "python"}))
    mp = pytest.MonkeyPatch()
    mp.setenv("JUPYTER_PATH", str(tmp / "jupyter"))  # found before the venv's python3
    course = make_toy_course(tmp / "course")
    toy_submission(course, "amy", PERFECT)
    toy_submission(course, "slow", ADD + "# %% mul_solution\nimport time\ntime.sleep(60)\n")
    toy_submission(course, "zoe", PERFECT)
    lines: list[str] = []
    t0 = time.monotonic()
    try:
        report = grade(course, LAB, jobs=1, progress=lines.append, submission_timeout=30)
    finally:
        mp.undo()
    yield {"course": course, "report": report, "lines": lines, "seconds": time.monotonic() - t0, "tmp": tmp}
    remove_course(course)


def test_pipeline_kernel_that_fails_to_start_is_retried(troubled):
    assert any("flaky kernel" in p.read_text() for p in (troubled["course"] / "build" / "grading" / LAB / "logs").glob(
        "*.log")), "the flaky kernel was not used"
    assert any("try again" in line or "trying again" in line for line in troubled["lines"]), troubled["lines"]
    assert troubled["report"].results["amy"].status == "graded"
    assert scores_of(troubled["course"])["amy"] == 5.0


def test_pipeline_submission_over_its_cap_is_recorded_and_named(troubled):
    """Stopped at its wall-clock cap: the tests that finished keep their verdicts, the rest score 0."""
    report = troubled["report"]
    assert troubled["seconds"] < 120
    assert report.results["slow"].status == "graded", report.summary()
    assert scores_of(troubled["course"])["slow"] == 3.0, "add's tests ran before the cap and keep their points"
    assert "wall-clock cap" in report.summary() and "slow" in report.summary()
    assert report.results["zoe"].status == "graded", "the shard goes on after the stopped submission"
    assert scores_of(troubled["course"])["zoe"] == 5.0


def test_pipeline_grade_command_line(course):
    proc = subprocess.run([sys.executable, "-m", "coursetools", "grade", LAB, "--jobs", "2"], cwd=course,
                          env=tool_env(), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"{LAB}: 0 graded, {len(STUDENTS)} already up to date, 0 not graded" in proc.stdout


def _kernels_of(pid: int) -> list:
    import psutil

    found = []
    for child in psutil.Process(pid).children(recursive=True):
        try:
            if "ipykernel" in " ".join(child.cmdline()):
                found.append(child)
        except psutil.Error:  # gone already
            pass
    return found


def test_pipeline_terminated_grader_stops_its_shards_and_keeps_grades(course):
    import psutil

    proc = subprocess.Popen([sys.executable, "-m", "coursetools", "grade", LAB, "--jobs", "2", "--force"],
                            cwd=course, env=tool_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not _kernels_of(proc.pid):
            time.sleep(0.2)
        family = psutil.Process(proc.pid).children(recursive=True)
        assert _kernels_of(proc.pid), "no grading kernel started within 120 s"
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            kill_tree(proc.pid)
    assert proc.returncode == 130, out + err
    assert "stopped by SIGTERM" in err and "run the same command again" in err, err
    _, alive = psutil.wait_procs(family, timeout=15)
    assert not alive, f"the stopped grader left these running: {[p.pid for p in alive]}"
    report = grade(course, LAB, jobs=2, progress=None)
    assert not report.not_graded(), report.summary()
    assert scores_of(course) == {s: float(v) for s, (_, v) in STUDENTS.items()}


@pytest.mark.long
def test_pipeline_a_slow_submission_does_not_hold_back_the_queue(tmp_path):
    """Shards share one queue: the submission queued behind a slow one is handed to the other shard."""
    course = make_toy_course(tmp_path / "course")
    toy_submission(course, "a_slow", ADD + "# %% mul_solution\nimport time\ntime.sleep(20)\n"
                   "def mul(a, b):\n    return a * b\n")
    for name in ("b1", "b2", "b3", "b4", "b5"):
        toy_submission(course, name, PERFECT)
    lines: list[str] = []
    report = grade(course, LAB, jobs=2, progress=lines.append, submission_timeout=120, hand_back_after=5)
    assert not report.not_graded(), report.summary()
    assert all(v == 5.0 for v in scores_of(course).values()), scores_of(course)
    done = [line for line in lines if "/5 in" in line]
    order = [line.split("] ")[1].split(":")[0] for line in done]
    assert order.index("b1") < order.index("a_slow"), done
    assert "(shard 1)" in next(line for line in done if "] b1:" in line), done
    remove_course(course)


@pytest.mark.long
def test_pipeline_a_shard_that_runs_dry_takes_the_end_of_anothers_batch(tmp_path):
    """The queue is shared out evenly; the shard whose batch is quick then takes the second half of the
    other's waiting list (one nbgrader start more), never the submission that is about to start."""
    course = make_toy_course(tmp_path / "course")
    slow = ADD + "# %% mul_solution\nimport time\ntime.sleep(6)\ndef mul(a, b):\n    return a * b\n"
    for name in ("a1", "a2", "a3", "a4"):
        toy_submission(course, name, slow)
    for name in ("b1", "b2", "b3", "b4"):
        toy_submission(course, name, PERFECT)
    lines: list[str] = []
    report = grade(course, LAB, jobs=2, progress=lines.append, submission_timeout=120)
    assert not report.not_graded(), report.summary()
    assert all(v == 5.0 for v in scores_of(course).values()), scores_of(course)
    shard = {line.split("] ")[1].split(":")[0]: line.rsplit("(shard ", 1)[1].rstrip(")")
             for line in lines if "/5 in" in line}
    assert len(shard) == 8, lines
    assert [shard[s] for s in ("a1", "a2", "b1", "b2", "b3", "b4")] == ["0", "0", "1", "1", "1", "1"], shard
    assert shard["a4"] == "1", shard  # taken from the end of shard 0's batch
    remove_course(course)
