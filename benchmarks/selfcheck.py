"""One self-check against grading the same submission: ``python benchmarks/selfcheck.py`` (also in ``make bench``).

In a course of its own, one lab 02 submission (its solution) is graded with ``coursetools grade LAB --jobs 1``
(the command, in its own process), then checked as the self-check service's worker checks it, in this process
(`selfcheck.check_notebook`, its lab's template gradebook already built and this process's sandbox probe and
caches done, as on a worker that has checked before), BENCH_CHECKS times (default 3) each, alternating, on the
same cores. Printed: the medians and the ratio, against issue 32's target
(a check within 1.2x the grading of that one submission, plus 1 s). Report only: the target is not met yet (a
check still starts its own nbgrader process, as ``grade`` does for one submission; the burst throughput of many
checks is ``make loadtest``'s figure).
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LAB = "02_minimax"


def run() -> dict:
    from coursetools import tool_env
    from coursetools.grading import autograde  # noqa: F401 - the sandbox launcher, imported before anything runs
    from coursetools.grading.scratch import template_gradebook
    from coursetools.quality.toycourse import make_lab_course, solution_submission
    from coursetools.service.selfcheck import check_notebook

    rounds = int(os.environ.get("BENCH_CHECKS", 3))
    tmp = Path(tempfile.mkdtemp(prefix="bench-selfcheck-"))
    os.environ.setdefault("COURSE_SECRET_SEED", "bench-seed")
    try:
        course = make_lab_course(tmp / "course", LAB)
        notebook = solution_submission(course, LAB, "ada")
        body = (notebook / f"{LAB}.ipynb").read_bytes() if notebook.is_dir() else notebook.read_bytes()
        template_gradebook(course, LAB)
        graded, checked = [], []
        for n in range(rounds):
            t0 = time.monotonic()  # the command, as an instructor runs it (its own process)
            proc = subprocess.run([sys.executable, "-m", "coursetools", "grade", LAB, "--jobs", "1", "--force",
                                   "--students", "ada"], cwd=course, env=tool_env(), capture_output=True, text=True)
            graded.append(time.monotonic() - t0)
            assert proc.returncode == 0 and "1 graded" in proc.stdout, proc.stdout + proc.stderr
            t0 = time.monotonic()
            answer = check_notebook(course, LAB, "ada", body, f"bench-{n}-{time.time_ns()}")
            checked.append(time.monotonic() - t0)
            assert answer["refused"] is None and all(c["verdict"] == "passed" for c in answer["cells"]), answer
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    g, c = statistics.median(graded), statistics.median(checked)
    target = 1.2 * g + 1.0
    print(f"  grade --jobs 1, one submission   {g:6.1f} s  (median of {rounds}: "
          + ", ".join(f"{x:.1f}" for x in graded) + ")")
    print(f"  one self-check, same notebook    {c:6.1f} s  (median of {rounds}: "
          + ", ".join(f"{x:.1f}" for x in checked) + ")")
    print(f"  ratio                            {c / g:6.2f}x  (target: within 1.2x + 1 s = {target:.1f} s: "
          f"{'met' if c <= target else 'not met'})")
    return {"graded": g, "checked": c, "ratio": c / g, "met": c <= target}


if __name__ == "__main__":
    run()
