"""Collecting from Canvas's and Moodle's own downloads (real nbgrader zip_collect, real grading, real export).

The archives are built here exactly as each LMS names its members (docs/grading.md, "Collecting from the LMS's
download"): a resubmission, a late upload, a student not in the roster, a name two roster rows share, a foreign file,
a link and a path leaving its folder. Each class is then graded and exported back to its LMS's import file.
"""

from __future__ import annotations

import csv
import stat
import zipfile
from pathlib import Path

import pytest
from incourse import run_coursetools
from nbgrader.api import Gradebook

from coursetools.grading.autograde import grade
from coursetools.grading.exchange import collect_zip
from coursetools.grading.lmsarchive import scan_archive
from coursetools.quality.toycourse import LAB, PERFECT, make_toy_course, remove_course, toy_submission

WRONG_MUL = PERFECT.replace("return a * b", "return a + b")
CANVAS_ROSTER = """Student,ID,SIS User ID,SIS Login ID,Section,toy (4242)
    Points Possible,,,,,5
"Lovelace, Ada",1101,S-1,ada,Sec 1,
"Hopper, Grace",1102,S-2,grace,Sec 1,
"Turing, Alan",1103,S-3,alan,Sec 1,
"""
MOODLE_ROSTER = """First name,Last name,ID number,Email address
Ada,Lovelace,ada,ada@example.edu
Grace,Hopper,grace,grace@example.edu
Alan,Turing,alan,alan@example.edu
Sam,Lee,sam1,sam1@example.edu
Sam,Lee,sam2,sam2@example.edu
"""


def _zip(path: Path, members: dict[str, bytes | str]) -> Path:
    with zipfile.ZipFile(path, "w") as z:
        for name, data in members.items():
            if isinstance(data, str) and data.startswith("LINK:"):
                info = zipfile.ZipInfo(name)
                info.external_attr = (stat.S_IFLNK | 0o777) << 16
                z.writestr(info, data[5:])
            else:
                z.writestr(name, data)
    return path


def _scores(course: Path) -> dict[str, float]:
    with Gradebook("sqlite:///" + str(course / "gradebook.db"), "adversarial-search") as gb:
        return {s.student_id: s.score for s in gb.assignment_submissions(LAB)}


@pytest.fixture(scope="module")
def answers(tmp_path_factory):
    """Notebooks as students hand them in (the released toy lab, answered)."""
    course = make_toy_course(tmp_path_factory.mktemp("answers") / "maker")
    try:
        return {"perfect": toy_submission(course, "a", PERFECT).read_bytes(),
                "wrong": toy_submission(course, "b", WRONG_MUL).read_bytes()}
    finally:
        remove_course(course)


@pytest.mark.long  # two real nbgrader runs and a graded class: about 45 s
def test_lms_archive_canvas_download_collected_graded_and_exported(tmp_path, answers):
    course = make_toy_course(tmp_path / "course")
    try:
        (course / "canvas-gradebook.csv").write_text(CANVAS_ROSTER)
        archive = _zip(tmp_path / "submissions.zip", {
            "lovelaceada_1101_9001_toy.ipynb": answers["wrong"],  # her first submission...
            "lovelaceada_1101_9107_toy-1.ipynb": answers["perfect"],  # ...and the one she handed in again
            "hoppergrace_LATE_1102_9050_toy.ipynb": answers["perfect"],
            "turingalan_1103_9060_toy.ipynb": answers["wrong"],
            "strangerzed_1199_9070_toy.ipynb": answers["perfect"],  # not in the roster
            "lovelaceada_1101_9107_notes.txt": "my notes",  # not a notebook of the lab
            "README.txt": "foreign",
            "hoppergrace_1102_9051_toy.ipynb": "LINK:../../source/toy/toy.ipynb",
            "../turingalan_1103_9061_toy.ipynb": answers["perfect"],
            "evil\x1b[2J_1104_9080_toy.ipynb": answers["perfect"],
        })
        run = run_coursetools(course, "zip-collect", LAB, str(archive), "--roster", "canvas-gradebook.csv")
        out = run.stdout
        assert run.returncode == 1, out + run.stderr  # problems were reported
        assert f"{LAB}: 3 student(s) collected into submitted/ from Canvas's download" in out, out
        assert ("ada: 2 uploads of toy.ipynb; kept the newest (lovelaceada_1101_9107_toy-1.ipynb), set aside "
                "lovelaceada_1101_9001_toy.ipynb") in out, out
        assert "NOTE grace: hoppergrace_LATE_1102_9050_toy.ipynb is marked LATE by Canvas" in out, out
        assert "strangerzed_1199_9070_toy.ipynb: user id 1199 is not in the roster; not collected" in out, out
        assert "lovelaceada_1101_9107_notes.txt: notes.txt is not a notebook of this lab (toy.ipynb)" in out, out
        assert "README.txt: a name that is neither nbgrader's, Canvas's nor Moodle's; not collected" in out, out
        assert "hoppergrace_1102_9051_toy.ipynb: a symlink in the zip; not collected" in out, out
        assert "../turingalan_1103_9061_toy.ipynb: its path leaves its folder; not collected" in out, out
        assert "evil\\x1b[2J_1104_9080_toy.ipynb: user id 1104 is not in the roster" in out, out
        assert "\x1b" not in out
        assert sorted(p.name for p in (course / "submitted").iterdir()) == ["ada", "alan", "grace"]
        assert not [p for p in tmp_path.rglob("*") if p.is_symlink()]
        report = grade(course, LAB, jobs=2, progress=None)
        assert not report.not_graded(), report.summary()
        scores = _scores(course)
        assert scores["ada"] == scores["grace"] == 5 and scores["alan"] < 5, scores
        export = run_coursetools(course, "export", LAB, "--to", "canvas", "--roster", "canvas-gradebook.csv")
        assert export.returncode == 0, export.stdout + export.stderr
        rows = list(csv.reader((course / "exports" / f"{LAB}-canvas.csv").open()))
        assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "toy (4242)"]
        assert {r[3]: r[5] for r in rows[2:]} == {"ada": "5", "grace": "5", "alan": f"{scores['alan']:g}"}
    finally:
        remove_course(course)


@pytest.mark.long  # two real nbgrader runs and a graded class: about 45 s
def test_lms_archive_moodle_download_collected_graded_and_exported(tmp_path, answers):
    course = make_toy_course(tmp_path / "course")
    try:
        (course / "participants.csv").write_text(MOODLE_ROSTER)
        archive = _zip(tmp_path / "moodle.zip", {
            "Ada Lovelace_501_assignsubmission_file_/toy.ipynb": answers["perfect"],
            "Ada Lovelace_501_assignsubmission_onlinetext_/onlinetext.html": "<p>hi</p>",
            "Grace Hopper_502_assignsubmission_file_/toy.ipynb": answers["wrong"],
            "Alan Turing_505_assignsubmission_file_toy.ipynb": answers["perfect"],  # folders off: flat
            "Sam Lee_503_assignsubmission_file_/toy.ipynb": answers["perfect"],  # two roster rows are Sam Lee
            "Zed Stranger_504_assignsubmission_file_/toy.ipynb": answers["perfect"],
            "Grace Hopper_502_assignsubmission_file_/../../x_attempt_20260301T140500_toy.ipynb": answers["perfect"],
        })
        result = collect_zip(course, LAB, archive, roster=course / "participants.csv")
        summary = result.summary()
        assert sorted(result.collected) == ["ada", "alan", "grace"], summary
        assert "from Moodle's download" in summary
        assert ("Sam Lee_503_assignsubmission_file_/toy.ipynb: full name 'Sam Lee' is on 2 rows of the roster "
                "(sam1, sam2), which is not guessed; not collected") in summary, summary
        assert "Zed Stranger_504_assignsubmission_file_/toy.ipynb: full name 'Zed Stranger' is not in the roster" \
            in summary, summary
        assert "onlinetext.html: Moodle's online text or feedback, not a file submission" in summary, summary
        assert "its path leaves its folder" in summary, summary
        report = grade(course, LAB, jobs=2, progress=None)
        assert not report.not_graded(), report.summary()
        scores = _scores(course)
        assert scores["ada"] == scores["alan"] == 5 and scores["grace"] < 5, scores
        again = collect_zip(course, LAB, archive, roster=course / "participants.csv")  # nothing overwritten
        assert not again.collected and "already there (nothing is replaced without --force)" in again.summary()
        export = run_coursetools(course, "export", LAB, "--to", "moodle", "--roster", "participants.csv")
        assert export.returncode == 0, export.stdout + export.stderr
        rows = list(csv.DictReader((course / "exports" / f"{LAB}-moodle.csv").open()))
        assert {r["ID number"]: r[LAB] for r in rows} == {"ada": "5", "grace": f"{scores['grace']:g}", "alan": "5"}
    finally:
        remove_course(course)


def test_lms_archive_rosters_columns_and_refusals(tmp_path):
    """Moodle's grading worksheet maps by participant id; --id-column picks another roster column; an LMS download
    without a roster, or mixing two LMSes, is refused with the fix."""
    nb = ["toy.ipynb"]
    worksheet = tmp_path / "worksheet.csv"
    worksheet.write_text("Identifier,Full name,Email address,ID number,Status\n"
                         "Participant 501,Ada Lovelace,ada@example.edu,ada,Submitted\n"
                         "Participant 502,Ada Lovelace,ada2@example.edu,ada2,Submitted\n")
    moodle = _zip(tmp_path / "m.zip", {"Ada Lovelace_502_assignsubmission_file_/toy.ipynb": "{}"})
    scan = scan_archive(moodle, nb, worksheet)
    assert list(scan.kept) == [("ada2", "toy.ipynb")] and not scan.problems
    canvas_roster = tmp_path / "gradebook.csv"
    canvas_roster.write_text(CANVAS_ROSTER)
    canvas = _zip(tmp_path / "c.zip", {"lovelaceada_1101_9001_toy.ipynb": "{}", "lovelaceada_1101_9001_toy-2.ipynb":
                                       "{}"})
    scan = scan_archive(canvas, nb, canvas_roster, "SIS User ID")
    assert list(scan.kept) == [("S-1", "toy.ipynb")]
    assert scan.kept[("S-1", "toy.ipynb")].member == "lovelaceada_1101_9001_toy-2.ipynb"
    with pytest.raises(ValueError, match="Canvas's download: give the roster Canvas exports with --roster"):
        scan_archive(canvas, nb)
    both = _zip(tmp_path / "both.zip", {"lovelaceada_1101_9001_toy.ipynb": "{}",
                                        "Ada Lovelace_501_assignsubmission_file_/toy.ipynb": "{}"})
    with pytest.raises(ValueError, match="mixes Canvas's and Moodle's"):
        scan_archive(both, nb, canvas_roster)
    same = _zip(tmp_path / "same.zip", {"lovelaceada_1101_9001_toy.ipynb": "{}", "LovelaceAda_1101_9001_toy.ipynb":
                                        "{}"})
    scan = scan_archive(same, nb, canvas_roster)
    assert not scan.kept and "no way to tell the newest" in scan.problems[0]
