"""``coursetools grade LAB --queue URL`` on real workers gives the grades of ``grade --jobs 2``; a PostgreSQL
gradebook written by two graders at once, each on its own lab.

The workers run in a course folder of their own (as on another machine): they get each submission from the
message, never from the course's submitted/, and never write its gradebook.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from nbgrader.api import Gradebook

from coursetools.grading.autograde import grade
from coursetools.quality.submission import build_submission, parse_answers
from coursetools.quality.toycourse import LAB, PERFECT, make_toy_course, remove_course, toy_submission
from coursetools.service import services as svc

ROOT = Path(__file__).resolve().parents[2]
COURSE = "adversarial-search"
ADD = "# %% add_solution\ndef add(a, b):\n    return a + b\n"
STUDENTS = {
    "ada": (PERFECT, 5),
    "ben": (ADD + "# %% mul_solution\ndef mul(a, b):\n    return a + b\n", 3),
    "dan": ("", 0),
    "eve": ("# %% add_solution\ndef add(a, b):\n    return a - b\n# %% mul_solution\ndef mul(a, b):\n    return a * b\n", 2),
}


def cell_grades(url: str, lab: str) -> dict[str, dict[str, float]]:
    """Every student's score per graded cell of `lab`."""
    out: dict[str, dict[str, float]] = {}
    with Gradebook(url, COURSE) as gb:
        for sub in gb.assignment_submissions(lab):
            for nb in sub.notebooks:
                for g in nb.grades:
                    out.setdefault(sub.student_id, {})[g.name] = g.score
    return out


def fresh_gradebook(services: dict[str, str], database: str) -> tuple[str, str]:
    """A new PostgreSQL database on the test server with nbgrader's tables in it, as the instructor makes it once:
    its libpq address (for psycopg) and its SQLAlchemy URL (for nbgrader)."""
    with psycopg.connect(services[svc.DB_ENV], autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {database}")
    libpq = services[svc.DB_ENV].replace("/course_tests?", f"/{database}?")
    url = "postgresql+psycopg" + libpq[len("postgresql"):]
    with Gradebook(url, COURSE):  # nbgrader makes its tables
        pass
    return libpq, url


def run(course: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    from coursetools import tool_env

    return subprocess.run([sys.executable, "-m", "coursetools", *args], cwd=course, capture_output=True, text=True,
                          env=tool_env(**(env or {})), timeout=900)


@pytest.fixture
def courses(tmp_path):
    """The class in two identical courses, and a third copy of the lab alone for the workers."""
    a = make_toy_course(tmp_path / "local")
    for student, (answers, _) in STUDENTS.items():
        toy_submission(a, student, answers, timestamp=f"2026-03-0{len(student)} 12:00:00.000000 UTC")
    b = tmp_path / "queued"
    shutil.copytree(a, b)
    w = tmp_path / "worker"
    (w / "source").mkdir(parents=True)
    shutil.copytree(a / "source" / LAB, w / "source" / LAB)
    shutil.copy(a / "nbgrader_config.py", w / "nbgrader_config.py")
    yield a, b, w
    for c in (a, b, w):
        remove_course(c)


@pytest.mark.slow
def test_grade_on_the_queue_equals_grade_jobs_2(courses, services, start_worker):
    local, queued, worker_course = courses
    for _ in range(2):
        start_worker(worker_course, "--threads", "1", "--queues", "grading")
    proc = run(queued, "grade", LAB, "--queue", services[svc.BROKER_ENV])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = grade(local, LAB, jobs=2, progress=None)
    expected = cell_grades("sqlite:///" + str(local / "gradebook.db"), LAB)
    got = cell_grades("sqlite:///" + str(queued / "gradebook.db"), LAB)
    assert got == expected
    assert {s: sum(c.values()) for s, c in got.items()} == {s: float(p) for s, (_, p) in STUDENTS.items()
                                                           if s in expected}
    assert {s for s, r in report.results.items() if r.status == "graded"} == set(STUDENTS)
    assert sorted(p.name for p in (queued / "autograded").iterdir()) == sorted(STUDENTS)
    for student in STUDENTS:
        assert (queued / "autograded" / student / LAB / f"{LAB}.ipynb").is_file()
    assert f"{LAB}: 4 graded, 0 already up to date, 0 not graded" in proc.stdout
    assert not (worker_course / "gradebook.db").exists() or not cell_grades(
        "sqlite:///" + str(worker_course / "gradebook.db"), LAB), "a worker wrote its own course's gradebook"
    assert not (worker_course / "submitted").exists() and not (worker_course / "autograded").exists()


@pytest.mark.slow
def test_two_graders_on_different_labs_write_one_postgresql_gradebook(tmp_path, services, monkeypatch):
    from coursetools import tool_env

    monkeypatch.setenv("PATH", tool_env()["PATH"])  # nbgrader runs alembic by name
    course = make_toy_course(tmp_path / "course")
    second = "toy2"  # the same lab under a second name: its own assignment in the gradebook
    shutil.copytree(course / "source" / LAB, course / "source" / second)
    (course / "source" / second / f"{LAB}.ipynb").rename(course / "source" / second / f"{second}.ipynb")
    subprocess.run([sys.executable, "-m", "nbgrader", "generate_assignment", second, "--force"], cwd=course,
                   capture_output=True, check=True)
    for lab, marks in ((LAB, {"ada": PERFECT, "ben": STUDENTS["ben"][0]}),
                       (second, {"ada": STUDENTS["eve"][0], "cyd": PERFECT})):
        for student, answers in marks.items():
            out = course / "submitted" / student / lab / f"{lab}.ipynb"
            build_submission(course / "release" / lab / f"{lab}.ipynb", parse_answers(answers), out)
    libpq, url = fresh_gradebook(services, "gradebook_tests")
    procs = [subprocess.Popen([sys.executable, "-m", "coursetools", "grade", lab, "--jobs", "1"], cwd=course,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              env={**os.environ, "COURSE_DB_URL": url})
             for lab in (LAB, second)]
    outputs = [p.communicate(timeout=900)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], "\n".join(outputs)
    scores = {lab: {s: sum(c.values()) for s, c in cell_grades(url, lab).items()} for lab in (LAB, second)}
    assert scores == {LAB: {"ada": 5.0, "ben": 3.0}, second: {"ada": 2.0, "cyd": 5.0}}
    sqlite = "sqlite:///" + str(course / "gradebook.db")  # made by generate_assignment before the graders ran
    assert not cell_grades(sqlite, LAB) and not cell_grades(sqlite, second), "a grader wrote the sqlite gradebook"
    with psycopg.connect(libpq) as conn:
        names = {r[0] for r in conn.execute("SELECT name FROM assignment")}
    assert names == {LAB, second}


def test_graders_adding_the_same_students_at_once_each_find_them(services, monkeypatch):
    """Threads standing for graders of different labs add the same new students at one moment (a barrier before
    each): the ones that lose the insert race find the row instead of failing, and each student is there once."""
    import threading

    from coursetools import tool_env
    from coursetools.grading.gradebook import ensure_student

    monkeypatch.setenv("PATH", tool_env()["PATH"])  # nbgrader runs alembic by name
    libpq, url = fresh_gradebook(services, "gradebook_students")
    students, graders = [f"s{i:02d}" for i in range(15)], 4
    barrier, errors = threading.Barrier(graders), []

    def grader() -> None:
        try:
            with Gradebook(url, COURSE) as gb:
                for student in students:
                    barrier.wait(timeout=60)
                    ensure_student(gb, student)
        except Exception as e:  # noqa: BLE001 - kept for the assertion, with its type
            errors.append(repr(e))
            barrier.abort()

    threads = [threading.Thread(target=grader) for _ in range(graders)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    with psycopg.connect(libpq) as conn:
        rows = [r[0] for r in conn.execute("SELECT id FROM student ORDER BY id")]
    assert rows == students
