"""The bug bank: buggy and alternative-correct submissions graded by the real nbgrader.

``bank/<lab>/<entry>.py`` are answers files (see `coursetools.quality.submission`);
``bank/<lab>/expected.csv`` says, per entry, which test cells must lose points and a
piece of the hint their output must show (nothing for a correct entry). A
``solution`` entry, built from the source notebook's own solution cells, is always
added and must get full marks.
"""

from __future__ import annotations

import csv
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from coursetools.course.labfiles import solution_answers
from coursetools.quality.submission import build_submission


@dataclass
class Expectation:
    entry: str
    failing: list[str]
    hint: str


@dataclass
class Outcome:
    entry: str
    scores: dict[str, tuple[float, float]]  # test grade_id -> (score, max)
    outputs: dict[str, str]                 # test grade_id -> text of its outputs
    problems: list[str] = field(default_factory=list)

    @property
    def total(self) -> tuple[float, float]:
        return (sum(s for s, _ in self.scores.values()), sum(m for _, m in self.scores.values()))


def read_expected(path: Path) -> dict[str, Expectation]:
    """The expected-score table of one lab's bank."""
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    return {r["entry"]: Expectation(r["entry"], r["failing"].split(), r["hint"]) for r in rows}


def _text(cell: nbformat.NotebookNode) -> str:
    """The cell's outputs as a student reads them, each on lines of its own (a visible test's error and the hidden
    check's never run together on one line)."""
    parts = []
    for o in cell.get("outputs", []):
        if o.output_type == "stream":
            parts.append(o.text)
        elif o.output_type == "error":
            parts.append(f"{o.ename}: {o.evalue}")
        elif "data" in o:
            parts.append(str(o.data.get("text/plain", "")))
    return "".join(p if p.endswith("\n") or i == len(parts) - 1 else p + "\n" for i, p in enumerate(parts))


def grade_entries(root: Path, lab: str, answers: dict[str, dict[str, str]],
                  jobs: int | None = None) -> dict[str, Outcome]:
    """Build one submission per entry, autograde them (`jobs` nbgrader processes), read the scores."""
    from nbgrader.api import Gradebook

    from coursetools.grading.autograde import grade
    from coursetools.quality.toycourse import make_lab_course

    with tempfile.TemporaryDirectory(prefix=f"bank-{lab}-") as tmp:
        course = make_lab_course(Path(tmp) / "course", lab, root=root)
        release_nb = course / "release" / lab / f"{lab}.ipynb"
        for entry, ans in answers.items():
            build_submission(release_nb, ans, course / "submitted" / entry / lab / f"{lab}.ipynb")
        # Sharded like a real class (one nbgrader process per core, IPC kernels): the
        # banks of all labs run in every `make test`.
        saved = os.environ.get("COURSE_DB_URL")
        os.environ["COURSE_DB_URL"] = "sqlite:///" + str(course / "gradebook.db")  # never the real gradebook
        try:
            report = grade(course, lab, jobs=jobs, force=True, progress=None)
        finally:
            if saved is None:
                del os.environ["COURSE_DB_URL"]
            else:
                os.environ["COURSE_DB_URL"] = saved
        if report.not_graded():
            raise RuntimeError(f"bank of {lab}: not graded:\n{report.summary()}")
        outcomes = {}
        with Gradebook("sqlite:///" + str(course / "gradebook.db"), course_id="adversarial-search") as gb:
            for entry in answers:
                nb = nbformat.read(course / "autograded" / entry / lab / f"{lab}.ipynb", as_version=4)
                outputs = {c.metadata["nbgrader"]["grade_id"]: _text(c) for c in nb.cells
                           if c.get("metadata", {}).get("nbgrader", {}).get("grade")
                           and not c.metadata["nbgrader"].get("solution")}
                scores = {}
                for gid in outputs:
                    g = gb.find_grade(gid, lab, lab, entry)
                    scores[gid] = (float(g.score), float(g.max_score))
                outcomes[entry] = Outcome(entry, scores, outputs)
        return outcomes


def check_bank(root: Path, lab: str) -> dict[str, Outcome]:
    """Grade the lab's bank plus its own solution; each outcome lists its problems."""
    folder = root / "bank" / lab
    expected = read_expected(folder / "expected.csv")
    answers = {"solution": solution_answers(root / "source" / lab / f"{lab}.ipynb")}
    for path in sorted(folder.glob("*.py")):
        answers[path.stem] = {**answers["solution"], **parse_entry(path)}
    missing = sorted(set(answers) - set(expected) - {"solution"})
    outcomes = grade_entries(root, lab, answers)
    for entry, outcome in outcomes.items():
        exp = expected.get(entry, Expectation(entry, [], ""))
        if entry in missing:
            outcome.problems.append("no row in expected.csv")
        for gid, (score, maximum) in outcome.scores.items():
            if gid in exp.failing and score >= maximum:
                outcome.problems.append(f"{gid} should lose points but scored {score:g}/{maximum:g}")
            if gid not in exp.failing and score < maximum:
                first = outcome.outputs[gid].strip().splitlines()[-1:] or [""]
                outcome.problems.append(f"{gid} lost points ({score:g}/{maximum:g}): {first[0][:200]}")
        for gid in exp.failing:
            if gid not in outcome.scores:
                outcome.problems.append(f"expected.csv names {gid}, which is not a test cell")
        shown = [outcome.outputs.get(gid, "") for gid in exp.failing]
        if exp.hint and not any(exp.hint in text for text in shown):
            outcome.problems.append(f"none of {' '.join(exp.failing)} shows the hint {exp.hint!r}")
    for entry in sorted(set(expected) - set(outcomes)):
        outcomes[entry] = Outcome(entry, {}, {}, [f"expected.csv lists {entry}, but bank/{lab}/{entry}.py is missing"])
    return outcomes


def parse_entry(path: Path) -> dict[str, str]:
    """The answers a bank entry's file gives, ``{grade_id: source}``."""
    from coursetools.quality.submission import parse_answers

    return parse_answers(path.read_text())


def table(lab: str, outcomes: dict[str, Outcome]) -> str:
    """A text table of scores per entry, with problems flagged."""
    lines = [f"bank of {lab}:"]
    for entry, o in outcomes.items():
        got, maximum = o.total
        lost = [g for g, (s, m) in o.scores.items() if s < m]
        status = "OK " if not o.problems else "BAD"
        lines.append(f"  {status} {entry:32s} {got:5g}/{maximum:<5g} lost in: {' '.join(lost) or '-'}")
        lines.extend(f"        ! {p}" for p in o.problems)
    return "\n".join(lines)
