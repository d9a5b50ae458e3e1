"""``make demo``: an instructor's term, end to end, in a course folder of its own.

1. Make a fresh demo course, ``build/demo-course/`` (`make_demo_course`): the course's
   ``nbgrader_config.py``, ``source/`` and ``release/``, and the demo class kept in the repo,
   ``demo/submissions/<student>/<lab>/`` (built with `coursetools.quality.submission.build_submission`
   from the source's solutions, the bug bank and the adversarial cells below; see `build_demo_class`),
   as its ``submitted/``. The course's own gradebook, ``submitted/``, ``autograded/``, ``feedback/``
   and ``exports/`` are never read or written.
2. Generate every lab's student version there and check it: no solution or hidden-test line, and it
   runs with only the expected ``NotImplementedError`` stubs failing.
3. Autograde every lab in parallel shards (`coursetools.grading.autograde`), generate feedback,
   export the grades to ``exports/grades.csv``, all inside the demo course.
4. Print a students x labs table, where the feedback, the grades, each lab's class misconception
   map (`coursetools.grading.report`) and tournament lie; exit 1 if a score differs from
   ``demo/expected.csv`` (``--update-expected`` rewrites it after a review).
"""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat

from coursetools import tool_env
from coursetools.grading.autograde import grade
from coursetools.grading.gradebook import course_id, db_url
from coursetools.course.labfiles import solution_answers, written_answers
from coursetools.course.leakcheck import find_leaks, private_lines
from coursetools.course.stamp import stamp_all
from coursetools.labs import labs_in
from coursetools.quality.submission import build_submission, parse_answers, solution_ids

DEMO_COURSE = Path("build") / "demo-course"  # under the course root
# What a course's term writes: the demo never touches these in the course it was started from.
TERM_STATE = ("gradebook.db", "submitted", "autograded", "feedback", "exports")
DEMO_CELL_TIMEOUT = 20  # seconds per cell for the demo class (the course's own limit is 120 s)

# Adversarial demo students: what replaces the *last* solution cell of a lab (the cells before get the
# correct answer, so the tests before the trouble keep their points and every test after it scores 0).
ADVERSARIAL = {
    "zz_kills_kernel": "import os\nos._exit(1)",
    "zz_infinite_loop": "while True:\n    pass",
    "zz_tampers": ("import sys\nget_ipython().showtraceback = lambda *a, **k: None\nsys.excepthook = lambda *a: None\n"
                   "get_ipython().input_transformers_post.append(lambda lines: ['pass\\n'])"),
    # Tries to reach outside its sandbox (each attempt fails; the grade summary flags it).
    "zz_reaches_out": ("import importlib, os, subprocess\ntry:\n    importlib.import_module('course' + 'tools.checks')\n"
                       "except ImportError:\n    pass\nfor path in ['../' * k + 'gradebook.db' for k in range(1, 9)]:\n"
                       "    try:\n        open(path, 'a').close()\n    except OSError:\n        pass\n"
                       "subprocess.run(['sleep', '0'])"),
}


def _solutions(source: Path) -> dict[str, str]:
    """The source's solutions: its code, and the model answers of its written questions."""
    return {**solution_answers(source), **written_answers(source)}


def build_demo_class(root: Path, demo: Path | None = None) -> list[Path]:
    """(Re)write demo/submissions (or `demo`/submissions) for every released lab; returns the submissions.

    The answers are not kept as files: each student's answers are the source's own
    solutions with one change (a bank entry, or trouble added to the last code cell). Every
    student but the empty one answers the written questions with the source's model answer;
    those are graded by hand (formgrader), so they count once an instructor has graded them.
    """
    demo = demo or root / "demo"
    out = []
    for lab in labs_in(root):
        release = root / "release" / lab / f"{lab}.ipynb"
        source = root / "source" / lab / f"{lab}.ipynb"
        if not release.is_file() or not source.is_file():
            continue
        perfect = _solutions(source)
        answers = {"perfect": perfect, "empty": None}
        bank = root / "bank" / lab
        if (bank / "expected.csv").is_file():
            with open(bank / "expected.csv", newline="") as f:
                entry = next((r["entry"] for r in csv.DictReader(f) if r["failing"].strip()), None)
            if entry and (bank / f"{entry}.py").is_file():
                answers["typical_bug"] = {**perfect, **parse_answers((bank / f"{entry}.py").read_text())}
        code = solution_answers(source)
        last = [gid for gid in solution_ids(nbformat.read(release, as_version=4)) if gid in code][-1]
        for student, trouble in ADVERSARIAL.items():
            answers[student] = {**perfect, last: perfect[last].rstrip() + "\n\n" + trouble + "\n"}
        for student, ans in answers.items():
            nb_out = demo / "submissions" / student / lab / f"{lab}.ipynb"
            if ans is None:
                nb_out.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(release, nb_out)
            else:
                build_submission(release, ans, nb_out)
            out.append(nb_out)
        broken = demo / "submissions" / "zz_not_a_notebook" / lab / f"{lab}.ipynb"
        broken.parent.mkdir(parents=True, exist_ok=True)
        broken.write_text('{"cells": [ this upload was cut short')
        out.append(broken)
    return out


def check_release(root: Path, lab: str) -> list[str]:
    """Problems of a lab's student version: leaked lines, or errors other than the stubs' NotImplementedError."""
    from nbclient import NotebookClient

    problems = []
    for source in sorted((root / "source" / lab).glob("*.ipynb")):
        released = root / "release" / lab / source.name
        problems += [f"leak: {leak}" for leak in find_leaks(released.parent, private_lines(source))]
        nb = nbformat.read(released, as_version=4)
        NotebookClient(nb, timeout=120, allow_errors=True, kernel_name="python3",
                       resources={"metadata": {"path": str(released.parent)}}).execute()
        for i, cell in enumerate(nb.cells):
            for o in cell.get("outputs", []):
                stub = o.get("ename") == "NotImplementedError" or "NotImplementedError" in str(o.get("evalue", ""))
                if o.output_type == "error" and not stub:  # a visible test may report the stub in its message
                    problems.append(f"{released.name} cell {i}: {o.ename}: {o.evalue}")
    return problems


def read_expected(path: Path) -> dict[tuple[str, str], float]:
    with open(path, newline="") as f:
        return {(r["student"], r["lab"]): float(r["score"]) for r in csv.DictReader(f)}


def make_demo_course(root: Path, out: Path, lab_list: list[str]) -> Path:
    """A fresh course at `out` for the demo: config, source/ and release/ of `lab_list`, the demo class as submitted/."""
    root, out = Path(root).resolve(), Path(out).resolve()
    if out == root or out in root.parents or any(out == root / name or root / name in out.parents for name in TERM_STATE):
        raise ValueError(f"the demo course {out} would overlap the course {root}: choose a folder of its own")
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    shutil.copy2(root / "nbgrader_config.py", out / "nbgrader_config.py")
    for lab in lab_list:
        shutil.copytree(root / "source" / lab, out / "source" / lab)
        if (root / "release" / lab).is_dir():
            shutil.copytree(root / "release" / lab, out / "release" / lab)
    subs = root / "demo" / "submissions"
    for student in sorted(p for p in subs.iterdir() if p.is_dir()):
        for lab_dir in sorted(p for p in student.iterdir() if p.is_dir() and p.name in lab_list):
            shutil.copytree(lab_dir, out / "submitted" / student.name / lab_dir.name)
    return out


def release_demo(course: Path, lab_list: list[str]) -> int:
    """``nbgrader generate_assignment`` for each lab inside the demo course (its release/ and gradebook)."""
    for lab in lab_list:
        proc = subprocess.run([sys.executable, "-m", "nbgrader", "generate_assignment", lab, "--force",
                               "--log-level=WARN"], cwd=course, env=tool_env(), capture_output=True, text=True)
        if proc.returncode:
            print(f"nbgrader generate_assignment {lab} failed:\n{proc.stdout}{proc.stderr[-2000:]}")
            return proc.returncode
    return 0


def run_demo(root: Path, jobs: int | None = None, update_expected: bool = False, only: list[str] | None = None,
             out: Path | None = None) -> int:
    """Grade the demo class in a fresh demo course (`out`, default build/demo-course); 0 when all is as expected.

    `only` grades a subset of the labs (the expected table is then compared on those labs only).
    """
    root = Path(root).resolve()
    if only and update_expected:
        raise ValueError("--update-expected rewrites the whole table: run it on every lab")
    previous = os.environ.get("COURSE_DB_URL")
    course = Path(out) if out else root / DEMO_COURSE
    # nbgrader_config.py reads COURSE_DB_URL: point it at the demo's own gradebook while the demo runs.
    os.environ["COURSE_DB_URL"] = "sqlite:///" + str(course.resolve() / "gradebook.db")
    try:
        return _run_demo(root, course, jobs, update_expected, only)
    finally:
        if previous is None:
            os.environ.pop("COURSE_DB_URL", None)
        else:
            os.environ["COURSE_DB_URL"] = previous


def _run_demo(root: Path, course: Path, jobs: int | None, update_expected: bool, only: list[str] | None) -> int:
    from nbgrader.api import Gradebook, MissingEntry

    changed = stamp_all(root)  # the set-up cells and links, as `make release` writes them
    if changed:
        print(f"stamped the set-up cell and links into {len(changed)} notebook(s)")
    lab_list = [lab for lab in labs_in(root) if (root / "release" / lab).is_dir() and (not only or lab in only)]
    missing = sorted(set(only or ()) - set(lab_list))
    if missing:
        print(f"no such lab in source/ and release/: {', '.join(missing)}")
        return 2
    subs = root / "demo" / "submissions"
    if not all((subs / "perfect" / lab).is_dir() for lab in lab_list):
        print("demo class missing a lab in demo/submissions: building it")
        build_demo_class(root)
    course = make_demo_course(root, course, lab_list)
    print(f"demo course: {course} (a fresh copy; the course's own gradebook and folders are not touched)")
    if release_demo(course, lab_list):
        return 1
    bad = 0
    for lab in lab_list:
        problems = check_release(course, lab)
        print(f"release/{lab}: " + ("ok (only the stubs fail, nothing private)" if not problems else "PROBLEMS"))
        for p in problems:
            print(f"  {p}")
        bad += len(problems)
    for lab in lab_list:
        report = grade(course, lab, jobs=jobs, cell_timeout=DEMO_CELL_TIMEOUT)
        print(report.summary(), flush=True)
        if not any((course / "autograded").glob(f"*/{lab}")):
            continue
        proc = subprocess.run([sys.executable, "-m", "nbgrader", "generate_feedback", lab, "--force", "--log-level=ERROR"],
                              cwd=course, env=tool_env(), capture_output=True, text=True)
        if proc.returncode:
            print(f"generate_feedback {lab} failed:\n{proc.stderr[-2000:]}")
            bad += 1
    (course / "exports").mkdir(exist_ok=True)
    proc = subprocess.run([sys.executable, "-m", "nbgrader", "export", "--to", str(course / "exports" / "grades.csv"),
                           "--log-level=ERROR"], cwd=course, env=tool_env(), capture_output=True, text=True)
    if proc.returncode:
        print(f"nbgrader export failed:\n{proc.stderr[-2000:]}")
        bad += 1
    students = sorted(p.name for p in subs.iterdir() if p.is_dir())
    table: dict[tuple[str, str], float] = {}
    with Gradebook(db_url(course), course_id(course)) as gb:
        maxima = {lab: gb.find_assignment(lab).max_score for lab in lab_list}
        for s in students:
            for lab in lab_list:
                try:
                    table[(s, lab)] = gb.find_submission(lab, s).score
                except MissingEntry:
                    table[(s, lab)] = 0.0
    width = max(len(s) for s in students) + 2
    print("\n" + "student".ljust(width) + "".join(lab[:14].rjust(16) for lab in lab_list))
    print(" " * width + "".join(f"/{maxima[lab]:g}".rjust(16) for lab in lab_list))
    for s in students:
        print(s.ljust(width) + "".join(f"{table[(s, lab)]:g}".rjust(16) for lab in lab_list))
    print(f"\nthe demo's results lie in its own course, {course}:")
    print(f"feedback: {course / 'feedback'}/<student>/<lab>/<lab>.html")
    print(f"grades:   {course / 'exports' / 'grades.csv'}")
    print(f"gradebook: {course / 'gradebook.db'}")
    from coursetools.grading.report import write_report

    for lab in lab_list:
        paths = write_report(course, lab)
        print(f"class report of {lab}: {paths['html']}")
    bad += run_demo_tournaments(course, lab_list)
    expected_path = root / "demo" / "expected.csv"
    if update_expected or not expected_path.is_file():
        with open(expected_path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["student", "lab", "score"])
            for (s, lab), score in sorted(table.items()):
                w.writerow([s, lab, f"{score:g}"])
        print(f"wrote {expected_path}: review it before committing")
        return 1 if bad else 0
    expected = {key: v for key, v in read_expected(expected_path).items() if key[1] in lab_list}
    diffs = [f"{s} {lab}: expected {expected.get((s, lab))}, got {score:g}"
             for (s, lab), score in sorted(table.items()) if expected.get((s, lab)) != score]
    diffs += [f"{s} {lab}: expected {v:g}, not graded" for (s, lab), v in expected.items() if (s, lab) not in table]
    for d in diffs:
        print(f"DIFFERS {d}")
    print("demo: all scores as expected" if not diffs else f"demo: {len(diffs)} score(s) differ from {expected_path}")
    return 1 if diffs or bad else 0


def run_demo_tournaments(root: Path, lab_list: list[str]) -> int:
    """The class tournament of each graded lab that has one (`coursetools.tournament.runner`); how many failed."""
    from coursetools.tournament.runner import EVENTS, find_event, run_tournament

    bad = 0
    for lab in lab_list:
        if lab not in EVENTS:
            continue
        try:
            t, paths = run_tournament(root, lab, progress=None, **dict(find_event(lab).demo))
        except Exception as exc:  # noqa: BLE001 - say which lab, keep the rest of the demo
            print(f"tournament of {lab} FAILED: {type(exc).__name__}: {exc}")
            bad += 1
            continue
        faulty = sorted(p.shown for p in t.players if p.faults)
        print(f"tournament of {lab}: {len(t.players)} agents, {len(t.games)} games in {t.seconds:.1f} s "
              f"(kernels started in {t.load_seconds:.1f} s) "
              f"(lost by a fault: {', '.join(faulty) or 'none'}): {paths['html']}")
    return bad
