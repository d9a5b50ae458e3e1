"""Grading throughput: N lab-03 submissions graded sequentially, with ``--jobs J``, and the floor.

The floor is what grading cannot beat: the same notebooks (solutions and hidden tests,
the kernel arguments of nbgrader_config.py) just executed by nbclient, in J worker
processes, with no nbgrader around them. Printed as times and ratios to the floor.
Environment: BENCH_SUBMISSIONS (default 64), BENCH_JOBS (default: cores), BENCH_LAB
(default 03_alphabeta, or the toy lab when it does not exist yet), BENCH_SEQUENTIAL=0 to
skip grading with one shard, BENCH_ALL_LABS=0 to skip the per-lab hidden-check times. Grading runs every kernel
in its sandbox (bubblewrap); the floor does not, and the sandbox's own cost per submission (a
kernel's start and first imports, in bwrap and without) is printed beside.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from coursetools import course_root, tool_env
from coursetools.grading.autograde import grade
from coursetools.labs import LABS
from coursetools.quality.toycourse import (LAB as TOY, PERFECT, make_lab_course, make_toy_course, remove_course,
                                   solution_submission, toy_submission)

FLOOR_WORKER = """
import sys, nbformat
from nbclient import NotebookClient
extra = sys.argv[2].split("\\x1f")
for path in sys.argv[3:]:
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=120, allow_errors=True, kernel_name="python3", extra_arguments=extra,
                   resources={"metadata": {"path": sys.argv[1]}}).execute()
"""


def _course(folder: Path, lab: str, n: int) -> Path:
    if lab == TOY:
        course = make_toy_course(folder)
        for i in range(n):
            toy_submission(course, f"s{i:03d}", PERFECT)
    else:
        course = make_lab_course(folder, lab)
        for i in range(n):
            solution_submission(course, lab, f"s{i:03d}")
    return course


def floor(course: Path, lab: str, n: int, jobs: int) -> float:
    """Seconds for `jobs` processes to execute the source notebook `n` times in all with nbclient."""
    from coursetools.grading.gradebook import course_config

    extra = "\x1f".join(course_config(course).Execute.extra_arguments)
    source = sorted((course / "source" / lab).glob("*.ipynb"))
    paths = [str(p) for _ in range(n) for p in source]
    t0 = time.monotonic()
    env = tool_env(NBGRADER_EXECUTION="autograde")
    procs = [subprocess.Popen([sys.executable, "-c", FLOOR_WORKER, str(course / "source" / lab), extra, *paths[k::jobs]],
                              env=env) for k in range(jobs)]
    for p in procs:
        p.wait()
    return time.monotonic() - t0


def sandbox_cost(starts: int = 8) -> tuple[float, float]:
    """Mean seconds to start a kernel and run one cell: in the grading sandbox, and without it."""
    from jupyter_client.manager import AsyncKernelManager
    from jupyter_core.utils import run_sync

    from coursetools.sandbox.manager import SandboxKernelManager

    def one(cls: type) -> float:
        with tempfile.TemporaryDirectory(prefix="cg-", dir="/tmp") as ipc, \
                tempfile.TemporaryDirectory(prefix="nb-") as cwd:
            km = cls(kernel_name="python3", transport="ipc", ip=os.path.join(ipc, "kernel"))
            t0 = time.monotonic()
            run_sync(km.start_kernel)(cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            kc = km.client()
            kc.start_channels()
            try:
                run_sync(kc.wait_for_ready)(timeout=60)
                reply = run_sync(kc.execute_interactive)("import course_lib, matplotlib.pyplot", timeout=60)
                assert reply["content"]["status"] == "ok", reply["content"]
                return time.monotonic() - t0
            finally:
                kc.stop_channels()
                run_sync(km.shutdown_kernel)(now=True)

    boxed = sum(one(SandboxKernelManager) for _ in range(starts)) / starts
    bare = sum(one(AsyncKernelManager) for _ in range(starts)) / starts
    return boxed, bare


def _mean_timing(report: object) -> dict[str, float]:
    """Seconds per submission: its kernel's start, its cells, its hidden checks (from the grader's record)."""
    timings = [r.timing for r in report.results.values() if r.timing]
    return {k: sum(t.get(k, 0.0) for t in timings) / len(timings) for k in ("start", "kernel", "checks")} if timings else {}


def checks_per_lab(submissions: int = 2) -> dict[str, dict[str, float]]:
    """For every lab in source/: the mean seconds of a correct submission's parts, graded one at a time."""
    out = {}
    for lab in LABS:
        with tempfile.TemporaryDirectory(prefix="bench-checks-") as tmp:
            course = _course(Path(tmp) / "course", lab, submissions)
            report = grade(course, lab, jobs=1, force=True, progress=None)
            remove_course(course)
        assert not report.not_graded(), report.summary()
        out[lab] = _mean_timing(report)
    return out


def run(n: int | None = None, jobs: int | None = None, lab: str | None = None) -> dict:
    n = n or int(os.environ.get("BENCH_SUBMISSIONS", "64"))
    jobs = jobs or int(os.environ.get("BENCH_JOBS", str(os.cpu_count() or 1)))
    lab = lab or os.environ.get("BENCH_LAB") or "03_alphabeta"
    if not (course_root() / "source" / lab).is_dir():
        print(f"(no {lab} in source/ yet: benchmarking the toy lab)")
        lab = TOY
    with tempfile.TemporaryDirectory(prefix="bench-grading-") as tmp:
        course = _course(Path(tmp) / "course", lab, n)
        t_floor = floor(course, lab, n, jobs)
        seq, t_seq = None, None
        if os.environ.get("BENCH_SEQUENTIAL", "1") == "1":
            t0 = time.monotonic()
            seq = grade(course, lab, jobs=1, force=True, progress=None)
            t_seq = time.monotonic() - t0
        t0 = time.monotonic()
        par = grade(course, lab, jobs=jobs, force=True, progress=None)
        t_par = time.monotonic() - t0
        remove_course(course)
    assert not par.not_graded(), par.summary()
    assert seq is None or (not seq.not_graded() and seq.scores() == par.scores()), seq.summary()
    boxed, bare = sandbox_cost()
    parts = _mean_timing(par)
    per_lab = checks_per_lab() if os.environ.get("BENCH_ALL_LABS", "1") == "1" else {}
    result = {"submissions": n, "jobs": jobs, "lab": lab, "floor": t_floor, "sequential": t_seq, "parallel": t_par,
              "ratio": t_par / t_floor, "sandbox_start": boxed, "bare_start": bare, "parts": parts, "per_lab": per_lab,
              "slowest_checks": max((t.get("checks", 0.0) for t in per_lab.values()), default=0.0)}
    print(f"{n} {lab} submissions, {jobs} cores")
    print(f"  floor (nbclient only, {jobs} processes) {t_floor:7.1f} s   1.00x")
    if t_seq is not None:
        print(f"  grade --jobs 1                      {t_seq:7.1f} s   {t_seq / t_floor:.2f}x")
    print(f"  grade --jobs {jobs:<2}                     {t_par:7.1f} s   {t_par / t_floor:.2f}x   (target <= 1.3x)")
    print(f"  the sandbox's own cost per submission: {boxed - bare:+.2f} s (a kernel's start and first imports: "
          f"{boxed:.2f} s in bwrap, {bare:.2f} s without)")
    if parts:
        print(f"  per submission with --jobs {jobs}: kernel start {parts['start']:.2f} s, "
              f"its cells {parts['kernel']:.2f} s, hidden checks over the channel {parts['checks']:.2f} s")
    if per_lab:
        print("  hidden checks of a correct submission, per lab (graded alone; target <= 20 s):")
        for name, t in per_lab.items():
            print(f"    {name:24s} checks {t.get('checks', 0):6.2f} s   cells {t.get('kernel', 0):5.2f} s   "
                  f"start {t.get('start', 0):4.2f} s")
    return result


if __name__ == "__main__":
    outcome = run()
    sys.exit(0 if outcome["ratio"] <= 1.3 and outcome["slowest_checks"] <= 20 else 1)
