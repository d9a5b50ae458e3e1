"""`python -m coursetools report LAB`: the class misconception map of a class graded by the real pipeline.

A small class of lab 06 goes through nbgrader in the sandbox (about a minute on two cores): two
students make the same known mistake, one another, one is correct, one raises an error whose
message spells a hint (it must diagnose nothing), and one hands in test cells carrying a forged
record of the grader's (it must be replaced by the grader's own).
"""

from __future__ import annotations

import csv
import subprocess
import sys

import nbformat
import pytest

from coursetools import tool_env
from coursetools.checks.lab06 import reference as ref
from coursetools.grading.autograde import grade
from coursetools.grading.misconceptions import diagnose, hint_sections
from coursetools.grading.report import read_class, write_report
from coursetools.quality.toycourse import make_lab_course, remove_course, solution_submission

LAB = "06_beyond_two_players"
FORGED = {"verdict": "failed", "kind": "hidden test", "group": "maxn_trees", "mistakes": [{"key": "maxn_player0"}]}
CHANCE_MAX = next(m.hint for m in ref.EXPECTIMAX_MISTAKES if m.key == "chance_max")
SPOOF = f"def expectimax_value(game, state):\n    raise ValueError({'no idea' + chr(10) + 'Hint: ' + CHANCE_MAX!r})\n"


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    course = make_lab_course(tmp_path_factory.mktemp("report") / "course", LAB)
    solution_submission(course, LAB, "ada")
    for student, entry in [("ben", "chance_min"), ("cyd", "chance_min"), ("dan", "maxn_last_best")]:
        solution_submission(course, LAB, student, bank_entry=entry)
    spoof = solution_submission(course, LAB, "eve")
    nb = nbformat.read(spoof, as_version=4)
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == "expectimax_value":
            cell.source = SPOOF
    nbformat.write(nb, spoof)
    forged = solution_submission(course, LAB, "fay")
    nb = nbformat.read(forged, as_version=4)
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("grade", False):
            cell.metadata["coursetools"] = FORGED
    nbformat.write(nb, forged)
    report = grade(course, LAB, jobs=2, progress=None)
    assert not report.not_graded(), report.summary()
    proc = subprocess.run([sys.executable, "-m", "nbgrader", "generate_feedback", LAB, "--force", "--log-level=ERROR"],
                          cwd=course, env=tool_env(), capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    yield course
    remove_course(course)


def test_report_counts_failed_tests_and_diagnosed_mistakes(graded):
    cmap = read_class(graded, LAB)
    assert cmap.students == ["ada", "ben", "cyd", "dan", "eve", "fay"]
    failed = {r.name: r.students for r in cmap.tests}
    assert failed["test_expectimax_trees"] == {"ben", "cyd", "eve"}
    assert failed["test_expectimax_dice"] == {"ben", "cyd", "eve"}
    assert failed["test_maxn_turns"] == {"dan"}
    assert failed["test_maxn_trees"] == failed["test_maxn_shallow"] == set()
    mistakes = {r.name: (r.students, r.tests) for r in cmap.mistakes}
    assert mistakes == {
        "chance_min": ({"ben", "cyd"}, {"test_expectimax_trees", "test_expectimax_dice"}),
        "maxn_last_best": ({"dan"}, {"test_maxn_turns"}),
    }
    how = {r.name: dict(r.how) for r in cmap.tests}  # the visible asserts catch these first
    assert how["test_expectimax_trees"] == {"visible test": 3}


def test_report_records_are_the_graders_own(graded):
    """The forged records are gone; the spoofed hint is in eve's feedback but diagnoses nothing."""
    nb = nbformat.read(graded / "autograded" / "fay" / LAB / f"{LAB}.ipynb", as_version=4)
    records = [c.metadata.get("coursetools") for c in nb.cells  # the test cells (not answers graded by hand)
               if c.metadata.get("nbgrader", {}).get("grade") and not c.metadata["nbgrader"].get("solution")]
    # each record as the grader writes it: the verdict, and each hidden check's group and cases (the self-check's count)
    assert records and all({k: v for k, v in r.items() if k != "hidden"} ==
                           {"verdict": "passed", "kind": "passed", "group": r["group"], "mistakes": []}
                           and all(h["passed"] is True and type(h["cases"]) is int for h in r["hidden"])
                           for r in records), records
    nb = nbformat.read(graded / "autograded" / "eve" / LAB / f"{LAB}.ipynb", as_version=4)
    cell = next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "test_expectimax_trees")
    message = next(o.evalue for o in cell.outputs if o.get("ename") == "CheckFailed")
    assert f"Hint: {CHANCE_MAX}" in message  # the student's own text, shown to them...
    assert diagnose(LAB, message) != []  # ...which would name a mistake if it were the grader's
    assert cell.metadata["coursetools"]["mistakes"] == []  # but the grader knew it came from the kernel


def test_report_files_and_command_line(graded):
    proc = subprocess.run([sys.executable, "-m", "coursetools", "report", LAB], cwd=graded, env=tool_env(),
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    html_path = graded / "exports" / f"{LAB}-misconceptions.html"
    assert str(html_path) in proc.stdout
    page = html_path.read_text()
    for student in ("ben", "cyd", "dan"):
        link = f"../feedback/{student}/{LAB}/{LAB}.html"
        assert f'href="{link}"' in page and (graded / "exports" / link).resolve().is_file()
    assert "chance_min" in page and "MINIMUM at chance nodes" in page
    png = (graded / "exports" / f"{LAB}-misconceptions.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 10_000
    with open(graded / "exports" / f"{LAB}-misconceptions.csv", newline="") as f:
        rows = {(r["kind"], r["name"]): r for r in csv.DictReader(f)}
    assert rows[("mistake", "chance_min")]["who"] == "ben cyd"
    assert rows[("test", "test_maxn_turns")]["students"] == "1" and rows[("test", "test_maxn_turns")]["of"] == "6"
    assert write_report(graded, LAB)["png"].is_file()


def test_hint_sections_skip_student_text():
    message = "f() raised ValueError: x\nHint: " + CHANCE_MAX + " on a tree\n  in f, line 2"
    assert hint_sections(message) == [CHANCE_MAX + " on a tree\n  in f, line 2"]
    assert hint_sections(message, ["x\nHint: " + CHANCE_MAX]) == []
    assert hint_sections(message, None) == []
    real = "expected 2.0, yours 0\nHint: " + ref.EXPECTIMAX_MISTAKES[0].hint + "\nThe tree:\nP1"
    assert [d["key"] for d in diagnose(LAB, real, ["yours 0 but unrelated text"])] == ["chance_min"]
    assert diagnose(LAB, "x\nHint: your search first differs ...; this matches none of the known mistakes.") == [
        {"key": "no known mistake", "known": False}]
