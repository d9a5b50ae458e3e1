"""How submissions arrive, end to end through the real nbgrader: the exchange and an LMS zip."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from nbgrader.utils import get_username

from coursetools import tool_env
from coursetools.grading.exchange import collect_zip
from coursetools.grading.autograde import grade
from coursetools.quality.submission import build_submission, parse_answers
from coursetools.quality.toycourse import LAB, PERFECT, make_toy_course, remove_course

BUGGY = "# %% add_solution\ndef add(a, b):\n    return a + b\n# %% mul_solution\ndef mul(a, b):\n    return a + b\n"


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    folder = make_toy_course(tmp_path_factory.mktemp("arrival") / "course")
    yield folder
    remove_course(folder)


def nbgrader(cwd: Path, *args: str) -> str:
    env = tool_env()
    proc = subprocess.run([sys.executable, "-m", "nbgrader", *args, "--log-level=INFO"], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"nbgrader {' '.join(args)} failed:\n{proc.stdout}{proc.stderr}"
    return proc.stdout + proc.stderr


def test_pipeline_exchange_release_fetch_submit_collect_grade(course, tmp_path):
    exchange = tmp_path / "exchange"
    exchange.mkdir()
    os.chmod(exchange, 0o777)
    common = [f"--Exchange.root={exchange}", "--CourseDirectory.course_id=adversarial-search"]
    nbgrader(course, "release_assignment", LAB, *common)
    student = get_username()  # the exchange knows students by their account on the server
    home = tmp_path / "student-home"
    home.mkdir()
    nbgrader(home, "fetch_assignment", LAB, "--course=adversarial-search", f"--Exchange.root={exchange}")
    fetched = home / LAB / f"{LAB}.ipynb"
    assert fetched.is_file()
    build_submission(fetched, parse_answers(PERFECT), fetched)  # the student works in the fetched copy
    nbgrader(home, "submit", LAB, "--course=adversarial-search", f"--Exchange.root={exchange}")
    nbgrader(course, "collect", LAB, *common)
    submitted = course / "submitted" / student / LAB
    assert (submitted / f"{LAB}.ipynb").is_file() and (submitted / "timestamp.txt").is_file()
    report = grade(course, LAB, jobs=1, progress=None, students=[student])
    assert report.results[student].status == "graded" and report.results[student].score == 5.0


def test_pipeline_lms_zip_is_collected_and_bad_names_reported(course, tmp_path):
    notebooks = {}
    for student, answers in (("kim", PERFECT), ("lee", BUGGY)):
        release = course / "release" / LAB / f"{LAB}.ipynb"
        out = build_submission(release, parse_answers(answers), tmp_path / f"{student}.ipynb")
        notebooks[student] = out.read_bytes()
    archive = tmp_path / "lms.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr(f"kim_attempt_20260301T100000_{LAB}.ipynb", notebooks["lee"])   # an early, buggy upload
        z.writestr(f"kim_attempt_20260302T093000_{LAB}.ipynb", notebooks["kim"])   # the one that counts
        z.writestr(f"lee_attempt_20260301T110000_{LAB}.ipynb", notebooks["lee"])
        z.writestr(f"Copy of {LAB}.ipynb", notebooks["kim"])                            # no student id
        z.writestr("max_attempt_20260301T110000_notes.ipynb", notebooks["kim"])    # not this lab's notebook
    result = collect_zip(course, LAB, archive)
    assert result.collected == {"kim": [f"{LAB}.ipynb"], "lee": [f"{LAB}.ipynb"]}
    text = result.summary()
    assert f"Copy of {LAB}.ipynb" in text and "notes.ipynb" in text
    assert "kim: 2 uploads" in text and "20260301T100000" in text
    report = grade(course, LAB, jobs=1, progress=None, students=["kim", "lee"])
    assert report.results["kim"].score == 5.0, "the newest upload is graded"
    assert report.results["lee"].score == 3.0
    assert (course / "submitted" / "kim" / LAB / "timestamp.txt").read_text().startswith("2026-03-02 09:30")
