"""Lab 02's hidden tests without nbgrader: the public positions are what their names say, the
probes tell the classic mistakes apart, each mistake costs points in its own group only, and
nothing else gets points."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from coursetools.quality.bank import solution_answers
from coursetools.checks import common, kit, lab02, reference
from coursetools.checks.lab02 import cases as data
from coursetools.checks.lab02 import profile
from coursetools.checks.lab02 import reference as ref
from coursetools.checks.nim import xor_value
from coursetools.hidden import CheckFailed

ROOT = Path(__file__).resolve().parents[2]
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
    for case in data.probes(kind):
        run = kit.run_model(lambda g, s: model(g, s, flags), case)
        out.append((repr(run.result), tuple(map(repr, run.trace.leaves())), tuple(map(repr, run.trace.generated()))))
    return tuple(out)


# -- the public cases ------------------------------------------------------------------------

def test_lab02_public_positions_are_what_their_names_say():
    for text in data.TTT["x_unique"]:
        case = data.ttt_case(text)
        assert case.game.to_move(case.state) == "X" and data.kind(case.game, case.state) == "unique", text
    assert sum(reference.minimax_decision(c.game, c.state)[0] > 0
               for c in map(data.ttt_case, data.TTT["x_unique"])) >= 5  # best move outside the top row
    for text in data.TTT["o_unique"]:
        case = data.ttt_case(text)
        assert case.game.to_move(case.state) == "O" and data.kind(case.game, case.state) == "unique", text
    for text in data.TTT["x_ties"]:
        case = data.ttt_case(text)
        assert case.game.to_move(case.state) == "X" and data.kind(case.game, case.state) == "tie", text
    differ = 0
    for text in data.TTT["quick"]:
        case = data.ttt_case(text)
        assert case.state.board.count(".") <= 9  # every game ends within 9 plies: 10 - d stays positive
        differ += ref.quick_win(case.game, case.state) != reference.minimax_decision(case.game, case.state)
    assert differ == len(data.TTT["quick"])
    for key, player in [("x_unique", "X"), ("o_unique", "O"), ("x_ties", "X")]:
        for moves in data.C4[key]:
            case = data.c4_case(moves)
            assert case.game.to_move(case.state) == player and not case.game.is_terminal(case.state)
            assert data.kind(case.game, case.state) == key.split("_")[1].rstrip("s"), moves


def test_lab02_nim_starts_follow_the_xor_rule():
    for heaps in data.nim_xor_heaps():
        case = data.nim_case(heaps)
        assert reference.minimax_value(case.game, case.state) == xor_value(heaps), heaps


def test_lab02_secret_seed_adds_positions_and_is_repeatable(monkeypatch):
    keep = lambda g, s: g.to_move(s) == "X"  # noqa: E731
    public = data.seeded_positions("value", keep, 2)
    monkeypatch.setattr(common, "secret_seed", lambda: "an instructor's seed")
    first, again = data.seeded_positions("value", keep, 2), data.seeded_positions("value", keep, 2)
    assert [c.name for c in first] == [c.name for c in again] and len(first) > len(public)
    monkeypatch.setattr(common, "secret_seed", lambda: "another seed")
    assert [c.name for c in data.seeded_positions("value", keep, 2)] != [c.name for c in first]


# -- profiles ---------------------------------------------------------------------------------

def test_lab02_probes_tell_every_value_mistake_apart():
    signatures = {_signature(ref.model_value, "value", f) for f in ref.VALUE_FLAGS}
    assert len(signatures) == len(ref.VALUE_FLAGS)


def test_lab02_decision_profiles_reproduce_the_student():
    """Flags the probes cannot tell apart behave the same: the profile found reproduces the probes."""
    groups = defaultdict(list)
    for f in ref.DECISION_FLAGS:
        groups[_signature(ref.model_decision, "decision", f)].append(f)
    assert len(groups) >= 30
    for flags in [ref.Flags(tie="last"), ref.Flags(early="origin"), ref.Flags(view="first", order="reversed"),
                  ref.Flags(returns="value", alternate=False)]:
        found = profile.profile(_as_student(ref.model_decision, flags), "decision")
        assert _signature(ref.model_decision, "decision", found) == _signature(ref.model_decision, "decision", flags)


def test_lab02_unknown_behaviour_leaves_the_profile_unknown():
    assert profile.profile(lambda g, s: "a string", "value") is None
    assert profile.profile(lambda g, s: 1 / 0, "decision") is None


# -- each mistake in its own group -------------------------------------------------------------

@pytest.mark.parametrize("flags, home, key", [
    (ref.Flags(alternate=False), "value", "alternate"),
    (ref.Flags(returns="move"), "value", "returns:move"),
    (ref.Flags(view="first"), "value_second_player", "view"),
    (ref.Flags(order="reversed"), "value_trace", "order"),
    (ref.Flags(), None, None),
])
def test_lab02_value_mistake_costs_its_home_group_only_with_exactly_its_hint(flags, home, key):
    student = _as_student(ref.model_value, flags)
    messages = {g: _run(g, student) for g in VALUE_GROUPS}
    assert {g for g, m in messages.items() if m} == ({home} if home else set())
    if home:
        assert [k for k, h in ref.HINTS.items() if h in messages[home]] == [key], messages[home]


@pytest.mark.parametrize("score, hint", [
    (lambda u, d: u, ref.LAZY_WIN), (lambda u, d: u * d, ref.QUICK_MISTAKES[1].hint), (ref.quick_score, None)])
def test_lab02_quick_win_mistakes_get_exactly_their_hint(score, hint):
    message = _run("quick_win", lambda g, s: ref.quick_win(g, s, score))
    others = {ref.LAZY_WIN, ref.FLAT_LOSS, ref.QUICK_MISTAKES[1].hint} - {hint}
    assert (hint in message if hint else message == "") and not [h for h in others if h in message], message


@pytest.mark.parametrize("flags, home, hint", [
    (ref.Flags(returns="value"), "decision", "return the action"),
    (ref.Flags(early="origin"), "decision", "return inside the loop over the board's rows"),
    (ref.Flags(early="first"), "decision", "return inside the loop"),
    (ref.Flags(view="first"), "decision_second_player", "wrong perspective"),
    (ref.Flags(tie="last"), "decision_ties", "first best action"),
    (ref.Flags(order="reversed"), "decision_trace", "actions() order"),
    (ref.Flags(turns="depth"), "decision", "takes turns by depth"),
])
def test_lab02_decision_mistake_costs_its_home_group_only(flags, home, hint):
    student = _as_student(ref.model_decision, flags)
    messages = {g: _run(g, student) for g in DECISION_GROUPS}
    assert {g for g, m in messages.items() if m} == {home}
    assert hint in messages[home]


def test_lab02_hidden_decision_group_alone_catches_the_strict_turns_entry():
    """The visible Reversi case has hidden twins: a bank decision that takes turns by depth fails them with its hint."""
    from coursetools.quality.submission import parse_answers

    ns: dict = {"math": __import__("math")}
    exec(parse_answers((ROOT / "bank" / "02_minimax" / "decision_strict_turns.py").read_text())["minimax_decision"], ns)
    message = _run("decision", ns["minimax_decision"])
    assert message.startswith("minimax_decision on Reversi 4x4 without a pass move"), message
    assert ref.HINTS["turns"] in message and "takes turns by depth" in message


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


def test_lab02_wrong_values_are_followed_below_nodes_that_are_right_alone():
    """A negamax whose leaves keep the root player's utility is right called alone on the root's children (the
    signs cancel two levels down) but wrong on their children: the hint goes down to the node above the leaves and
    shows the utilities the search asked there, names no mistake, and says nothing of the calls alone on MIN's nodes
    (valued there for MIN, not as the search from the root values them)."""

    def negamax_root_utility(game, state):
        root = game.to_move(state)

        def negamax(s):
            if game.is_terminal(s):
                return game.utility(s, root)
            return max(-negamax(game.result(s, a)) for a in game.actions(s))

        return negamax(state)

    text = _run("value", negamax_root_utility)
    assert "your values first differ from the correct ones at P1.0 > P2.0 > P1.1." in text
    assert "MAX node P1.1 with children (values for MAX) L.0 = 3, L.1 = 5." in text
    assert "Yours, called on P1.1, asked utility(L.0, 'MAX') = 3, utility(L.1, 'MAX') = 5 and returned -3." in text
    # P2.0 is MIN's node: called alone it is valued for MIN, not as the search from P1.0 values it (for MAX), so
    # that its value came out right there clears nothing and is not said.
    assert "Called alone on P2.0" not in text and "called alone" not in text
    assert "Known mistake" not in text


def test_lab02_a_decision_that_chose_another_move_gets_the_roots_choice():
    """A decision that values each move for the opponent (not negated) takes the correct steps: the hint shows every
    root move's value, the first-best rule step by step and the move returned, and names no mistake."""

    def opponent_view(game, state):
        best, best_value = None, -float("inf")
        for a in game.actions(state):
            child = game.result(state, a)
            v = ref.minimax_value(game, child) if not game.is_terminal(child) else -game.utility(
                child, game.to_move(state))
            if v > best_value:
                best, best_value = a, v
        return best

    text = _run("decision", opponent_view)
    assert "it first differs at the choice at the root P1.0." in text
    assert "MAX node P1.0 with its moves worth, for MAX: 0 (P2.0): 6, 1 (P2.1): 7." in text
    assert "(0 (6) then 1 (7)), so it returns 1.\nYours returned 0 (worth 6)." in text
    assert "Known mistake" not in text


def _children_as_max(game, state):
    """A decision whose root moves are searched as nodes of the root's player (the levels below flipped)."""
    me = game.to_move(state)

    def value(s, mine):
        if game.is_terminal(s):
            return game.utility(s, me)
        vals = [value(game.result(s, a), not mine) for a in game.actions(s)]
        return max(vals) if mine else min(vals)

    best, best_value = None, -float("inf")
    for a in game.actions(state):
        v = value(game.result(state, a), True)
        if v > best_value:
            best, best_value = a, v
    return best


def test_lab02_a_decision_with_wrong_child_values_is_shown_the_deepest_wrong_value_not_the_roots_choice():
    """The values a tree decision gives the root's moves are read from the decision itself: when one differs, the
    hint says which root move's value differs and goes down to the deepest wrong value, never to the choice at the
    root (a tie rule it does not break)."""
    text = _run("decision_ties", _children_as_max)
    assert "it first differs at the choice at the root" not in text
    assert "values the root's move 0 (P2.0) as" in text
    assert "the first child whose value differs, each time: P1.0 > P2.0" in text
    assert "Known mistake" not in text


def test_lab02_a_failed_case_expects_the_correct_answer_even_when_other_mistakes_are_kept():
    """Where the submission's profile of kept mistakes does not give its answer, the message expects the correct
    answer and keeps no other mistake in it."""
    text = _run("decision_second_player", _children_as_max)
    case = next(c for c in data.CASES["decision_second_player"]() if f"on {c.name}:" in text)
    assert f"expected {ref.model_decision(case.game, case.state)!r}," in text
    assert "keeps the other mistakes" not in text and "would also pass" not in text


def test_lab02_turns_by_depth_costs_points_in_the_value_group_only():
    """Reversi without a pass move skips a player: a value that takes turns by depth loses points in `value`,
    which names it, and nowhere else among the value groups."""
    student = _as_student(ref.model_value, ref.Flags(turns="depth"))
    text = _run("value", student)
    assert "Reversi 4x4 without a pass move" in text and ref.HINTS["turns"] in text
    assert _run("value_second_player", student) == "" and _run("value_trace", student) == ""


def test_lab02_a_quick_win_scored_wrong_is_not_placed_at_the_root_choice():
    """A quick win scoring utility * 10 - d takes the correct steps and returns another move: the message shows the
    correct scores of every move's end and the move returned, and does not place the difference at the choice at
    the root (which may be right: the scores are not returned, so the steps cannot tell)."""
    def minus_depth(game, state):
        me = game.to_move(state)

        def score(s, d):
            if game.is_terminal(s):
                return game.utility(s, me) * 10 - d
            vals = [score(game.result(s, a), d + 1) for a in game.actions(s)]
            return max(vals) if game.to_move(s) == me else min(vals)

        best, best_v = None, None
        for a in game.actions(state):
            v = score(game.result(state, a), 1)
            if best is None or v > best_v:
                best, best_v = a, v
        return best

    with pytest.raises(CheckFailed) as failure:
        lab02.check_quick_win(minus_depth)
    text = str(failure.value)
    assert "choice at the root" not in text
    assert "took the same steps as the correct one, in the same order, and returned another move" in text
    assert "(1,0): X loses at d = 4, -1 * (10 - 4) = -6" in text and "Yours returned (0, 0) (worth -8)." in text


def _stops_at_a_win(game, state):
    """A search that leaves a node as soon as a child reaches 1 (MAX) or -1 (MIN): it overwrites nothing."""
    root = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, root)
        mine, best = game.to_move(s) == root, None
        for a in game.actions(s):
            v = value(game.result(s, a))
            best = v if best is None else (max(best, v) if mine else min(best, v))
            if (mine and best >= 1) or (not mine and best <= -1):
                return best
        return best
    return value(state)


def test_lab02_a_search_that_went_back_up_early_is_not_told_it_overwrote_state():
    """The trace hint blames a child made from a wrong parent on an overwritten `state` only when that parent is a
    state made below the right one; a search that left P1.1 early made P1.2 from its own parent, P2.0."""
    message = _run("value_trace", _stops_at_a_win)
    assert "at step 8, below P1.0 > P2.0 > P1.1" in message
    assert "P1.2 is a child of P2.0: your search went back up from P1.1 before making P2.3." in message
    assert "overwrite" not in message and "where its parent should be" not in message


def test_lab02_a_child_made_from_a_state_below_its_parent_is_the_overwrite():
    from coursetools.checks.lab02.groups import made_below

    edges = [("P1.0", 0, "P2.0"), ("P2.0", 0, "P1.1"), ("P1.1", 0, "P2.2")]
    assert made_below(edges, "P2.2", "P2.0")  # made from a grandchild of the right parent: stepped into
    assert made_below(edges, "P1.1", "P2.0")
    assert not made_below(edges, "P2.0", "P1.1")  # above the right parent: went back up
    assert not made_below(edges, "X", "P1.1")
