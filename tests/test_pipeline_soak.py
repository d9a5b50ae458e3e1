"""Parallel grading, again and again: never hangs, same scores every run.

`make test` runs a light version (16 submissions, --jobs 4, 2 runs); `make soak` the full
one (SOAK_SUBMISSIONS=64 SOAK_RUNS=10, and SOAK_LAB=03_alphabeta for the real lab).
"""

from __future__ import annotations

import os
import time

import pytest

from coursetools import course_root
from coursetools.grading import grade
from coursetools.toycourse import (LAB, PERFECT, make_lab_course, make_toy_course, remove_course, solution_submission,
                                   toy_submission)

N = int(os.environ.get("SOAK_SUBMISSIONS", "16"))
RUNS = int(os.environ.get("SOAK_RUNS", "2"))
JOBS = int(os.environ.get("SOAK_JOBS", "4"))
SOAK_LAB = os.environ.get("SOAK_LAB", LAB)
BUGGY = "# %% add_solution\ndef add(a, b):\n    return a + b\n# %% mul_solution\ndef mul(a, b):\n    return a + b\n"


@pytest.fixture(scope="module")
def soak_course(tmp_path_factory):
    folder = tmp_path_factory.mktemp("soak") / "course"
    if SOAK_LAB == LAB:
        course = make_toy_course(folder)
        for i in range(N):
            toy_submission(course, f"s{i:03d}", PERFECT if i % 3 else BUGGY)
    else:
        if not (course_root() / "source" / SOAK_LAB).is_dir():
            pytest.skip(f"no {SOAK_LAB} in source/")
        course = make_lab_course(folder, SOAK_LAB)
        for i in range(N):
            solution_submission(course, SOAK_LAB, f"s{i:03d}")
    yield course
    remove_course(course)


def test_pipeline_soak_parallel_grading_is_repeatable(soak_course):
    seen = []
    for run in range(RUNS):
        t0 = time.monotonic()
        report = grade(soak_course, SOAK_LAB, jobs=JOBS, force=True, progress=None, submission_timeout=300)
        assert not report.not_graded(), f"run {run + 1}: {report.summary()}"
        assert len(report.results) == N
        seen.append(report.scores())
        print(f"soak run {run + 1}/{RUNS}: {N} submissions, --jobs {JOBS}, {time.monotonic() - t0:.1f} s")
    assert all(s == seen[0] for s in seen), "scores changed between runs"
    if SOAK_LAB == LAB:
        assert sorted(set(seen[0].values())) == [3.0, 5.0]
