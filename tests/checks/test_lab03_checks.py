"""Lab 03's hidden tests, without nbgrader: each classic mistake costs points in its own group only,
the probes tell the mistakes apart, and the messages say what was expected, what came and where."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest

from course_lib.games import GameTree, TicTacToe
from course_lib.trace import Traced
from coursetools.checks import lab03, trees
from coursetools.checks.kit import Case
from coursetools.checks.lab03 import cases as data
from coursetools.checks.lab03 import groups, profile
from coursetools.checks.lab03 import reference as ref
from coursetools.checks.lab03.reference import CORRECT, Flags
from coursetools.hidden import CheckFailed

GROUPS = {
    "value": ("alphabeta_value",), "children": ("alphabeta_value",), "pruning": ("alphabeta_value",),
    "equality": ("alphabeta_value",), "deep": ("alphabeta_value",), "window": ("alphabeta_value",),
    "decision": ("alphabeta_decision", "alphabeta_value"),
    "decision_pruning": ("alphabeta_decision", "alphabeta_value"),
}

#: One classic mistake each, the only group that may charge it and the hint it must get there.
MISTAKES = {
    "strict pruning": (Flags(strict=True), "equality", "strict"),
    "bounds not passed down": (Flags(bounds="stale"), "pruning", "bounds:stale"),
    "never prunes": (Flags(bounds="none"), "pruning", "bounds:none"),
    "a fresh window for each child": (Flags(bounds="fresh"), "pruning", "bounds:fresh"),
    "bounds reset at each level": (Flags(bounds="reset"), "deep", "bounds:reset"),
    "fail-hard": (Flags(fail_hard=True), "window", "fail_hard"),
    "caller's window ignored": (Flags(window="ignore"), "window", "window:ignore"),
    "perspective of the first mover": (Flags(perspective="initial"), "value", "perspective"),
    "perspective of players[0]": (Flags(perspective="first"), "value", "perspective"),
    "children reversed": (Flags(order="reversed"), "children", "order"),
    "all children first": (Flags(eager=True), "children", "eager"),
    "child searched twice": (Flags(recompute=True), "children", "recompute"),
    "value returns the move": (Flags(returns="move"), "value", "returns:move"),
    "decision without root alpha": (Flags(root_alpha=False), "decision_pruning", "root_alpha:False"),
    "last best move": (Flags(tie="last"), "decision", "tie:last"),
    "return inside the loop": (Flags(early_return=True), "decision", "early_return"),
    "decision returns the value": (Flags(decision_returns="value"), "decision", "decision_returns:value"),
    "decision loop reversed": (Flags(root_order="reversed"), "decision", "root_order"),
}


def student(flags: Flags) -> dict:
    """A submission that makes exactly the mistakes in `flags`."""

    def alphabeta_value(game, state, alpha=-math.inf, beta=math.inf):
        return ref.value(game, state, alpha, beta, flags)

    def alphabeta_decision(game, state):
        return ref.decision(game, state, flags)

    return {"alphabeta_value": alphabeta_value, "alphabeta_decision": alphabeta_decision}


def failing_groups(functions: dict) -> dict[str, str]:
    failed = {}
    for group, names in GROUPS.items():
        try:
            getattr(lab03, f"check_{group}")(**{n: functions[n] for n in names})
        except CheckFailed as failure:
            failed[group] = str(failure)
    return failed


def test_lab03_the_reference_passes_every_group():
    assert failing_groups(student(CORRECT)) == {}


@pytest.mark.parametrize("mistake", sorted(MISTAKES))
def test_lab03_each_mistake_costs_points_in_its_own_group_only(mistake):
    flags, home, key = MISTAKES[mistake]
    failed = failing_groups(student(flags))
    assert set(failed) == {home}, f"{mistake}: failed in {sorted(failed)}"
    others = [k for k in ref.HINTS if k != key and ref.HINTS[k] not in ref.HINTS[key]]
    assert ref.hint(key) in failed[home] and not [k for k in others if ref.HINTS[k] in failed[home]], failed[home]


def test_lab03_two_mistakes_cost_points_in_both_groups_and_nowhere_else():
    failed = failing_groups(student(Flags(strict=True, order="reversed", tie="last")))
    assert set(failed) == {"equality", "children", "decision"}
    assert "strict pruning" in failed["equality"] and "another order" in failed["children"]


def test_lab03_an_unknown_mistake_is_compared_with_the_reference_itself():
    def sometimes_skips(game, state, alpha=-math.inf, beta=math.inf):
        # prunes after the first child of every MIN node: wrong values, no known profile
        player = game.to_move(state)

        def value(s):
            if game.is_terminal(s):
                return game.utility(s, player)
            acts = game.actions(s)
            if game.to_move(s) != player:
                acts = acts[:1]
            vals = [value(game.result(s, a)) for a in acts]
            return max(vals) if game.to_move(s) == player else min(vals)

        return value(state)

    assert profile.value_profile(sometimes_skips) is None
    failed = failing_groups({**student(CORRECT), "alphabeta_value": sometimes_skips})
    assert {"value", "pruning"} <= set(failed)


def _min_ties_do_not_prune(game, state, alpha=-math.inf, beta=math.inf):
    """alphabeta_value that prunes on a tie at MAX nodes but not at MIN nodes: no known profile does that."""
    player = game.to_move(state)

    def search(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, search(game.result(s, a), alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, search(game.result(s, a), alpha, beta))
            if v < alpha:
                return v
            beta = min(beta, v)
        return v

    return search(state, alpha, beta)


def test_lab03_a_decision_over_an_unknown_value_mistake_loses_nothing():
    """The lab's decision calls alphabeta_value: when its only fault is the student's own alphabeta_value (a mistake
    no profile knows), the decision groups compare with the lab's decision over that same function, so the mistake
    costs points in the value's groups only. A decision that does not call it is still compared with the correct one."""
    decide = groups.own_decision(_min_ties_do_not_prune)
    assert profile.value_profile(_min_ties_do_not_prune) is None
    failed = failing_groups({"alphabeta_value": _min_ties_do_not_prune, "alphabeta_decision": decide})
    assert "equality" in failed and not {"decision", "decision_pruning"} & set(failed), sorted(failed)
    own_walk = groups.own_decision(lambda game, state, alpha=-math.inf, beta=math.inf: _min_ties_do_not_prune(
        game, state, alpha, beta))
    with pytest.raises(CheckFailed):
        lab03.check_decision_pruning(own_walk, student(CORRECT)["alphabeta_value"])


def test_lab03_a_decision_that_fails_only_through_its_value_loses_nothing():
    """An alphabeta_value that returns (value, move) makes the lab's decision raise TypeError when it negates it: the
    decision raises what the lab's decision raises over that same function, after the same steps, so it passes its
    groups. A decision that raises an error of its own still fails them."""
    def pair(game, state, alpha=-math.inf, beta=math.inf):
        return ref.search_value(game, state, alpha, beta, game.to_move(state), CORRECT), None

    decide = groups.own_decision(pair)
    assert lab03.check_decision(decide, pair) and lab03.check_decision_pruning(decide, pair)

    def own_error(game, state):  # the same steps, then another error
        try:
            return decide(game, state)
        except TypeError:
            raise ValueError("the decision's own mistake") from None

    for check in (lab03.check_decision, lab03.check_decision_pruning):
        with pytest.raises(CheckFailed, match="TypeError"):
            check(lambda game, state: -pair(game, state)[1], pair)
        with pytest.raises(CheckFailed):
            check(own_error, pair)


def test_lab03_a_child_made_before_the_cut_test_costs_points_in_children_only():
    def peeking(game, state, alpha=-math.inf, beta=math.inf):
        player = game.to_move(state)

        def search(s, alpha, beta):
            if game.is_terminal(s):
                return game.utility(s, player)
            acts = game.actions(s)
            maxing = game.to_move(s) == player
            v = -math.inf if maxing else math.inf
            child = game.result(s, acts[0])
            for i in range(len(acts)):
                w = search(child, alpha, beta)
                if i + 1 < len(acts):
                    child = game.result(s, acts[i + 1])  # the next child, made before the cut test
                if maxing:
                    v = max(v, w)
                    if v >= beta:
                        return v
                    alpha = max(alpha, v)
                else:
                    v = min(v, w)
                    if v <= alpha:
                        return v
                    beta = min(beta, v)
            return v

        return search(state, alpha, beta)

    failed = failing_groups({**student(CORRECT), "alphabeta_value": peeking})
    assert set(failed) == {"children"}
    # the cut the correct search made there, with its numbers, and the child theirs made anyway
    assert "v = 2 <= alpha = 6, so its other children cannot change the result" in failed["children"]
    assert "Yours generated L.3." in failed["children"]


def test_lab03_profiles_found_for_every_searched_combination():
    for flags in ref.candidates(Flags())[:40]:
        found = profile.value_profile(student(flags)["alphabeta_value"])
        assert found is not None
        probes = data.probes()
        assert [profile.run_model("value", c, found).steps() for c in probes] == \
               [profile.run_model("value", c, flags).steps() for c in probes]


def _signature(flags: Flags, cases: list) -> list:
    out = []
    for case in cases:
        run = profile.run_model("value", case, flags)
        out.append((repr(run.result), run.steps()))
    return out


def test_lab03_the_probes_tell_apart_every_pair_the_graded_cases_tell_apart():
    """Two combinations of mistakes that act the same on the probes act the same everywhere we grade."""
    rng = random.Random(7)
    wide = [data.windowed(f"random-{i}", f"random #{i}", t, t.initial, w)
            for i in range(16)
            for t in [trees.random_tree(rng, max_depth=rng.randint(2, 5), max_branching=3)]
            for w in [None, (rng.randint(-9, 5) - 0.5, rng.randint(6, 9) + 0.5)]]
    wide += data.POSITIONS[:5]
    probes = data.probes()
    seen: dict = {}
    for flags in ref.candidates(Flags()):
        key = repr(_signature(flags, probes))
        behaviour = _signature(flags, wide)
        if key in seen:
            other, other_behaviour = seen[key]
            assert behaviour == other_behaviour, f"{flags.changed()} and {other.changed()} look alike on the probes"
        else:
            seen[key] = (flags, behaviour)


def _tree_case(spec, root="MAX"):
    tree = GameTree.from_nested(spec, root=root)
    return Case("test-tree", "a test tree", tree, tree.initial)


def test_lab03_walk_problems_name_eager_order_twice_and_internal_evaluations():
    case = _tree_case([[3, [5, 1]], [6, 9]])

    def walk_of(fn):
        recorder = groups.Recorder(case.game)
        return [k for k, _ in groups.walk_problems(case, groups.run_student(fn, case, recorder), recorder)]

    assert walk_of(student(CORRECT)["alphabeta_value"]) == []
    assert walk_of(student(Flags(eager=True))["alphabeta_value"]) == ["eager"]
    assert walk_of(student(Flags(order="reversed"))["alphabeta_value"]) == ["order"]
    assert walk_of(student(Flags(recompute=True))["alphabeta_value"]) == ["twice"]

    def try_utility_first(game, state, alpha=-math.inf, beta=math.inf):
        player = game.to_move(state)

        def value(s):
            try:
                return game.utility(s, player)
            except ValueError:
                vals = [value(game.result(s, a)) for a in game.actions(s)]
                return max(vals) if game.to_move(s) == player else min(vals)

        return value(state)

    assert walk_of(try_utility_first) == ["internal"]


def test_lab03_transpositions_are_not_mistaken_for_double_evaluations():
    ttt = TicTacToe()
    case = Case("early", "an early position", ttt, ttt.state_from(["X.O", ".O.", "X.."], "X"))
    run = groups.run_student(student(Flags(bounds="none"))["alphabeta_value"], case)
    assert len(run.trace.repeated("utility")) > 0  # the same end position reached by two move orders
    assert groups.walk_problems(case, run) == []


def test_lab03_a_trace_message_shows_the_first_wrong_step_its_window_and_the_tree():
    failed = failing_groups(student(Flags(strict=True)))
    text = failed["equality"]
    for piece in ("then the correct search: nothing more, yours: L.3=9", "at step 9, at P1.0 > P2.1",
                  "MIN node P2.1, window (alpha, beta) = (5, inf), value so far v = 5",
                  "v = 5 <= alpha = 5", "Yours generated L.3.", "The tree:", "L.3 = 9  #4",
                  "Known mistake", "strict pruning instead of pruning on equality"):
        assert piece in text, text
    assert "expected (" not in text  # never the whole expected trace


def test_lab03_a_look_alike_value_gets_no_point():
    class EqualsEverything(float):
        def __eq__(self, other):
            return True

        __hash__ = float.__hash__

    def cheat(game, state, alpha=-math.inf, beta=math.inf):
        ref.value(game, state, alpha, beta)
        return EqualsEverything(0)

    failed = failing_groups({**student(CORRECT), "alphabeta_value": cheat})
    assert "value" in failed and "window" in failed


def test_lab03_student_errors_become_a_message_with_their_line():
    def broken(game, state, alpha=-math.inf, beta=math.inf):
        return game.utility(state, game.to_move(state))  # an internal node: course_lib raises

    with pytest.raises(CheckFailed, match=r"(?s)raised ValueError.*in broken, line.*internal nodes evaluated"):
        lab03.check_value(broken)


def test_lab03_same_secret_seed_same_cases_and_other_cases_than_public(monkeypatch):
    monkeypatch.delenv("COURSE_SECRET_SEED", raising=False)
    public = [c.name for c in data.seeded_positions("value")]
    monkeypatch.setenv("COURSE_SECRET_SEED", "instructor-seed")
    first = [(c.id, c.name, repr(c.state)) for c in data.seeded_positions("value")]
    again = [(c.id, c.name, repr(c.state)) for c in data.seeded_positions("value")]
    assert first == again and len(first) > len(public)
    trees_a = [c.game.leaf_values() for c in data.seeded_trees("deep")]
    monkeypatch.setenv("COURSE_SECRET_SEED", "another-seed")
    trees_b = [c.game.leaf_values() for c in data.seeded_trees("deep")]
    count = data.SEEDED["deep"][0]
    assert trees_a[:count] == trees_b[:count] and trees_a[count:] != trees_b[count:]


def test_lab03_case_ids_are_unique_in_each_group():
    for group in ref.HOME:
        ids = [c.id for c in data.cases(group)]
        assert len(ids) == len(set(ids)), group


def test_lab03_models_keep_the_course_facts():
    sixteen = Traced(GameTree.from_leaves([7, 6, 2, 8, 8, 7, 1, 3, 0, 7, 7, 8, 8, 8, 2, 3], 2))
    assert ref.value(sixteen, sixteen.initial) == 7
    assert sixteen.trace.leaf_values() == [7, 6, 2, 8, 7, 0, 7, 8, 8, 8] and sixteen.trace.nodes_visited() == 23
    eight = Traced(GameTree.from_leaves([3, 5, 2, 9, 12, 5, 23, 24], 2))
    assert ref.value(eight, eight.initial) == 12 and eight.trace.leaf_values() == [3, 5, 2, 9, 12, 5, 23]
    tie = Traced(GameTree.from_nested([[5, 6], [5, 9]]))
    ref.value(tie, tie.initial, flags=Flags(strict=True))
    assert tie.trace.leaf_values() == [5, 6, 5, 9]  # strict pruning evaluates one more leaf
    assert ref.value(GameTree.from_leaves([3, 5, 2, 9, 12, 5, 23, 24], 2), "P1.0", 13, 20,
                     replace(CORRECT, fail_hard=True)) == 13


def test_lab03_the_report_reads_a_first_wrong_step_as_no_known_mistake_and_a_named_one_by_its_key():
    """The class report's diagnosis: an explanation that names no mistake is "no known mistake" (not its case's
    name); with a known mistake's line it is that mistake."""
    from coursetools.grading.misconceptions import UNEXPLAINED, diagnose

    def max_cuts_only(game, state, alpha=-math.inf, beta=math.inf):  # no known mistake: MIN nodes never cut
        player = game.to_move(state)

        def search(s, a, b):
            if game.is_terminal(s):
                return game.utility(s, player)
            maxing = game.to_move(s) == player
            v = -math.inf if maxing else math.inf
            for act in game.actions(s):
                w = search(game.result(s, act), a, b)
                if maxing:
                    v = max(v, w)
                    if v >= b:
                        return v
                    a = max(a, v)
                else:
                    v = min(v, w)
                    b = min(b, v)
            return v

        return search(state, alpha, beta)

    unknown = failing_groups({**student(CORRECT), "alphabeta_value": max_cuts_only})["pruning"]
    assert "first differs from the correct one" in unknown and "Known mistake" not in unknown
    assert diagnose(data.LAB, unknown) == [{"key": UNEXPLAINED, "known": False}]
    named = failing_groups(student(Flags(strict=True)))["equality"]
    assert [d["key"] for d in diagnose(data.LAB, named)] == ["strict"]


def _decision_without_negation(game, state):
    """Each root move's value asked of the value function, for the player to move in the child, kept unnegated."""
    best, best_v = None, -math.inf
    for a in game.actions(state):
        v = ref.value(game, game.result(state, a))
        if v > best_v:
            best, best_v = a, v
    return best


def test_lab03_a_decision_hint_leads_with_the_root_moves_values_and_what_the_trace_shows_of_its_own():
    with pytest.raises(CheckFailed) as failed:
        groups.check_decision(_decision_without_negation, ref.value)
    text = str(failed.value)
    assert ("The root P1.0 (MAX to move): the correct decision's moves are worth, for MAX, 0 (P2.0): 6, 1 (P2.1): 7; "
            "it keeps the first best, 1.") in text, text
    assert ("yours took exactly the steps of the correct alpha-beta search of that child alone for MIN, the player to "
            "move there, with the full window (-inf, inf); those searches find, for MIN: 0 (P2.0): -6, 1 (P2.1): -7."
            ) in text, text
    assert "Yours returned 0 (worth 6 for MAX)." in text
