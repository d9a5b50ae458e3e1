"""One self-check: a student's notebook graded in the sandbox by the final grading's own pipeline, then filtered.

`check_notebook` builds a scratch course for the check (`grading.scratch`: the lab's source, a gradebook of its
own copied from the lab's template, the notebook as the student's only submission) and grades it with
`coursetools.grading.autograde`, the coordinator the final grading runs: the same sandbox, the same hidden checks,
the same points. Nothing it writes reaches the course's gradebook, `submitted/` or `autograded/`, so a check never
changes a grade.

The hidden checks' secret cases are drawn from a seed made for this check (an HMAC of the instructor's secret seed
and the check id), never the final grading's. The answer keeps, per test cell, the verdict, the points, the
visible tests' own error, how many of the cell's hidden checks passed, and an explanation only when the first
difference is on a case drawn for this check; a difference on one of the fixed hidden cases (the final grading's)
is answered by the names of the known mistakes alone. No hidden source, case list, expected trace, secret or
grader internals reach an answer: `_guard` refuses an answer holding any of them.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import json
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

import nbformat

from coursetools.grading.checker import parse_hidden, split_hidden
from coursetools.grading.scratch import make_course, template_gradebook
from coursetools.labs import labs_in

MAX_BYTES_ENV = "COURSE_SELFCHECK_MAX_KB"
DEFAULT_MAX_KB = 2048  # a lab notebook with its figures is well under 1 MB
CHECK_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
STUDENT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}")
EXPLANATION_CHARS = 4000
VISIBLE_CHARS = 1500
#: A hidden check's message about a case drawn for this check starts with the checked function's name (the
#: grader's words, never the kernel's) and "on secret ...": the kernel's text comes only after a colon.
DRAWN = re.compile(r"^[A-Za-z_][\w ()]{0,60}? on (?:a |the )?secret\b")
NOT_SHOWN = ("Every case drawn for this check before it passed, but a case of the final grading differs: a "
             "self-check withholds its explanation. The visible tests and the known mistakes below may help.")


class Refused(Exception):
    """Input the service refuses, with the reason in plain words (not a notebook, wrong lab, too large)."""


def max_bytes() -> int:
    """The upload cap: ``COURSE_SELFCHECK_MAX_KB`` kilobytes (default 2048)."""
    try:
        return max(1, int(os.environ.get(MAX_BYTES_ENV, DEFAULT_MAX_KB))) * 1024
    except ValueError:
        return DEFAULT_MAX_KB * 1024


def check_seed(lab: str, student: str, check_id: str) -> str:
    """The secret seed of one check: drawn from the instructor's seed and the check id, never the final grading's."""
    key = (os.environ.get("COURSE_SECRET_SEED") or "no-secret-seed").encode()
    return "selfcheck-" + hmac.new(key, f"{lab}/{student}/{check_id}".encode(), hashlib.sha256).hexdigest()


# --- the notebook as sent -----------------------------------------------------------------------------------------

def read_notebook(notebook: bytes, lab: str, course: Path) -> nbformat.NotebookNode:
    """The notebook parsed and checked to be `lab`'s; `Refused` when it is too large, not a notebook, or another
    lab's."""
    cap = max_bytes()
    if len(notebook) > cap:
        raise Refused(f"the notebook is too large: {len(notebook) / 1024:.0f} KB, over the cap of {cap // 1024} KB "
                      "(clear the outputs of big cells, then save and check again)")
    try:
        data = json.loads(notebook)
    except (ValueError, RecursionError):
        raise Refused("this is not a notebook: the file is not JSON (send the .ipynb file itself)") from None
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise Refused("this is not a notebook: it has no list of cells (send the .ipynb file itself)")
    try:
        nb = nbformat.from_dict(data)
        if nb.get("nbformat") != 4:
            nb = nbformat.convert(nb, 4)
        nbformat.validate(nb)
    except Exception as exc:  # noqa: BLE001 - whatever nbformat finds wrong: not a notebook
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:160]
        raise Refused(f"this is not a valid notebook ({first})") from None
    mine = _grade_ids(nb)
    likeness = {other: _likeness(mine, lab_grade_ids(course, other)) for other in labs_in(course)}
    best = max(likeness, key=lambda other: likeness[other])
    if likeness[best] > likeness[lab]:
        raise Refused(f"wrong lab: this notebook is lab {best}, not {lab} (check it at its own lab)")
    if not likeness[lab]:
        raise Refused(f"wrong lab: this notebook has none of lab {lab}'s test cells (is it the lab's notebook, "
                      "with its cells as handed out?)")
    return nb


def _likeness(mine: set[str], theirs: set[str]) -> float:
    """How much two sets of graded cells' ids agree (0: nothing shared, 1: the same)."""
    return len(mine & theirs) / len(mine | theirs) if mine | theirs else 0.0


def _grade_ids(nb: Any) -> set[str]:
    return {str(c.get("metadata", {}).get("nbgrader", {}).get("grade_id")) for c in nb.cells
            if c.get("metadata", {}).get("nbgrader", {}).get("grade")}


def lab_grade_ids(course: Path, lab: str) -> set[str]:
    """The grade ids of `lab`'s graded cells, from its source."""
    path = course / "source" / lab / f"{lab}.ipynb"
    if not path.is_file():
        return set()
    return _grade_ids(nbformat.read(path, as_version=4))


def test_cells(course: Path, lab: str) -> dict[str, list[str]]:
    """Each autograded test cell of `lab`'s source: its grade id -> the groups of its hidden checks, in order."""
    nb = nbformat.read(course / "source" / lab / f"{lab}.ipynb", as_version=4)
    out = {}
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type == "code" and meta.get("grade") and not meta.get("solution"):
            hidden = split_hidden(cell.source)[1]
            out[meta["grade_id"]] = [c.group for c in parse_hidden(hidden)] if hidden else []
    return out


def hidden_strings(course: Path, lab: str) -> list[str]:
    """Text of `lab`'s hidden tests that an answer must never hold: each line of their source, and the markers."""
    nb = nbformat.read(course / "source" / lab / f"{lab}.ipynb", as_version=4)
    out = {"### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS", "coursetools.hidden"}
    for cell in nb.cells:
        hidden = split_hidden(cell.source)[1] if cell.cell_type == "code" else None
        if hidden:
            out.update(line.strip() for line in hidden.splitlines() if len(line.strip()) >= 12)
    return sorted(out)


def _cell_timeout() -> int:
    """Seconds a cell may run in a check: ``COURSE_SELFCHECK_CELL_TIMEOUT`` (default 60; a correct lab's slowest
    cell takes a few seconds)."""
    try:
        return max(5, int(os.environ.get("COURSE_SELFCHECK_CELL_TIMEOUT", 60)))
    except ValueError:
        return 60


def _timestamp() -> str:
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f UTC")


# --- the check ----------------------------------------------------------------------------------------------------

def check_notebook(course: Path, lab: str, student: str, notebook: bytes, check_id: str) -> dict:
    """Grade `notebook` as `student`'s work on `lab` in the sandbox, and return the answer a student may see.

    Raises `Refused` for input the service must refuse (bad ids, not a notebook, another lab, too large)."""
    from coursetools.grading.autograde import grade

    course = Path(course).resolve()
    if lab not in labs_in(course):
        raise Refused(f"there is no lab {lab!r} in this course")
    if not STUDENT_ID.fullmatch(student or ""):
        raise Refused("the student id is not valid")
    if not CHECK_ID.fullmatch(check_id or ""):
        raise Refused("the check id is not valid")
    nb = read_notebook(notebook, lab, course)
    template = template_gradebook(course, lab)
    work = course / "build" / "selfcheck" / "checks"
    work.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f"{check_id}-", dir=work))
    try:
        make_course(scratch, course, lab, template, what="one self-check's scratch course",
                    seed=check_seed(lab, student, check_id))
        folder = scratch / "submitted" / student / lab
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / f"{lab}.ipynb")
        (folder / "timestamp.txt").write_text(_timestamp())
        sandbox = os.environ.get("COURSE_SELFCHECK_SANDBOX", "bwrap")
        report = grade(scratch, lab, jobs=1, students=[student], force=True, progress=None,
                       sandbox=False if sandbox == "none" else sandbox, submission_timeout=300.0,
                       cell_timeout=_cell_timeout())
        result = report.results.get(student)
        answer = {"check_id": check_id, "lab": lab, "student": student, "cells": [], "refused": None}
        if result is None or result.status != "graded":
            answer["refused"] = _not_graded(result.reason if result else "")
            return answer
        answer["cells"] = _cells(course, scratch, lab, student)
        return _guard(answer, hidden_strings(course, lab) + [check_seed(lab, student, check_id)]
                      + ([os.environ["COURSE_SECRET_SEED"]] if os.environ.get("COURSE_SECRET_SEED") else []))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _not_graded(reason: str) -> str:
    """Why the notebook could not be graded, in words that name no path of the grader's."""
    if "cap" in reason and ("wall-clock" in reason or "per submission" in reason):
        return "your notebook ran past the grader's time cap: look for a cell that runs for minutes, or never ends"
    if "too big" in reason:
        return "your notebook is too big to grade (too many cells)"
    return "your notebook could not be graded (it may not run from top to bottom in a fresh kernel)"


def _cells(course: Path, scratch: Path, lab: str, student: str) -> list[dict]:
    from nbgrader.api import Gradebook

    from coursetools.grading.gradebook import course_id
    from coursetools.grading.preprocessors import KEY

    groups = test_cells(course, lab)
    graded = nbformat.read(scratch / "autograded" / student / lab / f"{lab}.ipynb", as_version=4)
    by_id = {c.metadata.get("nbgrader", {}).get("grade_id"): c for c in graded.cells}
    with Gradebook("sqlite:///" + str(scratch / "gradebook.db"), course_id(course)) as gb:
        scores = {g.name: (g.auto_score, g.max_score)
                  for g in gb.find_submission_notebook(lab, lab, student).grades}
    out = []
    for grade_id, calls in groups.items():
        cell = by_id.get(grade_id)
        record = cell.metadata.get(KEY, {}) if cell is not None else {}
        hidden = [h for h in record.get("hidden", []) if isinstance(h, dict)]
        points, max_points = scores.get(grade_id, (0.0, 0.0))
        outputs = list(cell.outputs) if cell is not None else []
        failed_visibly = record.get("kind") == "visible test"
        shown = sum(1 for h in hidden if not h.get("passed") or not failed_visibly)  # outputs the checks added
        visible_outputs = outputs[:len(outputs) - shown] if shown else outputs
        hidden_outputs = outputs[len(outputs) - shown:] if shown else []
        failed = [o for o in hidden_outputs if o.get("output_type") == "error"]
        out.append({
            "cell": grade_id,
            "verdict": "passed" if record.get("verdict") == "passed" else "failed",
            "points": float(points or 0.0),
            "max_points": float(max_points or 0.0),
            "visible": _visible(visible_outputs, record.get("kind", "not run")),
            "hidden": _hidden_count(hidden, len(calls)),
            "explanation": _explanation(str(failed[-1].get("evalue", ""))) if failed else None,
        })
    return out


def _hidden_count(hidden: list[dict], checks: int) -> dict:
    """How much of a cell's hidden tests passed: in cases when every check passed and counted its cases (``n of n
    cases``), else in checks (a failed check stops at its first difference, so its cases are not all counted)."""
    if hidden and len(hidden) == checks and all(h.get("passed") and h.get("cases") for h in hidden):
        cases = sum(int(h["cases"]) for h in hidden)
        return {"passed": cases, "of": cases, "unit": "cases", "cases": cases}
    return {"passed": sum(1 for h in hidden if h.get("passed")), "of": checks, "unit": "checks", "cases": None}


def _visible(outputs: list, kind: str) -> str | None:
    """The visible tests' own error (they are in the student's notebook), or what stopped the cell."""
    errors = [o for o in outputs if o.get("output_type") == "error"]
    if not errors:
        return None if kind in ("passed", "hidden test") else f"this cell did not finish ({kind})"
    e = errors[-1]
    return f"{e.get('ename', 'Error')}: {e.get('evalue', '')}"[:VISIBLE_CHARS]


def _explanation(message: str) -> str | None:
    """A hidden check's message as a self-check may show it: whole when it is about a case drawn for this check,
    else only the known mistakes it names (their hints name no case)."""
    message = message.strip()
    if not message or "set-up problem" in message:
        return None
    if DRAWN.match(message):
        return message[:EXPLANATION_CHARS]
    lines = message.splitlines()
    known = []
    for i, line in enumerate(lines):
        if line.startswith("Known mistake"):
            known = [line] + [rest for rest in lines[i + 1:] if rest.startswith("  - ")]
            break
    return "\n".join([NOT_SHOWN, *known])[:EXPLANATION_CHARS]


def _guard(answer: dict, forbidden: list[str]) -> dict:
    """The answer, with any text field holding a hidden test's line, marker or seed replaced by a plain note."""
    for cell in answer["cells"]:
        for key in ("visible", "explanation"):
            text = cell.get(key)
            if isinstance(text, str) and any(f and f in text for f in forbidden):
                cell[key] = "(not shown: it held text of the hidden tests)"
    return answer
