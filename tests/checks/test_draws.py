"""Hidden cases drawn for each submission: from the secret seed, the student's id and the submission's timestamp.

The same submission regraded meets the same cases; another timestamp meets other secret cases, as many and of the
same kinds, beside the same fixed cases; and a bank entry scores the same whatever the timestamp."""

from __future__ import annotations

import math
import random
import re
from pathlib import Path

import nbformat
import pytest

from coursetools.checks import common
from coursetools.checks.lab04 import cases as lab04
from coursetools.checks.lab07 import cases as lab07
from coursetools.course.labfiles import solution_answers
from coursetools.hidden import CheckFailed, check
from coursetools.quality.submission import parse_answers

ROOT = Path(__file__).resolve().parents[2]
STAMPS = [f"2026-11-{day:02d} {hour:02d}:17:03.{day * hour:06d} UTC" for day, hour in zip(range(1, 21), range(3, 23))]


def _cases(make) -> list[tuple[str, str]]:
    """(id, a picture of the case) of every case `make()` draws."""
    return [(c.id, repr((c.state, c.args[:1], c.args[2:]))) for c in make()]


def _kind(case_id: str) -> str:
    """A case's kind: its id without numbers (``secret-2@end-1+1`` is ``secret-@end-+``)."""
    return re.sub(r"\d+", "", case_id)


@pytest.fixture
def secret(monkeypatch):
    monkeypatch.setenv("COURSE_SECRET_SEED", "draws-test-seed")


@pytest.mark.parametrize("make", [lab07.games, lab07.rollouts, lab04.clock], ids=["07-games", "07-rollouts", "04-clock"])
def test_a_submission_meets_its_own_draw_and_the_same_one_when_regraded(secret, make):
    with common.for_student("ada", STAMPS[0]):
        first = _cases(make)
    with common.for_student("ada", STAMPS[0]):
        again = _cases(make)
    with common.for_student("ada", STAMPS[1]):
        later = _cases(make)
    assert first == again
    assert [_kind(i) for i, _ in first] == [_kind(i) for i, _ in later], "the same kinds of case, as many"
    fixed = [(i, c) for i, c in first if not i.startswith(("secret", "yours"))]
    assert fixed and fixed == [(i, c) for i, c in later if not i.startswith(("secret", "yours"))]
    drawn = [c for i, c in first if i.startswith(("secret", "yours"))]
    assert drawn and drawn != [c for i, c in later if i.startswith(("secret", "yours"))]


def _lab07(entry: str | None) -> dict:
    """Lab 07's graded functions: the solution, with a bank entry's cells in place of its own."""
    source = ROOT / "source" / "07_mcts" / "07_mcts.ipynb"
    nb = nbformat.read(source, as_version=4)
    answers = solution_answers(source)
    if entry:
        answers.update(parse_answers((ROOT / "bank" / "07_mcts" / f"{entry}.py").read_text()))
    namespace: dict = {"math": math, "random": random}
    exec(next(c.source for c in nb.cells if c.cell_type == "code" and "class Node" in c.source), namespace)
    for code in answers.values():
        exec(code, namespace)
    return namespace


GROUPS_07 = {"ucb1": ("ucb1",), "rollout": ("rollout",), "search_games": ("mcts_search",)}


def _failing(fns: dict) -> list[str]:
    out = []
    for group, names in GROUPS_07.items():
        try:
            check("07_mcts", group, **{n: fns[n] for n in names})
        except CheckFailed:
            out.append(group)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("entry, failing", [(None, []), ("ucb_no_sqrt", ["ucb1"]),
                                            ("ucb_root_counts", ["search_games"])])
def test_lab07_a_bank_entry_scores_the_same_under_twenty_timestamps(secret, entry, failing):
    fns = _lab07(entry)
    for stamp in STAMPS:
        with common.for_student("bank", stamp):
            assert _failing(fns) == failing, stamp


def test_the_grader_reads_the_timestamp_nbgrader_reads(tmp_path):
    """The preprocessor seeds a submission's draw with the ``timestamp.txt`` beside the notebook it grades (the file
    nbgrader records in the gradebook); without one, the student's id alone."""
    from coursetools.grading.preprocessors import submission_timestamp

    (tmp_path / "timestamp.txt").write_text("2026-11-26 04:16:33.000000 UTC\n")
    assert submission_timestamp({"metadata": {"path": str(tmp_path)}}) == "2026-11-26 04:16:33.000000 UTC"
    assert submission_timestamp({"metadata": {"path": str(tmp_path / "missing")}}) is None
    assert submission_timestamp({}) is None
