"""A lab's grades as files an LMS gradebook imports: per test cell, Canvas's import CSV and Moodle's.

- `write_cells_csv`: one column per test cell and written answer, for a gradebook that takes each as a column.
- `write_lms_csv`: Canvas's gradebook import (its student columns, then ``<lab> (<assignment id>)``) or Moodle's
  grade import (the mapping column, the grade, and its feedback only beside it), one row per student of the
  roster the LMS exported. The formats and their sources are in docs/grading.md ("Grades into an LMS").
- `CanvasExportPlugin` and `MoodleExportPlugin`: the same files from ``nbgrader export --exporter=...``.

A written answer nobody has graded yet is never written as 0: the student is left out of the file (or left
blank, as the instructor chooses) and named as pending. Late penalties are those the gradebook recorded.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

from nbgrader.plugins import ExportPlugin
from traitlets import Bool, Enum, Unicode

from coursetools import write_private
from coursetools.grading.pending import is_pending

LMSES = ("canvas", "moodle")
# The column holding the course's student id in each LMS's roster (Canvas's gradebook export, Moodle's
# participants list or grade export), unless the instructor names another.
ID_COLUMNS = {"canvas": "SIS Login ID", "moodle": "ID number"}
CANVAS_STUDENT_COLUMNS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
MOODLE_STUDENT_COLUMNS = ("First name", "Last name", "ID number", "Email address")
PENDING_CHOICES = ("leave-out", "blank")


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
    write_private(out, _csv_text([header, *rows]))
    return out, pending


@dataclass
class LabScore:
    """One student's points in a lab as an LMS gets them: after the late penalty, hand-graded answers or not."""

    points: float
    max_points: float
    pending: int  # written answers not graded yet (points is then not final)
    late_penalty: float
    graded_by_hand: float  # points of the hand-graded answers included in `points`


def lab_scores(gb, lab: str, *, hand_graded: bool = True) -> tuple[dict[str, LabScore], float]:
    """``({student: LabScore}, the lab's maximum)`` from an open nbgrader Gradebook; without `hand_graded`, only the
    autograded tests count (and nothing is pending)."""
    from nbgrader.api import MissingEntry

    try:
        assignment = gb.find_assignment(lab)
    except MissingEntry:
        raise ValueError(f"{lab} is not in the gradebook: grade it first (coursetools grade {lab})") from None
    # A grade cell that is also a solution cell is an answer graded by hand (nbgrader's "manually graded answer").
    manual = {(nb.name, c.name) for nb in assignment.notebooks for c in nb.solution_cells}
    scores: dict[str, LabScore] = {}
    maximum = 0.0
    for sub in gb.assignment_submissions(lab):
        grades = [(g, (nb.name, g.name) in manual) for nb in sub.notebooks for g in nb.grades]
        by_hand = [g for g, is_manual in grades if is_manual]
        counted = [g for g, is_manual in grades if hand_graded or not is_manual]
        raw = sum(g.score for g in counted if not is_pending(g))
        maximum = sum(g.max_score for g in counted)
        penalty = sub.late_submission_penalty or 0.0
        scores[sub.student.id] = LabScore(
            points=max(0.0, raw - penalty), max_points=maximum, late_penalty=penalty,
            pending=sum(is_pending(g) for g in by_hand) if hand_graded else 0,
            graded_by_hand=sum(g.score for g in by_hand if not is_pending(g)) if hand_graded else 0.0)
    if not scores:
        maximum = sum(c.max_score for nb in assignment.notebooks for c in nb.grade_cells
                      if hand_graded or (nb.name, c.name) not in manual)
    return scores, maximum


@dataclass
class Roster:
    """The students an LMS knows, as its own export lists them: each row's columns, by the course's student id."""

    lms: str
    id_column: str
    header: list[str]
    rows: dict[str, dict[str, str]]
    problems: list[str] = field(default_factory=list)


def read_roster(path: Path, lms: str, id_column: str | None = None) -> Roster:
    """Read Canvas's gradebook export or Moodle's participants list (or grade export); refuses a file without the
    columns the import needs, and reports rows without an id or with a repeated one by line."""
    if lms not in LMSES:
        raise ValueError(f"unknown LMS {lms!r}: one of {', '.join(LMSES)}")
    id_column = id_column or ID_COLUMNS[lms]
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read the roster {path}: {exc}") from None
    reader = csv.DictReader(io.StringIO(text))
    header = [h.strip() for h in reader.fieldnames or []]
    reader.fieldnames = header
    needed = [id_column] + ([c for c in CANVAS_STUDENT_COLUMNS if c != id_column] if lms == "canvas" else [])
    missing = [c for c in needed if c not in header]
    if missing:
        raise ValueError(f"the roster {path} has no column {', '.join(repr(m) for m in missing)} (its columns: "
                         f"{', '.join(header) or 'none'}); export it from {lms.title()} again, or name the column "
                         "holding the course's student ids with --id-column")
    roster = Roster(lms, id_column, header, {})
    for line, row in enumerate(reader, start=2):
        student = (row.get(id_column) or "").strip()
        if lms == "canvas" and (row.get("Student") or "").strip() in ("Points Possible", ""):
            if not student:
                continue  # Canvas's "Points Possible" row (and the export's blank "Student, Test" lines)
        if not student:
            roster.problems.append(f"line {line}: no {id_column}; left out")
        elif student in roster.rows:
            roster.problems.append(f"line {line}: {id_column} {student} again; the first row is kept")
        else:
            roster.rows[student] = {k: (v or "").strip() for k, v in row.items() if k is not None}
    return roster


def canvas_assignment_id(roster: Roster, lab: str) -> str | None:
    """The Canvas id of `lab`'s column in Canvas's own gradebook export, ``<lab> (<id>)``, if it has one."""
    pattern = re.compile(rf"^{re.escape(lab)} \((\d+)\)$")
    found = [m.group(1) for h in roster.header if (m := pattern.match(h))]
    return found[0] if len(found) == 1 else None


@dataclass
class LmsFile:
    """What `lms_rows` decided: the rows to write and who is left out, and why."""

    rows: list[list[str]]
    pending: list[str] = field(default_factory=list)
    not_submitted: list[str] = field(default_factory=list)
    not_in_roster: list[str] = field(default_factory=list)
    late: list[str] = field(default_factory=list)


def lms_rows(roster: Roster, lab: str, scores: dict[str, LabScore], maximum: float, *, pending: str = "leave-out",
             assignment_id: str | None = None, feedback: bool = False) -> LmsFile:
    """The import file's rows (header first) for the roster's students, in the roster's order."""
    if pending not in PENDING_CHOICES:
        raise ValueError(f"--pending is one of {', '.join(PENDING_CHOICES)}, not {pending!r}")
    if roster.lms == "canvas":
        assignment_id = assignment_id or canvas_assignment_id(roster, lab)
        if not assignment_id:
            raise ValueError(f"the roster has no column '{lab} (<id>)': create the assignment {lab} in Canvas and "
                             "export the gradebook again, or give its id with --assignment-id")
        if not assignment_id.isdigit():
            raise ValueError(f"a Canvas assignment id is a number, not {assignment_id!r}")
        grade_column = f"{lab} ({assignment_id})"
        header = [*CANVAS_STUDENT_COLUMNS, grade_column]
        out = LmsFile(rows=[header, ["    Points Possible", "", "", "", "", f"{maximum:g}"]])
    else:
        keep = [c for c in MOODLE_STUDENT_COLUMNS if c in roster.header or c == roster.id_column]
        if roster.id_column not in MOODLE_STUDENT_COLUMNS:
            keep.append(roster.id_column)
        header = [*keep, lab] + ([f"{lab} (feedback)"] if feedback else [])
        out = LmsFile(rows=[header])
    for student, row in roster.rows.items():
        score = scores.get(student)
        if score is None:
            out.not_submitted.append(student)
            continue
        if score.late_penalty:
            out.late.append(student)
        if score.pending:
            out.pending.append(student)
            if pending == "leave-out":
                continue
        value = "" if score.pending else f"{score.points:g}"
        if roster.lms == "canvas":
            out.rows.append([row.get(c, "") for c in CANVAS_STUDENT_COLUMNS] + [value])
        else:
            cells = [row.get(c, "") for c in keep] + [value]
            if feedback:  # Moodle overwrites the grade when it imports feedback: never one without the other
                cells.append(_feedback(score, maximum) if value else "")
            out.rows.append(cells)
    out.not_in_roster = sorted(set(scores) - set(roster.rows))
    return out


def _feedback(score: LabScore, maximum: float) -> str:
    late = f", after a late penalty of {score.late_penalty:g}" if score.late_penalty else ""
    return f"{score.points:g} of {maximum:g} points{late}; your feedback page has every test"


def write_lms_csv(db_url: str, course: str, lab: str, lms: str, roster_file: Path, out: Path, *,
                  id_column: str | None = None, pending: str = "leave-out", hand_graded: bool = True,
                  assignment_id: str | None = None, feedback: bool = False) -> tuple[LmsFile, Roster]:
    """Write `lab`'s import file for `lms` (mode 0600) from the gradebook and the LMS's roster."""
    from nbgrader.api import Gradebook

    roster = read_roster(roster_file, lms, id_column)
    with Gradebook(db_url, course) as gb:
        scores, maximum = lab_scores(gb, lab, hand_graded=hand_graded)
    made = lms_rows(roster, lab, scores, maximum, pending=pending, assignment_id=assignment_id, feedback=feedback)
    write_private(out, _csv_text(made.rows))
    return made, roster


def describe(made: LmsFile, roster: Roster, out: Path, pending: str) -> list[str]:
    """What an instructor must know about an import file: who is in it, who is pending or missing, and why."""
    written = len(made.rows) - (2 if roster.lms == "canvas" else 1)
    lines = [f"{roster.lms.title()} import file: {out} ({written} student(s); readable by you only)"]
    if made.pending:
        how = "left out" if pending == "leave-out" else "left blank"
        lines.append(f"  pending (a written answer not graded yet; {how}, never 0): {', '.join(made.pending)}")
    if made.late:
        lines.append(f"  late penalty applied as the gradebook has it: {', '.join(made.late)}")
    if made.not_submitted:
        lines.append(f"  in the roster, no graded submission (left out): {', '.join(made.not_submitted)}")
    if made.not_in_roster:
        lines.append(f"  graded but not in the roster (left out): {', '.join(made.not_in_roster)}")
    lines += [f"  roster {p}" for p in roster.problems]
    return lines


def _csv_text(rows: list[list[str]]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\r\n").writerows(rows)
    return buffer.getvalue()


class _LmsExportPlugin(ExportPlugin):
    """nbgrader export into an LMS's import file: ``--assignment=LAB --<Class>.roster=FILE [--to=FILE]``."""

    lms = "canvas"
    roster = Unicode("", help="the roster the LMS exported (Canvas's gradebook CSV, Moodle's participants)").tag(
        config=True)
    id_column = Unicode("", help="the roster column holding the course's student ids (default: the LMS's)").tag(
        config=True)
    pending = Enum(PENDING_CHOICES, default_value="leave-out",
                   help="a student with a written answer not graded yet: left out of the file, or left blank").tag(
        config=True)
    hand_graded = Bool(True, help="count the hand-graded answers (else only the autograded tests)").tag(config=True)

    def _write(self, gradebook, **extra) -> None:
        if len(self.assignment) != 1 or not self.roster:
            raise ValueError(f"{type(self).__name__} exports one lab: give --assignment=LAB and "
                             f"--{type(self).__name__}.roster=FILE")
        lab = str(self.assignment[0])
        roster = read_roster(Path(self.roster), self.lms, self.id_column or None)
        scores, maximum = lab_scores(gradebook, lab, hand_graded=self.hand_graded)
        made = lms_rows(roster, lab, scores, maximum, pending=self.pending, **extra)
        out = Path(self.to or f"{lab}-{self.lms}.csv")
        write_private(out, _csv_text(made.rows))
        for line in describe(made, roster, out, self.pending):
            self.log.info(line)


class CanvasExportPlugin(_LmsExportPlugin):
    """Canvas's gradebook import file for one lab.

    ``nbgrader export --exporter=coursetools.grading.lmsexport.CanvasExportPlugin``
    """

    lms = "canvas"
    assignment_id = Unicode("", help="the lab's Canvas assignment id (default: read from the roster's header)").tag(
        config=True)

    def export(self, gradebook) -> None:
        self._write(gradebook, assignment_id=self.assignment_id or None)


class MoodleExportPlugin(_LmsExportPlugin):
    """Moodle's grade import file for one lab.

    ``nbgrader export --exporter=coursetools.grading.lmsexport.MoodleExportPlugin``
    """

    lms = "moodle"
    feedback = Bool(False, help="add a feedback column beside the grade (never alone: Moodle would wipe the grades)").tag(
        config=True)

    def export(self, gradebook) -> None:
        self._write(gradebook, feedback=self.feedback)
