"""Due dates are instants (issue 32): every way the course takes a due date stores the instant it names, in UTC,
and refuses a date it cannot read before anything is stored. The self-check service's deadline and the final
grading's late penalty read that same instant.

nbgrader's own reader takes ``+0100`` for an offset of 100 seconds and drops ``+01:00``; the course's
``nbgrader_config.py`` puts the course's reader (`coursetools.course.dates`) in front of ``nbgrader db assignment
add --duedate``, and ``coursetools due-date`` goes through the same reader.
"""

from __future__ import annotations

import datetime
import subprocess
import sys
from pathlib import Path

import pytest
from nbgrader.api import Gradebook, MissingEntry

from coursetools import tool_env
from coursetools.course.dates import DateError, parse_instant
from coursetools.grading.gradebook import due_date, set_due_date
from coursetools.quality.toycourse import LAB, make_toy_course, remove_course

COURSE = "adversarial-search"
FOUR_PM_UTC = datetime.datetime(2026, 12, 4, 16, 0, tzinfo=datetime.timezone.utc)
SPELLINGS = ["2026-12-04 17:00:00 +0100", "2026-12-04 17:00:00+0100", "2026-12-04 17:00:00 +01:00",
             "2026-12-04 17:00:00+01:00", "2026-12-04 17:00 Europe/Paris", "2026-12-04T17:00+01",
             "2026-12-04 11:00:00 -0500", "2026-12-04 11:00 America/New_York", "2026-12-04 16:00:00 UTC",
             "2026-12-04T16:00:00Z"]
REFUSED = {"2026-12-04 17:00:00": "no zone", "2026-12-04 17:00 CEST": "unknown zone", "next friday": "cannot read",
           "2026-12-04 17:00 +2500": "not a UTC offset", "2026-03-29 02:30 Europe/Paris": "does not exist",
           "2026-10-25 02:30 Europe/Paris": "happens twice"}


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    folder = make_toy_course(tmp_path_factory.mktemp("due") / "course")
    yield folder
    remove_course(folder)


def stored(course: Path) -> datetime.datetime | None:
    """The due date as nbgrader's gradebook holds it (naive, UTC), None when the lab has none."""
    with Gradebook("sqlite:///" + str(course / "gradebook.db"), COURSE) as gb:
        try:
            return gb.find_assignment(LAB).duedate
        except MissingEntry:
            return None


def clear(course: Path) -> None:
    with Gradebook("sqlite:///" + str(course / "gradebook.db"), COURSE) as gb:
        gb.update_or_create_assignment(LAB, duedate=None)


def nbgrader_db_add(course: Path, when: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "nbgrader", "db", "assignment", "add", LAB, f"--duedate={when}"],
                          cwd=course, capture_output=True, text=True, timeout=120, env=tool_env())


@pytest.mark.parametrize("when", SPELLINGS)
def test_every_spelling_of_an_instant_is_read_as_that_instant(when):
    assert parse_instant(when) == FOUR_PM_UTC


@pytest.mark.parametrize("when,why", REFUSED.items())
def test_a_date_that_is_not_one_instant_is_refused_with_the_reason(when, why):
    with pytest.raises(DateError, match=why):
        parse_instant(when)


@pytest.mark.parametrize("when", SPELLINGS)
def test_coursetools_stores_the_instant_and_the_service_reads_it(course, when):
    clear(course)
    assert set_due_date(course, LAB, when) == FOUR_PM_UTC
    assert stored(course) == FOUR_PM_UTC.replace(tzinfo=None)
    assert due_date(course, LAB) == FOUR_PM_UTC


@pytest.mark.parametrize("when", ["2026-12-04 17:00:00 +0100", "2026-12-04 17:00:00+01:00",
                                  "2026-12-04 17:00 Europe/Paris"])
def test_nbgrader_db_assignment_add_stores_the_instant(course, when):
    """nbgrader's own command, run as the guide once said to: the course's config reads its date."""
    clear(course)
    proc = nbgrader_db_add(course, when)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert stored(course) == FOUR_PM_UTC.replace(tzinfo=None)


def test_nbgrader_db_assignment_add_refuses_a_date_without_zone_and_stores_nothing(course):
    set_due_date(course, LAB, "2026-12-11 17:00 UTC")
    proc = nbgrader_db_add(course, "2026-12-04 17:00")
    assert proc.returncode != 0
    assert "no zone" in proc.stdout + proc.stderr
    assert stored(course) == datetime.datetime(2026, 12, 11, 17, 0)


def test_coursetools_due_date_sets_shows_and_refuses(course):
    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "coursetools", "due-date", LAB, *args], cwd=course,
                              capture_output=True, text=True, timeout=120, env=tool_env())

    proc = cli("2026-12-04 17:00 Europe/Paris")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "2026-12-04 16:00:00 UTC" in proc.stdout
    proc = cli("2026-12-04 17:00")
    assert proc.returncode != 0 and "no zone" in proc.stderr
    assert stored(course) == FOUR_PM_UTC.replace(tzinfo=None)
    proc = cli()
    assert proc.returncode == 0 and "2026-12-04 16:00:00 UTC" in proc.stdout


@pytest.mark.slow
def test_the_late_penalty_and_the_service_read_the_instant_of_an_offset_date(tmp_path):
    """Due 17:00 at +0100 is 16:00 UTC: a submission at 16:30 UTC is late and loses its points (nbgrader's own
    reader would have put the deadline at 16:58:20, and this one on time); the self-check service closes at the
    same instant."""
    from coursetools.grading.autograde import grade
    from coursetools.quality.toycourse import PERFECT, toy_submission
    from coursetools.service.records import Closed, Policy, practice_after_deadline

    course = make_toy_course(tmp_path / "course")
    with open(course / "nbgrader_config.py", "a") as f:
        f.write('\nc.LateSubmissionPlugin.penalty_method = "zero"\n')
    try:
        set_due_date(course, LAB, "2026-12-04 17:00:00 +0100")
        toy_submission(course, "prompt", PERFECT, timestamp="2026-12-04 15:59:00.000000 UTC")
        toy_submission(course, "late", PERFECT, timestamp="2026-12-04 16:30:00.000000 UTC")
        report = grade(course, LAB, jobs=2, progress=None)
        assert not report.not_graded(), report.summary()
        with Gradebook("sqlite:///" + str(course / "gradebook.db"), COURSE) as gb:
            subs = {s.student_id: (s.score, s.late_submission_penalty) for s in gb.assignment_submissions(LAB)}
        assert subs == {"prompt": (5.0, 0.0), "late": (5.0, 5.0)}
        policy = Policy("closed")
        assert practice_after_deadline(course, LAB, policy, now=FOUR_PM_UTC) is False
        with pytest.raises(Closed, match="2026-12-04 16:00 UTC"):
            practice_after_deadline(course, LAB, policy, now=FOUR_PM_UTC + datetime.timedelta(minutes=30))
    finally:
        remove_course(course)
