"""Bad submissions through the real nbgrader (via `coursetools.grading.autograde`, real kernels, no mocks).

One toy class (`coursetools.quality.toycourse`: `add` tested for 1 + 2 points, `mul` for 2) holds a
perfect student, an empty one and every kind of submission that has broken autograders.
For each: grading finishes, the student gains no point they did not earn, the other
students are unaffected and nothing in submitted/ changes.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Gradebook

from coursetools.grading.autograde import grade
from coursetools.quality.toycourse import LAB, PERFECT, make_toy_course, remove_course, toy_submission

ADD = "# %% add_solution\ndef add(a, b):\n    return a + b\n"
WRONG_MUL = "# %% mul_solution\ndef mul(a, b):\n    return a + b\n"


def mul(body: str) -> str:
    return ADD + "# %% mul_solution\n" + body + "\n"


# student -> (answers, expected score); answers None means the release notebook untouched
CASES: dict[str, tuple[str | None, float]] = {
    "perfect": (PERFECT, 5),
    "perfect_too": (PERFECT, 5),
    "empty": (None, 0),
    "python_loop": (mul("def mul(a, b):\n    while True:\n        pass"), 3),
    "stuck_in_c": (mul("import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\ntime.sleep(10**6)"), 3),
    "kills_kernel": (mul("def mul(a, b):\n    return a * b\nimport os\nos._exit(1)"), 3),
    "kills_kernel_first": ("# %% add_solution\nimport os\nos._exit(0)\n"
                           "# %% mul_solution\ndef mul(a, b):\n    return a * b\n", 0),
    "memory_hog": (mul("def mul(a, b):\n    hog = bytearray(6 * 1024**3)\n    return a * b"), 3),
    "sys_exit_in_function": (mul("import sys\ndef mul(a, b):\n    sys.exit(0)"), 3),
    "system_exit_after_answer": (mul("def mul(a, b):\n    return a * b\nraise SystemExit(1)"), 5),
    "prints_megabytes": (mul("print('x' * 5_000_000)\nfor _ in range(300):\n    print('y' * 50_000)\n"
                             "def mul(a, b):\n    return a * b"), 5),
    "warns_on_stderr": (mul("import warnings\ndef mul(a, b):\n    warnings.warn('ints only, please')\n    return a * b"), 5),
    "deleted_failing_test": (ADD + WRONG_MUL, 3),
    "deleted_passing_test": (PERFECT, 5),
    "edited_test": (ADD + WRONG_MUL, 3),
    "untagged_test": (ADD + WRONG_MUL, 3),
    "hides_tracebacks": (mul("import sys\nget_ipython().showtraceback = lambda *a, **k: None\n"
                             "sys.excepthook = lambda *a: None\ndef mul(a, b):\n    return a + b"), 3),
    "equal_to_everything": (mul("class Anything(int):\n    def __eq__(self, other):\n        return True\n"
                                "    __hash__ = int.__hash__\ndef mul(a, b):\n    return Anything(0)"), 3),
    "patches_builtins": (mul("import builtins\nclass Anything:\n    def __eq__(self, other):\n        return True\n"
                             "builtins.type = lambda *a: int\ndef mul(a, b):\n    return Anything()"), 3),
    "debug_on_stderr": (mul("import logging, sys\ndef mul(a, b):\n    print('debug', a, b, file=sys.stderr)\n"
                            "    logging.warning('still here')\n    return a * b\nprint('loaded', file=sys.stderr)"), 5),
    "prints_the_secret_seed": (mul("import os\nprint('seed:', os.environ.get('COURSE_SECRET_SEED'))\n"
                                   "def mul(a, b):\n    return a + b"), 3),
    "verbose_tracebacks": (mul("get_ipython().run_line_magic('xmode', 'Verbose')\ndef mul(a, b):\n    return a + b"), 3),
    "rewrites_later_cells": (mul("get_ipython().input_transformers_post.append(lambda lines: ['pass\\n'])\n"
                                 "def mul(a, b):\n    return a + b"), 3),
}
SEED = "toy-secret-phrase-4711"
UNUSABLE = {"not_json": b"{ this is not json", "not_a_notebook": b'{"hello": "world"}'}


def _edit(path: Path, student: str) -> None:
    nb = nbformat.read(path, as_version=4)
    ids = [c.metadata.get("nbgrader", {}).get("grade_id") for c in nb.cells]
    if student == "deleted_failing_test":
        del nb.cells[ids.index("test_mul")]
    elif student == "deleted_passing_test":
        del nb.cells[ids.index("test_add_hidden")]
    elif student == "edited_test":
        nb.cells[ids.index("test_mul")].source = "pass"
    elif student == "untagged_test":
        cell = nb.cells[ids.index("test_mul")]
        cell.metadata = {}
        cell.source = "print('all good')"
    else:
        return
    nbformat.write(nb, path)


def _tree_digest(folder: Path) -> dict[str, tuple[str, int]]:
    return {str(p.relative_to(folder)): (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mode)
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def hardened(tmp_path_factory):
    course = make_toy_course(tmp_path_factory.mktemp("hardening") / "course",
                             config_extra="c.Execute.timeout = 4\nc.GuardedExecute.stuck_grace = 3\n")
    for student, (answers, _) in CASES.items():
        path = toy_submission(course, student, answers or "")
        _edit(path, student)
    for student, data in UNUSABLE.items():
        folder = course / "submitted" / student / LAB
        folder.mkdir(parents=True)
        (folder / f"{LAB}.ipynb").write_bytes(data)
    before = _tree_digest(course / "submitted")
    old = os.environ.get("COURSE_KERNEL_MEMORY_MB")
    os.environ["COURSE_KERNEL_MEMORY_MB"] = "1024"  # the kernel launcher caps each grading kernel at 1 GB here
    os.environ["COURSE_SECRET_SEED"] = SEED  # the grader's; a kernel must never see it
    try:
        report = grade(course, LAB, jobs=2, progress=None, submission_timeout=120)
    finally:
        del os.environ["COURSE_SECRET_SEED"]
        if old is None:
            del os.environ["COURSE_KERNEL_MEMORY_MB"]
        else:
            os.environ["COURSE_KERNEL_MEMORY_MB"] = old
    with Gradebook("sqlite:///" + str(course / "gradebook.db"), "adversarial-search") as gb:
        scores = {s.student_id: s.score for s in gb.assignment_submissions(LAB)}
    yield {"course": course, "report": report, "scores": scores, "before": before}
    remove_course(course)


@pytest.mark.parametrize("student", sorted(CASES))
def test_hardening_each_bad_submission_scores_only_what_it_earned(hardened, student):
    result = hardened["report"].results[student]
    assert result.status == "graded", f"{student} was not graded: {result.reason}"
    assert hardened["scores"][student] == CASES[student][1], (
        f"{student}: gradebook says {hardened['scores'][student]}, expected {CASES[student][1]}")


def test_hardening_unusable_files_are_reported_with_zero(hardened):
    for student in UNUSABLE:
        result = hardened["report"].results[student]
        assert result.status == "not graded"
        assert "not a valid notebook" in result.reason, result.reason
        assert hardened["scores"][student] == 0
        assert student in hardened["report"].summary()


def test_hardening_nothing_submitted_is_changed(hardened):
    assert _tree_digest(hardened["course"] / "submitted") == hardened["before"]


def test_hardening_dead_kernel_zeroes_later_cells_with_a_message(hardened):
    nb = nbformat.read(hardened["course"] / "autograded" / "kills_kernel" / LAB / f"{LAB}.ipynb", as_version=4)
    outputs = {c.metadata.get("nbgrader", {}).get("grade_id"): c.get("outputs", []) for c in nb.cells}
    assert [o.ename for o in outputs["mul_solution"] if o.output_type == "error"] == ["KernelDied"]
    assert [o.ename for o in outputs["test_mul"] if o.output_type == "error"] == ["NotRun"]
    assert [o.output_type for o in outputs["test_add_hidden"]] == ["stream"], "tests before the crash keep their verdict"
    assert "passed" in outputs["test_add_hidden"][0].text


def test_hardening_stuck_kernel_is_stopped_and_reported(hardened):
    nb = nbformat.read(hardened["course"] / "autograded" / "stuck_in_c" / LAB / f"{LAB}.ipynb", as_version=4)
    enames = [o.ename for c in nb.cells for o in c.get("outputs", []) if o.output_type == "error"]
    assert "KernelStuck" in enames and "NotRun" in enames, enames


def test_hardening_output_is_capped(hardened):
    path = hardened["course"] / "autograded" / "prints_megabytes" / LAB / f"{LAB}.ipynb"
    assert path.stat().st_size < 1_000_000
    assert "output truncated by the grader" in path.read_text()


def test_hardening_no_kernel_sees_the_secret_seed_or_hidden_lines(hardened):
    """The hidden checks run in the grader; the kernel's environment has none of the instructor's variables."""
    from coursetools.quality.toycourse import HIDDEN_MARKER

    for student in ("prints_the_secret_seed", "verbose_tracebacks"):
        text = (hardened["course"] / "autograded" / student / LAB / f"{LAB}.ipynb").read_text()
        assert SEED not in text, student
        assert HIDDEN_MARKER not in _outputs_text(text), student
    assert "seed: None" in _outputs_text((hardened["course"] / "autograded" / "prints_the_secret_seed" / LAB
                                          / f"{LAB}.ipynb").read_text())


def _outputs_text(text: str) -> str:
    import json

    nb = json.loads(text)
    return json.dumps([c.get("outputs", []) for c in nb["cells"]])


def test_hardening_stderr_never_decides_a_verdict(hardened):
    nb = nbformat.read(hardened["course"] / "autograded" / "debug_on_stderr" / LAB / f"{LAB}.ipynb", as_version=4)
    test = next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "test_mul")
    assert not any(o.output_type == "error" for o in test.outputs)
    assert any("debug 2 3" in o.get("text", "") for o in test.outputs), "the debug output stays visible"
