"""Lab 02's hidden tests without nbgrader: the public positions are what their names say, the
probes tell the classic mistakes apart, each mistake costs points in its own group only, and
nothing else gets points."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from coursetools.bank import solution_answers
from coursetools.checks import common, lab02, reference
from coursetools.hidden import CheckFailed

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "source" / "02_minimax" / "02_minimax.ipynb"
VALUE_GROUPS = ["value", "value_second_player", "value_trace"]
DECISION_GROUPS = ["decision", "decision_second_player", "decision_ties", "decision_trace"]


def _run(group: str, fn) -> str:
    """'' when the group passes `fn`, else its message."""
    try:
        getattr(lab02, f"check_{group}")(fn)
    except CheckFailed as failure:
        return str(failure)
    return ""


def _as_student(model, flags):
    def student(game, state):
        return model(game, state, flags)

    return student


def _signature(model, kind, flags) -> tuple:
    out = []
    for case in lab02._probe_cases(kind):
        run = lab02.run_model(model, case, flags)
        out.append((repr(run.result), tuple(map(repr, run.leaves)), tuple(map(repr, run.generated))))
    return tuple(out)


# -- the public cases ------------------------------------------------------------------------

def test_lab02_public_positions_are_what_their_names_say():
    for text in lab02.TTT["x_unique"]:
        case = lab02.ttt_case(text)
        assert case.game.to_move(case.state) == "X" and lab02._kind(case.game, case.state) == "unique", text
    assert sum(reference.minimax_decision(c.game, c.state)[0] > 0
               for c in map(lab02.ttt_case, lab02.TTT["x_unique"])) >= 5  # best move outside the top row
    for text in lab02.TTT["o_unique"]:
        case = lab02.ttt_case(text)
        assert case.game.to_move(case.state) == "O" and lab02._kind(case.game, case.state) == "unique", text
    for text in lab02.TTT["x_ties"]:
        case = lab02.ttt_case(text)
        assert case.game.to_move(case.state) == "X" and lab02._kind(case.game, case.state) == "tie", text
    differ = 0
    for text in lab02.TTT["quick"]:
        case = lab02.ttt_case(text)
        assert case.state.board.count(".") <= 9  # every game ends within 9 plies: 10 - d stays positive
        differ += lab02.reference_quick_win(case.game, case.state) != reference.minimax_decision(case.game, case.state)
    assert differ == len(lab02.TTT["quick"])
    for key, player in [("x_unique", "X"), ("o_unique", "O"), ("x_ties", "X")]:
        for moves in lab02.C4[key]:
            case = lab02.c4_case(moves)
            assert case.game.to_move(case.state) == player and not case.game.is_terminal(case.state)
            assert lab02._kind(case.game, case.state) == key.split("_")[1].rstrip("s"), moves


def test_lab02_nim_starts_follow_the_xor_rule():
    for heaps in lab02.nim_xor_cases():
        case = lab02.nim_case(heaps)
        assert reference.minimax_value(case.game, case.state) == lab02.xor_value(heaps), heaps


def test_lab02_secret_seed_adds_positions_and_is_repeatable(monkeypatch):
    keep = lambda g, s: g.to_move(s) == "X"  # noqa: E731
    public = lab02._seeded_positions("value", keep, 2)
    monkeypatch.setattr(common, "secret_seed", lambda: "an instructor's seed")
    first, again = lab02._seeded_positions("value", keep, 2), lab02._seeded_positions("value", keep, 2)
    assert [c.name for c in first] == [c.name for c in again] and len(first) > len(public)
    monkeypatch.setattr(common, "secret_seed", lambda: "another seed")
    assert [c.name for c in lab02._seeded_positions("value", keep, 2)] != [c.name for c in first]


# -- profiles ---------------------------------------------------------------------------------

def test_lab02_probes_tell_every_value_mistake_apart():
    signatures = {_signature(lab02.model_value, "value", f) for f in lab02.VALUE_FLAGS}
    assert len(signatures) == len(lab02.VALUE_FLAGS)


def test_lab02_decision_profiles_reproduce_the_student():
    """Flags the probes cannot tell apart behave the same: the profile found reproduces the probes."""
    groups = defaultdict(list)
    for f in lab02.DECISION_FLAGS:
        groups[_signature(lab02.model_decision, "decision", f)].append(f)
    assert len(groups) >= 30
    for flags in [lab02.Flags(tie="last"), lab02.Flags(early="origin"), lab02.Flags(view="first", order="reversed"),
                  lab02.Flags(returns="value", alternate=False)]:
        found = lab02._profile(_as_student(lab02.model_decision, flags), "decision")
        assert _signature(lab02.model_decision, "decision", found) == _signature(lab02.model_decision, "decision", flags)


def test_lab02_unknown_behaviour_leaves_the_profile_unknown():
    assert lab02._profile(lambda g, s: "a string", "value") is None
    assert lab02._profile(lambda g, s: 1 / 0, "decision") is None


# -- each mistake in its own group -------------------------------------------------------------

@pytest.mark.parametrize("flags, home", [
    (lab02.Flags(alternate=False), "value"),
    (lab02.Flags(returns="move"), "value"),
    (lab02.Flags(view="first"), "value_second_player"),
    (lab02.Flags(order="reversed"), "value_trace"),
    (lab02.Flags(), None),
])
def test_lab02_value_mistake_costs_its_home_group_only(flags, home):
    student = _as_student(lab02.model_value, flags)
    failed = {g for g in VALUE_GROUPS if _run(g, student)}
    assert failed == ({home} if home else set())


@pytest.mark.parametrize("flags, home, hint", [
    (lab02.Flags(returns="value"), "decision", "return the action"),
    (lab02.Flags(early="origin"), "decision", "return inside the loop over the board's rows"),
    (lab02.Flags(early="first"), "decision", "return inside the loop"),
    (lab02.Flags(view="first"), "decision_second_player", "wrong perspective"),
    (lab02.Flags(tie="last"), "decision_ties", "first best action"),
    (lab02.Flags(order="reversed"), "decision_trace", "actions() order"),
])
def test_lab02_decision_mistake_costs_its_home_group_only(flags, home, hint):
    student = _as_student(lab02.model_decision, flags)
    messages = {g: _run(g, student) for g in DECISION_GROUPS}
    assert {g for g, m in messages.items() if m} == {home}
    assert hint in messages[home]


def test_lab02_solution_passes_every_group():
    ns: dict = {"math": __import__("math")}
    for source in solution_answers(SOURCE).values():
        exec(source, ns)
    for group in VALUE_GROUPS:
        assert _run(group, ns["minimax_value"]) == "", group
    for group in DECISION_GROUPS:
        assert _run(group, ns["minimax_decision"]) == "", group
    assert _run("quick_win", ns["quick_win_decision"]) == ""
    assert "lazy win" in _run("quick_win", ns["minimax_decision"])


def test_lab02_look_alike_and_constant_answers_get_no_points():
    class Anything:
        def __eq__(self, other):
            return True

        def __ne__(self, other):
            return False

    for group in VALUE_GROUPS[:2]:
        assert _run(group, lambda g, s: Anything()) != ""
    for group in DECISION_GROUPS:
        assert _run(group, lambda g, s: None) != "", group
    assert _run("decision_ties", lambda g, s: g.actions(s)[0]) != ""
