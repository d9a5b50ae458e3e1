"""Hidden cases drawn for each submission, in every lab, end to end through the hidden checks.

For each lab: the same submission regraded meets the same cases and gets the same grade and messages; another
timestamp meets other secret cases, as many and of the same kinds, beside the same fixed cases (the public ones,
which hold every group's discriminating trees); and a buggy bank entry of the lab loses points in the same groups
under 20 timestamps. The groups run through `coursetools.hidden.check`, as a hidden cell calls them, with the
lab's solutions in a namespace and the entry's cells in place of its own.
"""

from __future__ import annotations

import contextlib
import csv
import io
import math
import os
import random
import re
from pathlib import Path
from typing import Any, Callable

import nbformat
import pytest

from coursetools.checks import common
from coursetools.checks.lab01 import cases as lab01
from coursetools.checks.lab02 import cases as lab02
from coursetools.checks.lab03 import cases as lab03
from coursetools.checks.lab04 import cases as lab04
from coursetools.checks.lab05 import cases as lab05
from coursetools.checks.lab06 import cases as lab06
from coursetools.checks.lab07 import cases as lab07
from coursetools.checks.lab08 import cases as lab08
from coursetools.course.labfiles import solution_answers
from coursetools.hidden import CheckFailed, check
from coursetools.labs import LABS
from coursetools.quality.submission import parse_answers
from course_lib.games import GameTree

ROOT = Path(__file__).resolve().parents[2]
STAMPS = [f"2026-11-{day:02d} {hour:02d}:41:09.{day * hour:06d} UTC" for day, hour in zip(range(1, 21), range(2, 22))]

#: How each lab draws its cases: a few of its groups' case lists (each a list of `Case`s or of Nim heaps).
DRAWS: dict[str, list[Callable[[], list]]] = {
    "01_game_trees": [lambda: lab01.games("count_nodes"), lambda: _nim("nim_rules")],
    "02_minimax": [lambda: lab02.value_second_player("value_second_player"), lab02.decision_cases],
    "03_alphabeta": [lambda: lab03.cases("pruning"), lambda: lab03.cases("window")],
    "04_move_ordering": [lambda: lab04.tree_cases("tt_trees"), lab04.clock],
    "05_heuristics": [lab05.value_cutoff_cases, lab05.decision_cases, lab05.quiescence_cases],
    "06_beyond_two_players": [lambda: lab06.cases("maxn_shallow"), lambda: lab06.cases("expectimax_dice")],
    "07_mcts": [lab07.games, lab07.rollouts],
    "08_learning": [lab08.td_rows, lab08.self_play, lab08.td_leaf],
}

#: A buggy bank entry of each lab, and the groups it is graded in here (the ones it fails and some it passes).
ENTRIES = {
    "01_game_trees": ("count_nodes_no_root", ["count_nodes", "tree_stats_depth", "nim_rules"]),
    "02_minimax": ("value_first_player_view", ["value_second_player", "value_trace", "decision_second_player"]),
    "03_alphabeta": ("strict_pruning", ["equality", "pruning", "window"]),
    "04_move_ordering": ("tt_ignores_depth", ["tt_depth", "tt_trees", "ordered_trace"]),
    "05_heuristics": ("depth_off_by_one", ["value_cutoff", "value_games", "decision"]),
    "06_beyond_two_players": ("shallow_strict", ["maxn_shallow", "maxn_trees", "expectimax_trees"]),
    "07_mcts": ("ucb_root_counts", ["search_games", "search_trees", "ucb1"]),
    "08_learning": ("target_wrong_view", ["move_values", "td_update", "self_play"]),
}


@pytest.fixture
def secret(monkeypatch):
    monkeypatch.setenv("COURSE_SECRET_SEED", "draws-of-every-lab")


def _nim(group: str) -> list[tuple]:
    """Lab 01's Nim heaps of `group` with an id each: the public and seeded ones first, then the secret ones."""
    fixed = len(lab01.NIM_HEAPS[group]) + lab01.NIM_SEEDED[group]
    return [(f"nim-{i}" if i < fixed else f"secret-nim-{i}", h) for i, h in enumerate(lab01.heaps(group))]


def _picture(item: Any) -> tuple:
    """A case as data: its id, and its game and state (a tree by its shape and values), or Nim heaps as they are."""
    if isinstance(item, tuple):
        return item
    game = item.game
    shape = (repr(game.nodes()), repr([game.value(n) for n in game.leaves()])) if isinstance(game, GameTree) else \
        (type(game).__name__, repr(getattr(game, "__dict__", ""))[:300])
    return (item.id, shape, repr(item.state)[:300], re.sub(r" at 0x[0-9a-f]+", "", repr(item.args))[:300])


def _draw(lab: str, student: str | None, stamp: str | None) -> list[list[tuple]]:
    with common.for_student(student, stamp):
        return [[_picture(item) for item in make()] for make in DRAWS[lab]]


def _secret(picture: tuple) -> bool:
    return str(picture[0]).startswith(("secret", "yours"))


def _kinds(pictures: list[tuple]) -> list[str]:
    """Each case's kind: its id without numbers, up to where a position is written (``secret-ttt-X.O/...``)."""
    return [re.sub(r"[^a-z@+_-].*", "", re.sub(r"\d+", "", str(p[0]))) for p in pictures]


def test_every_lab_has_its_draws_and_an_entry():
    assert sorted(DRAWS) == sorted(LABS) == sorted(ENTRIES)


@pytest.mark.parametrize("lab", LABS)
def test_a_submission_meets_its_own_draw_again_and_another_timestamp_another_draw(secret, lab):
    first, again, later = _draw(lab, "ada", STAMPS[0]), _draw(lab, "ada", STAMPS[0]), _draw(lab, "ada", STAMPS[1])
    public = _draw(lab, None, None)
    assert first == again, "the same submission regraded meets the same cases"
    for mine, other, fixed in zip(first, later, public):
        assert len(mine) == len(other) and _kinds(mine) == _kinds(other), "the same kinds of case, as many"
        kept = [p for p in mine if not _secret(p)]
        assert kept and kept == [p for p in other if not _secret(p)], "the same fixed cases in every draw"
        assert kept == [p for p in fixed if not _secret(p)], "the fixed cases are the public ones"
    drawn = [[p for p in lists if _secret(p)] for lists in first]
    assert any(drawn), f"{lab} draws no secret case"
    assert drawn != [[p for p in lists if _secret(p)] for lists in later], "another timestamp, other secret cases"


def _namespace(lab: str, entry: str | None) -> dict:
    """The lab's definitions and solutions, run as the notebook runs them, with `entry`'s cells in place of its own
    (demonstrations that stop on a buggy function are passed over: only the definitions matter here)."""
    source = ROOT / "source" / lab / f"{lab}.ipynb"
    answers = solution_answers(source)
    if entry:
        answers.update(parse_answers((ROOT / "bank" / lab / f"{entry}.py").read_text()))
    ns: dict = {"math": math, "random": random}
    before = os.environ.get("NBGRADER_EXECUTION")
    os.environ["NBGRADER_EXECUTION"] = "autograde"  # the notebooks skip their long demonstrations then
    try:
        for cell in nbformat.read(source, as_version=4).cells:
            meta = cell.get("metadata", {}).get("nbgrader", {})
            if cell.cell_type != "code" or meta.get("grade") or "colab-setup" in cell.metadata.get("tags", []):
                continue
            code = answers[meta["grade_id"]] if meta.get("solution") else cell.source
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    exec(code, ns)
            except Exception:  # noqa: BLE001 - a demonstration of a buggy function
                if meta.get("solution"):
                    raise
    finally:
        if before is None:
            os.environ.pop("NBGRADER_EXECUTION", None)
        else:
            os.environ["NBGRADER_EXECUTION"] = before
    return ns


def _calls(lab: str) -> dict[str, dict[str, str]]:
    """Each group's hidden call in the source: group -> {argument: name in the notebook}."""
    text = (ROOT / "source" / lab / f"{lab}.ipynb").read_text()
    out = {}
    for m in re.finditer(r'check\(\\"[^\\]+\\", \\"(\w+)\\"((?:, \w+=\w+)*)\)', text):
        out[m.group(1)] = dict(re.findall(r"(\w+)=(\w+)", m.group(2)))
    return out


def _grade(lab: str, ns: dict, groups: list[str], calls: dict) -> dict[str, str]:
    """The message of each group that fails ('' for none), run as a hidden cell runs it."""
    out = {}
    for group in groups:
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                check(lab, group, **{arg: ns[name] for arg, name in calls[group].items()})
        except CheckFailed as failure:
            out[group] = str(failure)
    return out


def _expected(lab: str, entry: str, groups: list[str]) -> list[str]:
    with open(ROOT / "bank" / lab / "expected.csv", newline="") as f:
        failing = next(row["failing"].split() for row in csv.DictReader(f) if row["entry"] == entry)
    return [g for g in groups if f"test_{g}" in failing]


@pytest.mark.slow
@pytest.mark.parametrize("lab", LABS)
def test_a_bank_entry_scores_the_same_under_twenty_timestamps(secret, lab):
    entry, groups = ENTRIES[lab]
    ns, calls, want = _namespace(lab, entry), _calls(lab), _expected(lab, entry, groups)
    assert want, f"{entry} fails none of {groups}: pick groups it fails"
    with common.for_student("bank", STAMPS[0]):
        first = _grade(lab, ns, groups, calls)
    with common.for_student("bank", STAMPS[0]):
        assert _grade(lab, ns, groups, calls) == first, "the same submission regraded: the same grade and messages"
    assert sorted(first) == sorted(want)
    for stamp in STAMPS[1:]:
        with common.for_student("bank", stamp):
            assert sorted(_grade(lab, ns, groups, calls)) == sorted(want), stamp
