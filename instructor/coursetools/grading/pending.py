"""Written answers wait for the teacher: what feedback and the grade command say before hand-grading.

nbgrader keeps a hand-graded cell's ``manual_score`` at None until an instructor grades it in
formgrader, and its ``score`` then reads 0. `PendingGetGrades` marks such a cell ``pending`` for the
feedback page (which says "waiting for your teacher's grade" instead of "failed"), and
`pending_answers` counts them for ``coursetools grade``'s next steps.
"""

from __future__ import annotations

from nbgrader.preprocessors import GetGrades


def is_pending(grade) -> bool:
    """True for a grade nobody has given yet: no autograde score and no manual one."""
    return grade.auto_score is None and grade.manual_score is None


class PendingGetGrades(GetGrades):
    """nbgrader's GetGrades, plus ``pending`` on each cell still to be graded by hand and the pending points."""

    def preprocess(self, nb, resources):
        resources.setdefault("nbgrader", {}).update(pending_points=0.0, pending_cells=0)
        return super().preprocess(nb, resources)

    def _get_score(self, cell, resources) -> None:
        super()._get_score(cell, resources)
        grade = self.gradebook.find_grade(cell.metadata["nbgrader"]["grade_id"], self.notebook_id,
                                          self.assignment_id, self.student_id)
        cell.metadata.nbgrader["pending"] = is_pending(grade)
        if cell.metadata.nbgrader["pending"]:
            resources["nbgrader"]["pending_points"] += grade.max_score or 0.0
            resources["nbgrader"]["pending_cells"] += 1


def pending_answers(db_url: str, course: str, lab: str) -> dict[str, int]:
    """``{student: number of answers of `lab` still to be graded by hand}``, for students with any."""
    from nbgrader.api import Gradebook, MissingEntry

    out: dict[str, int] = {}
    with Gradebook(db_url, course) as gb:
        try:
            submissions = gb.assignment_submissions(lab)
        except MissingEntry:
            return out
        for sub in submissions:
            n = sum(is_pending(g) for nb in sub.notebooks for g in nb.grades)
            if n:
                out[sub.student.id] = n
    return out
