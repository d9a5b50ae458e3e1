"""Self-checks against grading the same submissions: ``python benchmarks/selfcheck.py`` (also in ``make bench``).

Two measures, each side by side on the same cores, against issue 32's targets:

- **one check**: one lab 02 submission (its solution) graded with ``coursetools grade LAB --jobs 1`` (the command,
  in its own process), then checked as a self-check worker thread checks it, in this process
  (`selfcheck.check_notebook`; the thread has checked once before, untimed, so its warm nbgrader server,
  `grading.warm`, its lab's template gradebook and this process's sandbox probe and caches are made, as on a
  worker that has been running), BENCH_CHECKS times (default 3) each, alternating. Target: a check within 1.2x the
  grading of that one submission, plus 1 s.
- **a burst**: BENCH_BURST distinct notebooks (default 12: the lab's solution and its bug bank's entries, each made
  distinct) checked by BENCH_JOBS worker threads (default 2) at once, against ``grade()`` of the same notebooks as
  a class with ``jobs=BENCH_JOBS``, both in this process, in turn for BENCH_ROUNDS rounds (default 2; the ratio of
  each round's pair, then their median). Target: checks a minute at least 1/1.2 of the class grading's submissions
  a minute.

The whole service (HTTP, broker, workers) under a bigger burst is ``make loadtest``'s.
"""

from __future__ import annotations

import os
import queue
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

LAB = "02_minimax"
ROOT = Path(__file__).resolve().parents[1]


def _check(course: Path, body: bytes, student: str, tag: str) -> dict:
    from coursetools.service.selfcheck import check_notebook

    return check_notebook(course, LAB, student, body, f"bench-{tag}-{time.time_ns()}")


def one_check(course: Path, rounds: int) -> dict:
    """The first measure (see the module docstring)."""
    from coursetools import tool_env
    from coursetools.quality.toycourse import solution_submission

    notebook = solution_submission(course, LAB, "ada")
    body = (notebook / f"{LAB}.ipynb").read_bytes() if notebook.is_dir() else notebook.read_bytes()
    _check(course, body, "ada", "warm-up")  # this thread's warm server started, as on a running worker
    graded, checked = [], []
    for n in range(rounds):
        t0 = time.monotonic()  # the command, as an instructor runs it (its own process)
        proc = subprocess.run([sys.executable, "-m", "coursetools", "grade", LAB, "--jobs", "1", "--force",
                               "--students", "ada"], cwd=course, env=tool_env(), capture_output=True, text=True)
        graded.append(time.monotonic() - t0)
        assert proc.returncode == 0 and "1 graded" in proc.stdout, proc.stdout + proc.stderr
        t0 = time.monotonic()
        answer = _check(course, body, "ada", str(n))
        checked.append(time.monotonic() - t0)
        assert answer["refused"] is None and all(c["verdict"] == "passed" for c in answer["cells"]), answer
    g, c = statistics.median(graded), statistics.median(checked)
    target = 1.2 * g + 1.0
    print(f"  grade --jobs 1, one submission   {g:6.1f} s  (median of {rounds}: "
          + ", ".join(f"{x:.1f}" for x in graded) + ")")
    print(f"  one self-check, same notebook    {c:6.1f} s  (median of {rounds}: "
          + ", ".join(f"{x:.1f}" for x in checked) + ")")
    print(f"  ratio                            {c / g:6.2f}x  (target: within 1.2x + 1 s = {target:.1f} s: "
          f"{'met' if c <= target else 'not met'})")
    return {"graded": g, "checked": c, "ratio": c / g, "met": c <= target}


def _burst(course: Path, bodies: list[bytes], jobs: int) -> float:
    """Seconds for `jobs` threads to check every notebook of `bodies` (each thread's server warmed first)."""
    todo: queue.Queue = queue.Queue()
    problems: list[str] = []
    ready = threading.Barrier(jobs + 1)
    start = threading.Event()

    def thread(k: int) -> None:
        _check(course, bodies[0], f"warm{k}", "warm-up")  # a running worker's thread: its server is warm
        ready.wait()
        start.wait()
        while True:
            try:
                i = todo.get_nowait()
            except queue.Empty:
                return
            answer = _check(course, bodies[i], f"b{i:03d}", f"{k}-{i}")
            if answer["refused"] is not None:
                problems.append(f"notebook {i}: {answer['refused']}")

    for i in range(len(bodies)):
        todo.put(i)
    threads = [threading.Thread(target=thread, args=(k,)) for k in range(jobs)]
    for t in threads:
        t.start()
    ready.wait()
    t0 = time.monotonic()
    start.set()
    for t in threads:
        t.join()
    assert not problems, problems
    return time.monotonic() - t0


def burst(tmp: Path, count: int, jobs: int, rounds: int) -> dict:
    """The second measure (see the module docstring)."""
    from coursetools.grading.autograde import grade
    from coursetools.quality.loadtest import make_notebooks
    from coursetools.quality.toycourse import make_lab_course

    course = make_lab_course(tmp / "burst", LAB, root=ROOT)
    made = make_notebooks(ROOT, course, LAB, count, tmp / "notebooks")
    bodies = [path.read_bytes() for _, path in made]
    for i, (_, path) in enumerate(made):
        dest = course / "submitted" / f"b{i:03d}" / LAB
        dest.mkdir(parents=True)
        shutil.copy(path, dest / f"{LAB}.ipynb")
    checks, graded = [], []
    for _ in range(rounds):  # a burst, then the class, in turn: each round's pair shares the machine's load
        checks.append(_burst(course, bodies, jobs))
        t0 = time.monotonic()
        report = grade(course, LAB, jobs=jobs, force=True, progress=None)
        graded.append(time.monotonic() - t0)
        assert sum(r.status == "graded" for r in report.results.values()) == count, report.summary()
    ratio = statistics.median(g / c for g, c in zip(graded, checks))
    print(f"  grade(jobs={jobs}), {count} notebooks  " + ", ".join(f"{g:.1f}" for g in graded) + " s  ("
          + ", ".join(f"{count / g * 60:.1f}" for g in graded) + " a minute)")
    print(f"  {jobs} worker threads, same notebooks " + ", ".join(f"{c:.1f}" for c in checks) + " s  ("
          + ", ".join(f"{count / c * 60:.1f}" for c in checks) + " a minute)")
    print(f"  throughput ratio                  {ratio:6.2f}   (median of {rounds} rounds; target: at least "
          f"1/1.2 = 0.83: {'met' if ratio >= 1 / 1.2 else 'not met'})")
    return {"graded": graded, "checked": checks, "ratio": ratio, "met": ratio >= 1 / 1.2}


def run() -> dict:
    from coursetools import tool_env
    from coursetools.grading import autograde  # noqa: F401 - the sandbox launcher, imported before anything runs
    from coursetools.grading.scratch import template_gradebook
    from coursetools.quality.toycourse import make_lab_course

    tmp = Path(tempfile.mkdtemp(prefix="bench-selfcheck-"))
    os.environ.setdefault("COURSE_SECRET_SEED", "bench-seed")
    os.environ["PATH"] = tool_env()["PATH"]  # nbgrader runs alembic and kernels by name
    try:
        course = make_lab_course(tmp / "course", LAB)
        template_gradebook(course, LAB)
        single = one_check(course, int(os.environ.get("BENCH_CHECKS", 3)))
        many = burst(tmp, int(os.environ.get("BENCH_BURST", 12)), int(os.environ.get("BENCH_JOBS", 2)),
                     int(os.environ.get("BENCH_ROUNDS", 2)))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return {"one": single, "burst": many, "met": single["met"] and many["met"]}


if __name__ == "__main__":
    sys.exit(0 if run()["met"] else 1)
