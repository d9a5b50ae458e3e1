"""``python -m coursetools report LAB``: the class misconception map of a graded lab.

It reads only what the grader decided: each test cell's score in the gradebook, and the
grader's record of its verdict in the autograded notebook's cell metadata (``coursetools``:
how it failed and the known mistakes its hint named, `coursetools.grading.misconceptions`). It writes,
beside the grades export (``exports/``):

- ``<lab>-misconceptions.csv``: one row per test cell and per diagnosed mistake, with how many
  students and which;
- ``<lab>-misconceptions.png``: the same as two bar charts (students failing each test,
  students making each mistake);
- ``<lab>-misconceptions.html``: the figure and both tables, each student linked to their
  feedback (``feedback/<student>/<lab>/``, or their autograded notebook when no feedback exists).
"""

from __future__ import annotations

import csv
import html
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from coursetools.grading.misconceptions import UNEXPLAINED, catalogue
from coursetools.grading.preprocessors import KEY
from coursetools.grading.sanitize import PAGE_CSP as CSP


@dataclass
class Row:
    """A test cell or a mistake: who failed it or made it, and (a test) how each failed."""

    name: str
    points: float = 0.0
    students: set[str] = field(default_factory=set)
    how: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    tests: set[str] = field(default_factory=set)  # a mistake: the test cells that named it


@dataclass
class ClassMap:
    lab: str
    students: list[str]
    tests: list[Row]
    mistakes: list[Row]
    links: dict[str, str]  # student -> their feedback (relative to exports/)


def read_class(root: Path, lab: str) -> ClassMap:
    """Every graded student's failed tests (gradebook) and diagnosed mistakes (the grader's records)."""
    from nbgrader.api import Gradebook, MissingEntry

    from coursetools.grading.gradebook import course_id, db_url

    root = Path(root)
    tests: dict[str, Row] = {}
    mistakes: dict[str, Row] = {}
    links: dict[str, str] = {}
    with Gradebook(db_url(root), course_id(root)) as gb:
        assignment = gb.find_assignment(lab)
        notebooks = sorted(nb.name for nb in assignment.notebooks)
        cells = {nb.name: [c for c in nb.grade_cells if c.cell_type == "code"] for nb in assignment.notebooks}
        for nb in notebooks:
            for c in sorted(cells[nb], key=lambda c: c.id):
                tests[c.name] = Row(c.name, c.max_score)
        order = [c.name for nb in gb.find_assignment(lab).notebooks for c in nb.source_cells]
        students = sorted(s.student_id for s in gb.assignment_submissions(lab))
        for student in students:
            links[student] = _link(root, lab, student, notebooks[0])
            for nb in notebooks:
                records = _records(root / "autograded" / student / lab / f"{nb}.ipynb")
                for c in cells[nb]:
                    try:
                        score = gb.find_grade(c.name, nb, lab, student).score
                    except MissingEntry:
                        score = 0.0
                    if score >= c.max_score:
                        continue
                    row = tests[c.name]
                    row.students.add(student)
                    rec = records.get(c.name)
                    row.how[rec["kind"] if rec else "no record"] += 1
                    for m in (rec or {}).get("mistakes", []):
                        key = str(m.get("key"))
                        mistake = mistakes.setdefault(key, Row(key))
                        mistake.students.add(student)
                        mistake.tests.add(c.name)
    test_rows = sorted(tests.values(), key=lambda r: order.index(r.name) if r.name in order else len(order))
    mistake_rows = sorted(mistakes.values(), key=lambda r: (r.name == UNEXPLAINED, -len(r.students), r.name))
    return ClassMap(lab, students, test_rows, mistake_rows, links)


def _records(path: Path) -> dict[str, dict]:
    """grade_id -> the grader's record of each graded test cell of an autograded notebook."""
    if not path.is_file():
        return {}
    nb = nbformat.read(path, as_version=4)
    out = {}
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        rec = cell.metadata.get(KEY)
        if meta.get("grade") and not meta.get("solution") and isinstance(rec, dict):
            out[meta.get("grade_id")] = rec
    return out


def _link(root: Path, lab: str, student: str, notebook: str) -> str:
    feedback = root / "feedback" / student / lab / f"{notebook}.html"
    if feedback.is_file():
        return f"../feedback/{student}/{lab}/{notebook}.html"
    return f"../autograded/{student}/{lab}/{notebook}.ipynb"


# -- what it writes ---------------------------------------------------------------------------

def write_report(root: Path, lab: str) -> dict[str, Path]:
    """Write the CSV, PNG and HTML of `lab`'s class map into exports/; returns their paths."""
    cmap = read_class(root, lab)
    out = Path(root) / "exports"
    out.mkdir(exist_ok=True)
    paths = {ext: out / f"{lab}-misconceptions.{ext}" for ext in ("csv", "png", "html")}
    with open(paths["csv"], "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["kind", "name", "students", "of", "tests", "who"])
        for r in cmap.tests:
            w.writerow(["test", r.name, len(r.students), len(cmap.students), "", " ".join(sorted(r.students))])
        for r in cmap.mistakes:
            w.writerow(["mistake", r.name, len(r.students), len(cmap.students), " ".join(sorted(r.tests)),
                        " ".join(sorted(r.students))])
    draw(cmap, paths["png"])
    paths["html"].write_text(page(cmap, paths["png"].name))
    return paths


def _bars(ax, rows: list[Row], total: int, labels: list[str], color: str, title: str) -> None:
    counts = [len(r.students) for r in rows]
    ys = range(len(rows))
    ax.barh(ys, counts, color=color, height=0.7)
    ax.set_yticks(list(ys), labels, fontsize=9)
    ax.invert_yaxis()
    ax.set_xlim(0, max(total, 1) * 1.12)
    ax.set_title(title, fontsize=11, loc="left")
    for y, n in zip(ys, counts):
        ax.text(n + max(total, 1) * 0.01, y, f"{n} ({100 * n / total:.0f}%)" if total else "0", va="center", fontsize=8)
    ax.spines[["top", "right"]].set_visible(False)
    ax.xaxis.get_major_locator().set_params(integer=True)


def draw(cmap: ClassMap, path: Path) -> None:
    """Two bar charts: students failing each test cell, students making each diagnosed mistake."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    total = len(cmap.students)
    mistakes = cmap.mistakes or [Row("(none diagnosed)")]
    heights = [max(len(cmap.tests), 1), len(mistakes)]
    fig, axes = plt.subplots(2, 1, figsize=(9, 1.6 + 0.32 * sum(heights)),
                             gridspec_kw={"height_ratios": heights}, layout="constrained")
    fig.suptitle(f"{cmap.lab}: {total} students graded", x=0.01, ha="left", fontsize=12, fontweight="bold")
    _bars(axes[0], cmap.tests, total, [f"{r.name} ({r.points:g} pt)" for r in cmap.tests], "#4c72b0",
          "students who lost points in each test")
    labels = [_short(r.name) + (f"  [{', '.join(sorted(t.removeprefix('test_') for t in r.tests))}]" if r.tests else "")
              for r in mistakes]
    colors = ["#bbbbbb" if r.name == UNEXPLAINED else "#dd8452" for r in mistakes]
    _bars(axes[1], mistakes, total, labels, colors, "students whose hint named each mistake  [tests]")
    axes[1].set_xlabel("students")
    fig.savefig(path, dpi=110)
    plt.close(fig)


def figure_alt(cmap: ClassMap) -> str:
    """The text alternative of the class map's figure: every bar's count, as the figure writes it."""
    total = len(cmap.students)

    def bars(rows: list[Row]) -> str:
        return "; ".join(f"{r.name}: {len(r.students)}" + (f" ({100 * len(r.students) / total:.0f}%)" if total else "")
                         for r in rows) or "none"

    return (f"Two bar charts of {cmap.lab}, {total} students graded. Students who lost points in each test: "
            f"{bars(cmap.tests)}. Students whose hint named each mistake: {bars(cmap.mistakes)}.")


def _short(text: str, n: int = 48) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def page(cmap: ClassMap, png: str) -> str:
    """The HTML page: the figure, the tests and the mistakes, each student linked to their feedback."""
    try:
        hints = dict(catalogue(cmap.lab))
    except Exception:  # noqa: BLE001 - the page still lists the mistakes without their hint text
        hints = {}
    total = len(cmap.students)

    def who(students: set[str]) -> str:
        return ", ".join(f'<a href="{html.escape(cmap.links[s])}">{html.escape(s)}</a>' for s in sorted(students))

    def pct(n: int) -> str:
        return f"{n} ({100 * n / total:.0f}%)" if total else "0"

    rows_t = "".join(
        f"<tr><td><code>{html.escape(r.name)}</code></td><td>{r.points:g}</td><td>{pct(len(r.students))}</td>"
        f"<td>{html.escape(', '.join(f'{k}: {v}' for k, v in sorted(r.how.items())))}</td>"
        f"<td>{who(r.students)}</td></tr>" for r in cmap.tests)
    rows_m = "".join(
        f"<tr><td><code>{html.escape(r.name)}</code></td><td>{html.escape(hints.get(r.name, ''))}</td>"
        f"<td>{html.escape(', '.join(sorted(r.tests)))}</td><td>{pct(len(r.students))}</td>"
        f"<td>{who(r.students)}</td></tr>" for r in cmap.mistakes) or '<tr><td colspan="5">none</td></tr>'
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="{CSP}">
<title>{html.escape(cmap.lab)}: class misconception map</title>
<style>body{{font-family:sans-serif;max-width:75em;margin:2em auto}}table{{border-collapse:collapse}}
td,th{{border:1px solid #ccc;padding:.3em .5em;vertical-align:top;text-align:left}}</style></head><body>
<h1>{html.escape(cmap.lab)}: class misconception map</h1>
<p>{total} students graded. Read from the gradebook (scores) and the grader's own record of each hidden test's
verdict; a mistake is counted when the hint of a failed test named it (<code>{UNEXPLAINED}</code>: the search
differed from the correct one in a way no known mistake reproduces). Names link to each student's feedback.</p>
<img src="{html.escape(png)}" alt="{html.escape(figure_alt(cmap))}" style="max-width:100%">
<h2>Tests</h2><table><tr><th>test</th><th>points</th><th>students who lost points</th><th>how it failed</th>
<th>students</th></tr>{rows_t}</table>
<h2>Diagnosed mistakes</h2><table><tr><th>mistake</th><th>its hint</th><th>tests</th><th>students</th>
<th>who</th></tr>{rows_m}</table>
</body></html>
"""
