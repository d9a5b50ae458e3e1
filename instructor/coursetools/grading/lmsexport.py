"""A lab's grades per test cell, one row per student: the CSV an LMS gradebook imports column by column."""

from __future__ import annotations

import csv
from pathlib import Path

from coursetools.grading.pending import is_pending


def write_cells_csv(db_url: str, course: str, lab: str, out: Path) -> tuple[Path, int]:
    """Write ``student_id, <notebook>/<grade id> (points)..., total, max_score``; returns the file and pending answers.

    A written answer nobody has graded by hand yet is left empty (it is not a 0).
    """
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(db_url, course) as gb:
        try:
            assignment = gb.find_assignment(lab)
        except MissingEntry:
            raise ValueError(f"{lab} is not in the gradebook: grade it first (coursetools grade {lab})") from None
        columns = [(nb.name, cell.name, cell.max_score) for nb in assignment.notebooks for cell in nb.grade_cells]
        header = ["student_id"] + [f"{nb}/{cell} ({points:g})" for nb, cell, points in columns] + ["total", "max_score"]
        rows, pending = [], 0
        for sub in sorted(gb.assignment_submissions(lab), key=lambda s: s.student.id):
            row: list[str] = [sub.student.id]
            for nb, cell, _ in columns:
                g = gb.find_grade(cell, nb, lab, sub.student.id)
                if is_pending(g):
                    pending += 1
                    row.append("")
                else:
                    row.append(f"{g.score:g}")
            rows.append(row + [f"{sub.score:g}", f"{sub.max_score:g}"])
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(header)
        writer.writerows(rows)
    return out, pending
