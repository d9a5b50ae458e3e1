"""Grades into Canvas and Moodle (real nbgrader, real grading of a toy class, conftest's `lms_class`): the import
files match golden files written from each LMS's documented import format (docs/grading.md names the sources).
dan is graded but not in the LMS's rosters; eve is in them with no submission.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from incourse import run_coursetools

from coursetools import tool_env
from coursetools.quality.toycourse import LAB

HERE = Path(__file__).parent / "lms"


@pytest.fixture(scope="module")
def course(lms_class):
    return lms_class


def _coursetools(course: Path, *argv: str) -> subprocess.CompletedProcess:
    return run_coursetools(course, *argv)


def _same_as_golden(made: Path, golden: str) -> None:
    assert made.read_bytes() == (HERE / golden).read_bytes(), made.read_text()
    assert stat.S_IMODE(made.stat().st_mode) == 0o600, oct(made.stat().st_mode)


def test_lms_canvas_file_leaves_pending_students_out_and_applies_the_late_penalty(course):
    proc = _coursetools(course, "export", LAB, "--to", "canvas", "--roster", str(HERE / "canvas-roster.csv"))
    assert proc.returncode == 0, proc.stderr
    _same_as_golden(course / "exports" / f"{LAB}-canvas.csv", "canvas-golden.csv")
    out = proc.stdout
    assert "pending (a written answer not graded yet; left out, never 0): bob" in out, out
    assert "late penalty applied as the gradebook has it: cyd" in out, out
    assert "in the roster, no graded submission (left out): eve" in out, out
    assert "graded but not in the roster (left out): dan" in out, out
    assert "line 7: no SIS Login ID; left out" in out, out


def test_lms_canvas_totals_without_the_hand_graded_answers(course):
    proc = _coursetools(course, "export", LAB, "--to", "canvas", "--roster", str(HERE / "canvas-roster.csv"),
                        "--autograded-only")
    assert proc.returncode == 0, proc.stderr
    _same_as_golden(course / "exports" / f"{LAB}-canvas.csv", "canvas-autograded-golden.csv")
    assert "pending" not in proc.stdout, proc.stdout


def test_lms_moodle_file_keeps_feedback_beside_its_grade_and_pending_blank(course):
    proc = _coursetools(course, "export", LAB, "--to", "moodle", "--roster", str(HERE / "moodle-roster.csv"),
                        "--pending", "blank", "--feedback")
    assert proc.returncode == 0, proc.stderr
    _same_as_golden(course / "exports" / f"{LAB}-moodle.csv", "moodle-golden.csv")
    assert "pending (a written answer not graded yet; left blank, never 0): bob" in proc.stdout, proc.stdout


def test_lms_nbgrader_export_with_the_plugins_writes_the_same_files(course, tmp_path):
    for lms, plugin, extra, golden in (
            ("canvas", "CanvasExportPlugin", [], "canvas-golden.csv"),
            ("moodle", "MoodleExportPlugin", ["--MoodleExportPlugin.pending=blank", "--MoodleExportPlugin.feedback=True"],
             "moodle-golden.csv")):
        out = tmp_path / f"{lms}.csv"
        proc = subprocess.run(
            [sys.executable, "-m", "nbgrader", "export", f"--exporter=coursetools.grading.lmsexport.{plugin}",
             f"--assignment={LAB}", f"--to={out}", f"--{plugin}.roster={HERE / f'{lms}-roster.csv'}", *extra],
            cwd=course, env=tool_env(), capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        _same_as_golden(out, golden)


def test_lms_a_roster_without_the_id_column_or_a_canvas_id_is_refused_by_name(course, tmp_path):
    bad = tmp_path / "participants.csv"
    bad.write_text("First name,Last name,Email address\nAda,Lovelace,ada@example.edu\n")
    proc = _coursetools(course, "export", LAB, "--to", "moodle", "--roster", str(bad))
    assert proc.returncode == 2 and "has no column 'ID number'" in proc.stderr and "--id-column" in proc.stderr
    proc = _coursetools(course, "export", LAB, "--to", "moodle", "--roster", str(bad), "--id-column", "Email address")
    assert proc.returncode == 0, proc.stderr  # nobody's id is an e-mail here: every graded student is named
    assert "graded but not in the roster (left out): ada, bob, cyd, dan" in proc.stdout, proc.stdout
    no_id = tmp_path / "canvas.csv"
    no_id.write_text((HERE / "canvas-roster.csv").read_text().replace("toy (4242)", "other (1)"))
    proc = _coursetools(course, "export", LAB, "--to", "canvas", "--roster", str(no_id))
    assert proc.returncode == 2 and "no column 'toy (<id>)'" in proc.stderr and "--assignment-id" in proc.stderr
    assert not os.path.exists(course / "exports" / "missing")
