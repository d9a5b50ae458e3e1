"""One self-check: a student's notebook graded in the sandbox by the final grading's own pipeline, then filtered.

`check_notebook` builds a scratch course for the check (`grading.scratch`: the lab's source, a gradebook of its
own copied from the lab's template, the notebook as the student's only submission) and grades it with
`coursetools.grading.autograde`, the coordinator the final grading runs: the same sandbox, the same hidden checks,
the same points. Nothing it writes reaches the course's gradebook, `submitted/` or `autograded/`, so a check never
changes a grade.

The hidden checks' secret cases are drawn from a seed made for this check (an HMAC of the instructor's secret seed
and the check id), never the final grading's. The answer keeps, per test cell, the verdict, the points, whether
the visible tests passed (their message only where it cannot hold a hidden case, `_visible`), how many of the
cell's hidden checks passed, and an explanation only when the first difference is on a case drawn for this check
(its kernel's text cut or replaced by the grader, `checks.kerneltext`); a difference on one of the fixed hidden
cases (the final grading's) is answered by the known mistakes the grader diagnosed, in the checks' words. No
hidden source, case list, expected trace, secret or grader internals reach an answer: `_guard` refuses an answer
holding any of them.
"""

from __future__ import annotations

import datetime
import functools
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

from coursetools.checks.kerneltext import error_name
from coursetools.grading.checker import parse_hidden, split_hidden
from coursetools.grading import warm
from coursetools.grading.scratch import make_course, template_gradebook
from coursetools.labs import labs_in

MAX_BYTES_ENV, SEED_ENV = "COURSE_SELFCHECK_MAX_KB", "COURSE_SECRET_SEED"
DEFAULT_MAX_KB = 2048  # a lab notebook with its figures is well under 1 MB
CHECK_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
STUDENT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}")
EXPLANATION_CHARS = 4000
VISIBLE_CHARS = 1500
#: A hidden check's message about a case drawn for this check names it on its first line ("... on secret ...").
#: In a self-check's grading process the kernel's text on that line is cut or replaced and never holds the word
#: "secret" (`checks.kerneltext`), so the words are the grader's.
DRAWN = re.compile(r"^[^\n]*\bon (?:a |the )?secret\b")
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


class MissingSeed(RuntimeError):
    """``COURSE_SECRET_SEED`` is not set where checks are graded."""


def secret_seed() -> str:
    """The instructor's secret seed, ``COURSE_SECRET_SEED``; `MissingSeed` when it is not set (there is no fallback:
    a constant in the course's source would let anyone compute the cases a check draws)."""
    seed = os.environ.get(SEED_ENV)
    if not seed:
        raise MissingSeed(f"{SEED_ENV} is not set: a worker draws each check's hidden cases from it, and without it "
                          "anyone could compute them. Set it to the course's secret seed (the one the final grading "
                          "uses); `make selfcheck-demo` sets one of its own")
    return seed


def check_seed(lab: str, student: str, check_id: str) -> str:
    """The secret seed of one check: drawn from the instructor's seed and the check id, never the final grading's."""
    key = secret_seed().encode()
    return "selfcheck-" + hmac.new(key, f"{lab}/{student}/{check_id}".encode(), hashlib.sha256).hexdigest()


# --- the notebook as sent -----------------------------------------------------------------------------------------

def read_notebook(notebook: bytes, lab: str, course: Path) -> nbformat.NotebookNode:
    """The notebook parsed and checked to be `lab`'s; `Refused` when it is too large, not a notebook, or another
    lab's. The cheap checks come first (`parse_notebook`, `check_lab`), the full validation last (`validate`)."""
    data = parse_notebook(notebook)
    check_lab(data, lab, course)
    return validate(data)


def parse_notebook(notebook: bytes) -> dict:
    """The notebook's JSON, its shape checked (`shape_problem`) before anything else reads it; `Refused` when it
    is too large, not JSON or not shaped as a notebook."""
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
    problem = shape_problem(data)
    if problem:
        raise Refused(f"this is not a valid notebook: {problem} (send the .ipynb file as Jupyter saved it)")
    return data


#: What a cell's nbgrader metadata may hold, and the types each must have.
NBGRADER_TYPES = {"grade": bool, "solution": bool, "locked": bool, "task": bool, "grade_id": str,
                  "points": (int, float), "schema_version": int, "checksum": str, "cell_type": str}
MAX_CELLS = 2000


def shape_problem(data: dict) -> str | None:
    """What is wrong with a notebook's JSON in the places the service and the grader read, in plain words (None:
    nothing): its format version, its metadata, and each cell's type, source, metadata and nbgrader fields."""
    version = data.get("nbformat")
    if type(version) is not int:
        return f"its nbformat version is {_kind(version)}, not the number 4"
    if version != 4:
        return f"it is an nbformat {version} notebook; save it from a current Jupyter (nbformat 4)"
    if "nbformat_minor" in data and type(data["nbformat_minor"]) is not int:
        return f"its nbformat_minor is {_kind(data['nbformat_minor'])}, not a number"
    if not isinstance(data.get("metadata", {}), dict):
        return f"its metadata is {_kind(data.get('metadata'))}, not an object"
    if len(data["cells"]) > MAX_CELLS:
        return f"it has {len(data['cells'])} cells, over the cap of {MAX_CELLS}"
    for n, cell in enumerate(data["cells"], 1):
        problem = _cell_problem(cell)
        if problem:
            return f"cell {n} {problem}"
    return None


def _cell_problem(cell: Any) -> str | None:
    if not isinstance(cell, dict):
        return f"is {_kind(cell)}, not an object"
    if cell.get("cell_type") not in ("code", "markdown", "raw"):
        return f"has the cell type {_kind(cell.get('cell_type'))}, not code, markdown or raw"
    source = cell.get("source", "")
    if not (isinstance(source, str) or (isinstance(source, list) and all(isinstance(x, str) for x in source))):
        return f"has a source that is {_kind(source)}, not text"
    meta = cell.get("metadata", {})
    if not isinstance(meta, dict):
        return f"has metadata that is {_kind(meta)}, not an object"
    grader = meta.get("nbgrader", {})
    if not isinstance(grader, dict):
        return f"has nbgrader metadata that is {_kind(grader)}, not an object"
    for key, want in NBGRADER_TYPES.items():
        if key not in grader:
            continue
        value = grader[key]
        if isinstance(value, bool) != (want is bool) or not isinstance(value, want):
            return f"has nbgrader {key} {_kind(value)}, which should be {_TYPE_WORDS[want]}"
    if cell["cell_type"] == "code" and not isinstance(cell.get("outputs", []), list):
        return f"has outputs that are {_kind(cell.get('outputs'))}, not a list"
    return None


_TYPE_WORDS = {bool: "true or false", str: "text", int: "a whole number", (int, float): "a number"}


def _kind(value: Any) -> str:
    """A JSON value named for a message: its JSON type, and a short text of it when it is a number or text."""
    if value is None:
        return "missing (or null)"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"the number {value!r:.20}"
    if isinstance(value, str):
        return f"the text {json.dumps(value[:20])}"
    return {dict: "an object", list: "a list"}.get(type(value), type(value).__name__)


def check_lab(data: dict, lab: str, course: Path) -> None:
    """`Refused` unless the notebook (its JSON, shape checked) is more `lab`'s than any other lab's."""
    mine = _grade_ids(data["cells"])
    likeness = {other: _likeness(mine, lab_grade_ids(course, other)) for other in labs_in(course)}
    best = max(likeness, key=lambda other: likeness[other])
    if likeness[best] > likeness[lab]:
        raise Refused(f"wrong lab: this notebook is lab {best}, not {lab} (check it at its own lab)")
    if not likeness[lab]:
        raise Refused(f"wrong lab: this notebook has none of lab {lab}'s test cells (is it the lab's notebook, "
                      "with its cells as handed out?)")


def validate(data: dict) -> nbformat.NotebookNode:
    """The notebook validated by nbformat (the full parse); `Refused` with nbformat's first line otherwise."""
    try:
        nb = nbformat.from_dict(data)
        nbformat.validate(nb)
    except Exception as exc:  # noqa: BLE001 - whatever nbformat finds wrong: not a notebook
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:160]
        raise Refused(f"this is not a valid notebook ({first})") from None
    return nb


def _likeness(mine: set[str], theirs: set[str]) -> float:
    """How much two sets of graded cells' ids agree (0: nothing shared, 1: the same)."""
    return len(mine & theirs) / len(mine | theirs) if mine | theirs else 0.0


def _grade_ids(cells: list) -> set[str]:
    return {str(c.get("metadata", {}).get("nbgrader", {}).get("grade_id")) for c in cells
            if c.get("metadata", {}).get("nbgrader", {}).get("grade")}


def lab_grade_ids(course: Path, lab: str) -> set[str]:
    """The grade ids of `lab`'s graded cells, from its source (read again only when the file changes)."""
    path = course / "source" / lab / f"{lab}.ipynb"
    try:
        return set(_source_grade_ids(str(path), path.stat().st_mtime_ns))
    except FileNotFoundError:
        return set()


@functools.lru_cache(maxsize=64)
def _source_grade_ids(path: str, mtime_ns: int) -> frozenset[str]:
    return frozenset(_grade_ids(nbformat.read(path, as_version=4).cells))


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
    """Seconds a cell may run in a check: ``COURSE_SELFCHECK_CELL_TIMEOUT`` (default 20, as `make demo`; a correct
    lab's slowest cell takes a few seconds)."""
    try:
        return max(5, int(os.environ.get("COURSE_SELFCHECK_CELL_TIMEOUT", 20)))
    except ValueError:
        return 20


BUDGET_ENV, DEFAULT_BUDGET = "COURSE_SELFCHECK_BUDGET_S", 90


def budget() -> int:
    """Seconds one check's grading may take, ``COURSE_SELFCHECK_BUDGET_S`` (default 90; a lab 02 check takes 8 to
    11 s on an idle core, about 30 s on a loaded one). The grader's cap per submission: its cells stop running at
    three quarters of it less 5 s (their tests score 0) and the grading process is stopped at it."""
    try:
        return max(20, int(os.environ.get(BUDGET_ENV, DEFAULT_BUDGET)))
    except ValueError:
        return DEFAULT_BUDGET


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
                       sandbox=False if sandbox == "none" else sandbox, submission_timeout=float(budget()),
                       cell_timeout=_cell_timeout(), starter=warm.starter())
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
    written = visible_sources(course, lab)
    graded = nbformat.read(scratch / "autograded" / student / lab / f"{lab}.ipynb", as_version=4)
    by_id = {c.metadata.get("nbgrader", {}).get("grade_id"): c for c in graded.cells}
    # the first test cell run: its visible tests ran before any hidden check had called the student's functions
    first = next((c.metadata["nbgrader"]["grade_id"] for c in graded.cells if KEY in c.metadata
                  and c.metadata.get("nbgrader", {}).get("grade_id") in groups), None)
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
            "visible": _visible(visible_outputs, record.get("kind", "not run"), grade_id == first,
                                written.get(grade_id, "")),
            "hidden": _hidden_count(hidden, len(calls)),
            "explanation": _explanation(str(failed[-1].get("evalue", "")), record, lab) if failed else None,
        })
    return out


def _hidden_count(hidden: list[dict], checks: int) -> dict:
    """How much of a cell's hidden tests passed: in cases when every check passed and counted its cases (``n of n
    cases``), else in checks (a failed check stops at its first difference, so its cases are not all counted)."""
    if hidden and len(hidden) == checks and all(h.get("passed") and h.get("cases") for h in hidden):
        cases = sum(int(h["cases"]) for h in hidden)
        return {"passed": cases, "of": cases, "unit": "cases", "cases": cases}
    return {"passed": sum(1 for h in hidden if h.get("passed")), "of": checks, "unit": "checks", "cases": None}


def _visible(outputs: list, kind: str, first: bool, written: str) -> str | None:
    """What stopped the cell's visible tests (they are in the student's notebook), in words a self-check may send:
    None when they passed; else the error's type (a built-in exception's name) and its first line, when that line
    is the lab's own text (its test cell's) or the cell is the first test cell run (before it, no hidden check had
    called the student's functions); else the type alone, and where to see the rest."""
    errors = [o for o in outputs if o.get("output_type") == "error"]
    if not errors:
        return None if kind in ("passed", "hidden test") else f"this cell did not finish ({kind})"
    e = errors[-1]
    name, text = str(e.get("ename", "")), str(e.get("evalue", ""))
    if first:
        return f"{name}: {text}"[:VISIBLE_CHARS]
    line = (text.strip().splitlines() or [""])[0].strip()
    if line and line in written:
        return f"{error_name(name)}: {line}"[:VISIBLE_CHARS]
    return (f"the visible tests failed ({error_name(name)}); a self-check does not send their message back once "
            "hidden checks have run: run this cell in your notebook to read it")


def visible_sources(course: Path, lab: str) -> dict[str, str]:
    """Each test cell's visible part as the lab's source writes it: the grader's own text."""
    nb = nbformat.read(course / "source" / lab / f"{lab}.ipynb", as_version=4)
    return {c.metadata["nbgrader"]["grade_id"]: split_hidden(c.source)[0] for c in nb.cells
            if c.cell_type == "code" and c.metadata.get("nbgrader", {}).get("grade")}


def _explanation(message: str, record: dict, lab: str) -> str | None:
    """A hidden check's message as a self-check may show it: whole when it is about a case drawn for this check
    (its grader has cut the student's exception and replaced what else the kernel wrote, `checks.kerneltext`),
    else the known mistakes the grader diagnosed, in the checks' own words (`misconceptions.catalogue`)."""
    from coursetools.grading.misconceptions import catalogue

    message = message.strip()
    if not message or "set-up problem" in message:
        return None
    if DRAWN.match(message):
        return message[:EXPLANATION_CHARS]
    try:
        hints = {key: text for key, text in catalogue(lab)}
    except Exception:  # noqa: BLE001 - a lab without a check module names no mistake
        hints = {}
    known = [hints[m["key"]] for m in record.get("mistakes", []) if isinstance(m, dict) and m.get("known")
             and m.get("key") in hints]
    lines = [NOT_SHOWN] + (["Known mistakes whose models give the same answer:"] + [f"  - {t}" for t in known]
                           if known else [])
    return "\n".join(lines)[:EXPLANATION_CHARS]


def _guard(answer: dict, forbidden: list[str]) -> dict:
    """The answer, with any text field holding a hidden test's line, marker or seed replaced by a plain note."""
    for cell in answer["cells"]:
        for key in ("visible", "explanation"):
            text = cell.get(key)
            if isinstance(text, str) and any(f and f in text for f in forbidden):
                cell[key] = "(not shown: it held text of the hidden tests)"
    return answer
