"""A graded toy class for the LMS tests (real nbgrader, real grading): ada (every test, written answer graded 2),
bob (mul wrong, written answer not graded yet), cyd (every test but late, nbgrader's "zero" penalty, written answer
graded 1) and dan (every test, written answer graded 2). Scores: ada 7, bob pending, cyd 1, dan 7 of 7."""

from __future__ import annotations

import pytest
from nbgrader.api import Gradebook

from coursetools.grading.autograde import grade
from coursetools.quality.toycourse import LAB, PERFECT, make_toy_course, remove_course, toy_submission

WHY = "# %% why_add\nBecause a + b and b + a are the same sum.\n"
WRONG_MUL = PERFECT.replace("return a * b", "return a + b")


@pytest.fixture(scope="session")
def lms_class(tmp_path_factory):
    folder = make_toy_course(tmp_path_factory.mktemp("lms") / "course", written=True,
                             config_extra='c.LateSubmissionPlugin.penalty_method = "zero"\n')
    try:
        with Gradebook("sqlite:///" + str(folder / "gradebook.db"), "adversarial-search") as gb:
            gb.update_or_create_assignment(LAB, duedate="2026-03-05 17:00:00 UTC")
        for student, answers, day in (("ada", PERFECT, 3), ("bob", WRONG_MUL, 4), ("cyd", PERFECT, 7),
                                      ("dan", PERFECT, 2)):
            toy_submission(folder, student, answers + WHY, timestamp=f"2026-03-0{day} 12:00:00.000000 UTC")
        report = grade(folder, LAB, jobs=2, progress=None)
        assert not report.not_graded(), report.summary()
        with Gradebook("sqlite:///" + str(folder / "gradebook.db"), "adversarial-search") as gb:
            for student, points in (("ada", 2.0), ("cyd", 1.0), ("dan", 2.0)):  # formgrader's writes
                gb.find_grade("why_add", LAB, LAB, student).manual_score = points
            gb.db.commit()
        yield folder
    finally:
        remove_course(folder)

