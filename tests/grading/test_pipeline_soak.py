"""Parallel grading, again and again: never hangs, same scores every run.

`make test` runs a light version on the toy lab (16 submissions, --jobs 4, 2 runs);
`make soak` the full one on a real lab (SOAK_SUBMISSIONS=64 SOAK_RUNS=10 SOAK_LAB=03_alphabeta).
A real lab's class is its solution and every entry of its bug bank, in turn, so the class
has a spread of scores, and each run must agree with the bank's ``expected.csv``.
"""

from __future__ import annotations

import os
import time

import nbformat
import pytest

from coursetools import course_root
from coursetools.quality.bank import read_expected
from coursetools.grading.autograde import grade
from coursetools.quality.toycourse import (LAB, PERFECT, make_lab_course, make_toy_course, remove_course,
                                           solution_submission,
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
        for student, entry in class_entries().items():
            solution_submission(course, SOAK_LAB, student, bank_entry=None if entry == "solution" else entry)
    yield course
    remove_course(course)


def class_entries() -> dict[str, str]:
    """Student -> what they hand in: the solution and the bank's entries, cycled."""
    entries = ["solution", *sorted(p.stem for p in (course_root() / "bank" / SOAK_LAB).glob("*.py"))]
    return {f"s{i:03d}": entries[i % len(entries)] for i in range(N)}


def hand_graded_points() -> float:
    """The points of the lab's written questions: autograding leaves them at 0 for an instructor."""
    nb = nbformat.read(course_root() / "source" / SOAK_LAB / f"{SOAK_LAB}.ipynb", as_version=4)
    return sum(c.metadata["nbgrader"].get("points", 0) for c in nb.cells
               if c.cell_type == "markdown" and c.metadata.get("nbgrader", {}).get("grade"))


def check_against_bank(report) -> None:
    """A bank entry with failing tests loses points; the solution and correct alternatives do not."""
    expected = read_expected(course_root() / "bank" / SOAK_LAB / "expected.csv")
    by_hand = hand_graded_points()
    for student, entry in class_entries().items():
        result = report.results[student]
        full = result.score == result.max_score - by_hand
        should_fail = bool(expected[entry].failing) if entry in expected else False
        assert full != should_fail, (f"{student} handed in {entry}: scored {result.score}/{result.max_score}, "
                                     f"expected {'to lose points' if should_fail else 'full marks'}")


@pytest.mark.long
def test_pipeline_soak_parallel_grading_is_repeatable(soak_course):
    seen = []
    for run in range(RUNS):
        t0 = time.monotonic()
        report = grade(soak_course, SOAK_LAB, jobs=JOBS, force=True, progress=None, submission_timeout=300)
        assert not report.not_graded(), f"run {run + 1}: {report.summary()}"
        assert len(report.results) == N
        seen.append(report.scores())
        print(f"soak run {run + 1}/{RUNS}: {N} submissions, --jobs {JOBS}, {time.monotonic() - t0:.1f} s")
        if SOAK_LAB != LAB:
            check_against_bank(report)
    changed = [(run + 1, s) for run, s in enumerate(seen) if s != seen[0]]
    assert not changed, f"scores changed between runs: run 1 {seen[0]} but run {changed[0][0]} {changed[0][1]}"
    if SOAK_LAB == LAB:
        assert sorted(set(seen[0].values())) == [3.0, 5.0]
    else:
        print(f"soak: {len(set(seen[0].values()))} distinct scores, identical in all {RUNS} runs: "
              + " ".join(f"{score:g}" for score in seen[0].values()))
