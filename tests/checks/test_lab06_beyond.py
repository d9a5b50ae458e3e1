"""Lab 06 (beyond two players): the dice game PigRace, traced utility vectors, and the
grader's references and hidden-test groups, run directly (the bank runs them through nbgrader)."""

from __future__ import annotations

import copy
import random
import time
from fractions import Fraction
from functools import lru_cache

import pytest

from course_lib.games import CHANCE, GameTree, IllegalMoveError, PigRace, PigState
from course_lib.trace import Traced


def test_pig_roll_bust_hold_and_turns():
    g = PigRace(target=6, rolls=4, die=(1, 2, 2, 3))
    s = g.initial
    assert g.to_move(s) == "A" and g.actions(s) == ["roll"], "no hold before the first roll of a turn"
    air = g.result(s, "roll")
    assert g.to_move(air) == CHANCE and air.rolls_left == 3 and g.actions(air) == [1, 2, 3]
    assert g.outcomes(air) == [(1, 0.25), (2, 0.5), (3, 0.25)]
    assert sum(p for _, p in g.outcomes(air)) == 1
    three = g.result(air, 3)
    assert (g.to_move(three), three.turn_total, g.actions(three)) == ("A", 3, ["roll", "hold"])
    bust = g.result(g.result(three, "roll"), 1)
    assert bust == PigState((0, 0), 0, "B", 2), "a bust loses the turn total and passes the turn"
    held = g.result(three, "hold")
    assert held == PigState((3, 0), 0, "B", 3), "holding banks the turn total and passes the turn"


def test_pig_terminals_and_utilities():
    g = PigRace(target=6, rolls=4, die=(1, 2, 2, 3))
    won = g.result(g.state(4, 2, 2, "A", 1), "hold")
    assert g.is_terminal(won) and g.utility(won, "A") == 1 and g.utility(won, "B") == -1
    only_hold = g.state(1, 3, 2, "A", 0)
    assert not g.is_terminal(only_hold) and g.actions(only_hold) == ["hold"]
    draw = g.result(only_hold, "hold")
    assert g.is_terminal(draw) and g.actions(draw) == [] and g.utility(draw, "A") == 0
    assert g.is_terminal(g.state(1, 2, 0, "B", 0))
    with pytest.raises(ValueError, match="terminal"):
        g.utility(g.initial, "A")
    with pytest.raises(ValueError, match="no die"):
        g.outcomes(g.initial)


def test_pig_illegal_moves_name_the_legal_ones():
    g = PigRace(target=6, rolls=4, die=(1, 2, 2, 3))
    with pytest.raises(IllegalMoveError, match="'roll'"):
        g.result(g.initial, "hold")
    air = g.result(g.initial, "roll")
    for bad in (4, True, "roll", 2.0):
        with pytest.raises(IllegalMoveError):
            g.result(air, bad)
    with pytest.raises(ValueError):
        PigRace(die=(0, 1))


def test_pig_states_are_immutable_and_every_game_ends():
    rng = random.Random(6)
    for die in [(1, 2, 2, 3), (1, 2, 3, 4, 5, 6)]:
        g = PigRace(target=8, rolls=5, die=die)
        for _ in range(200):
            s, moves = g.initial, 0
            while not g.is_terminal(s):
                hash(s)
                before = copy.deepcopy(s)
                if g.to_move(s) == CHANCE:
                    faces, weights = zip(*g.outcomes(s))
                    a = rng.choices(faces, weights)[0]
                else:
                    a = rng.choice(g.actions(s))
                s = g.result(s, a)
                assert before == copy.deepcopy(before), "result() changed its state"
                moves += 1
            assert moves <= 3 * g.rolls, "each roll allows at most one hold and one chance outcome"
            assert sum(g.utility(s, p) for p in g.players) == 0


def test_pig_expectimax_value_matches_exact_fractions():
    from coursetools.checks.lab06.reference import expectimax_value

    g = PigRace(target=6, rolls=4, die=(1, 2, 2, 3))

    @lru_cache(maxsize=None)
    def exact(s: PigState) -> Fraction:  # A's value, an independent memoised solver
        if g.is_terminal(s):
            return Fraction(g.utility(s, "A"))
        if s.rolling:
            return sum(Fraction(g.die.count(f), len(g.die)) * exact(g.result(s, f)) for f in g.faces)
        vals = [exact(g.result(s, a)) for a in g.actions(s)]
        return max(vals) if s.player == "A" else min(vals)

    for s in [g.initial, g.state(3, 2, 0, "B", 3), g.state(2, 4, 3, "A", 3)]:
        mine = exact(s) if s.player == "A" else -exact(s)
        assert expectimax_value(g, s) == pytest.approx(float(mine), abs=1e-12)
    assert float(exact(g.initial)) == 0.20703125


def test_traced_utilities_record_one_event_per_call():
    tree = GameTree.from_nested([[(1, 2, 3), (3, 0, 1)], (2, 2, 2)])
    game = Traced(tree)
    assert game.utilities("L.0") == (1, 2, 3)
    assert game.trace.leaves() == ["L.0"] and game.trace.leaf_values() == [(1, 2, 3)]
    assert game.trace.count("utility") == 1


def test_lab06_checks_pass_the_references_quickly():
    from coursetools.checks import lab06
    from coursetools.checks.lab06 import reference as ref

    start = time.perf_counter()
    assert lab06.check_expectimax_trees(ref.expectimax_value) >= 15
    assert lab06.check_expectimax_dice(ref.expectimax_value) >= 8
    assert lab06.check_maxn_trees(ref.maxn_value) >= 15
    assert lab06.check_maxn_turns(ref.maxn_value) >= 12
    assert lab06.check_maxn_shallow(lambda g, s, m: ref.maxn_shallow_value(g, s, m)) >= 15
    assert time.perf_counter() - start < 10


def test_lab06_shallow_pruning_keeps_the_maxn_vector_and_prunes():
    from coursetools.checks import lab06
    from coursetools.checks.lab06 import reference as ref

    rng = random.Random("lab06 shallow")
    pruned = 0
    for _ in range(200):
        tree = lab06.cases.random_maxn_tree(rng, total=10)
        full, cut = Traced(tree), Traced(tree)
        assert ref.maxn_shallow_value(cut, tree.initial, 10) == ref.maxn_value(full, tree.initial)
        pruned += full.trace.count("utility") - cut.trace.count("utility")
    assert pruned > 0


def test_lab06_wrong_variants_are_caught_and_named():
    from coursetools.checks import lab06
    from coursetools.checks.lab06 import reference as ref
    from coursetools.hidden import CheckFailed

    with pytest.raises(CheckFailed, match="MINIMUM"):
        lab06.check_expectimax_trees(lambda g, s: ref.expectimax_value(g, s, chance="min"))
    with pytest.raises(CheckFailed, match="PLAIN MEAN"):
        lab06.check_expectimax_dice(lambda g, s: ref.expectimax_value(g, s, chance="uniform"))
    with pytest.raises(CheckFailed, match="switching between MAX and MIN"):
        lab06.check_expectimax_dice(lambda g, s: ref.expectimax_value(g, s, flip=True))
    with pytest.raises(CheckFailed, match="FIRST entry"):
        lab06.check_maxn_trees(lambda g, s: ref.maxn_value(g, s, rule="player0"))
    with pytest.raises(CheckFailed, match="LAST best"):
        lab06.check_maxn_turns(lambda g, s: ref.maxn_value(g, s, rule="last"))
    with pytest.raises(CheckFailed, match="deep pruning"):
        lab06.check_maxn_shallow(lambda g, s, m: ref.maxn_shallow_value(g, s, m, "deep"))


def _mistake_runs():
    from coursetools.checks.lab06 import groups
    from coursetools.checks.lab06 import reference as ref

    for mistakes, checks in ((ref.EXPECTIMAX_MISTAKES, (groups.check_expectimax_trees, groups.check_expectimax_dice)),
                             (ref.MAXN_MISTAKES, (groups.check_maxn_trees, groups.check_maxn_turns)),
                             (ref.SHALLOW_MISTAKES, (groups.check_maxn_shallow,))):
        for mistake in mistakes:
            yield pytest.param(mistake, mistakes, checks, id=mistake.key)


@pytest.mark.parametrize("mistake, mistakes, checks", list(_mistake_runs()))
def test_lab06_each_mistake_model_is_named_by_its_own_hint_only(mistake, mistakes, checks):
    """A mistake model handed in as a student's answer fails with its hint, and no other mistake's."""
    from coursetools.hidden import CheckFailed

    messages = []
    for check in checks:
        try:
            check(mistake.model)
        except CheckFailed as failure:
            messages.append(str(failure))
    assert messages, f"{mistake.key} passes every group"
    assert any(mistake.hint in m for m in messages)
    assert not any(other.hint in m for m in messages for other in mistakes if other is not mistake)


def test_lab06_an_unknown_mistake_is_not_given_a_known_name():
    """A weighted sum divided again by the number of outcomes is no known mistake: the hint says where it differs."""
    from coursetools.checks.lab06 import groups
    from coursetools.checks.lab06 import reference as ref
    from coursetools.hidden import CheckFailed

    def divided_again(game, state):
        player = game.to_move(state)

        def value(s):
            if game.is_terminal(s):
                return game.utility(s, player)
            if game.to_move(s) == CHANCE:
                pairs = game.outcomes(s)
                return sum(p * value(game.result(s, a)) for a, p in pairs) / len(pairs)
            vals = [value(game.result(s, a)) for a in game.actions(s)]
            return max(vals) if game.to_move(s) == player else min(vals)

        return value(state)

    with pytest.raises(CheckFailed) as failure:
        groups.check_expectimax_trees(divided_again)
    text = str(failure.value)
    # the first node whose value is wrong, its children and the rule; no mistake named
    assert "your values first differ from the correct ones at" in text and "sum(p * value)" in text
    assert "Known mistake" not in text
    assert not any(m.hint in text for m in ref.EXPECTIMAX_MISTAKES)


def test_lab06_a_shallow_bound_never_raised_after_the_first_child_loses_its_group():
    """The case "bound-raised": the second child raises the root player's bound, and only the raised bound cuts
    the third child; a bound taken from the first child alone searches the third child to the end."""
    from coursetools.checks import lab06
    from coursetools.hidden import CheckFailed

    def first_bound_only(game, state, max_sum):
        def search(s, bound, above):
            if game.is_terminal(s):
                return game.utilities(s)
            me = game.to_move(s)
            j = game.players.index(me)
            best = first = None
            for a in game.actions(s):
                v = search(game.result(s, a), first, me)
                if best is None or v[j] > best[j]:
                    best = v
                first = best[j] if first is None else first
                if bound is not None and above != me and best[j] >= max_sum - bound:
                    return best
            return best

        return search(state, None, None)

    with pytest.raises(CheckFailed) as failure:
        lab06.check_maxn_shallow(first_bound_only)
    text = str(failure.value)
    assert "on a bound raised by the second child" in text
    assert "its parent (P1) sure of 5" in text and "5 >= 10 - 5" in text and "Yours generated L.3." in text


def _told_zero(first: bool, root: bool):
    """Shallow pruning where a first child (`first`) or the start of the search (`root`) is told a bound of 0
    instead of nothing: it stops as soon as its player's entry reaches max_sum."""
    def search_all(game, state, max_sum):
        def search(s, bound, above):
            if game.is_terminal(s):
                return game.utilities(s)
            me = game.to_move(s)
            j = game.players.index(me)
            best = None
            for a in game.actions(s):
                v = search(game.result(s, a), (0 if first else None) if best is None else best[j], me)
                if best is None or v[j] > best[j]:
                    best = v
                if bound is not None and above != me and best[j] >= max_sum - bound:
                    return best
            return best

        return search(state, 0 if root else None, None)

    return search_all


@pytest.mark.parametrize("first, root, row", [(True, False, "a first child whose player reaches max_sum"),
                                              (True, True, "a first child whose player reaches max_sum"),
                                              (False, True, "a root whose player reaches max_sum with its first child")])
def test_lab06_a_node_told_zero_instead_of_nothing_loses_its_group(first, root, row):
    """A node told nothing never stops; told 0 it stops once its player's entry reaches max_sum. Its vector is
    still right (nothing beats max_sum), but it values fewer leaves than shallow pruning: the fixed rows where a
    first child, or the root, reaches max_sum catch it with the correct search's state there."""
    from coursetools.checks import lab06
    from coursetools.hidden import CheckFailed

    with pytest.raises(CheckFailed) as failure:
        lab06.check_maxn_shallow(_told_zero(first, root))
    text = str(failure.value)
    assert f"differ on {row}." in text and "no bound from its parent" in text


def test_explainer_notes_walk_the_course_searches_step_for_step():
    """The annotated runs take exactly the steps of the grader's models, so a note is a fact of the correct run."""
    from coursetools.checks import explainer, kit, trees
    from coursetools.checks.kit import Case
    from coursetools.checks.lab03 import reference as ab
    from coursetools.checks.lab06 import cases, groups
    from coursetools.checks.lab06 import reference as ref

    rng = random.Random("explainer notes")
    for _ in range(60):
        tree = trees.random_tree(rng, max_depth=rng.randint(2, 4), max_branching=3)
        case = Case("t", "t", tree, tree.initial)
        want = kit.run_model(ab.value, case)
        value, notes = explainer.alphabeta_notes(tree, tree.initial)
        assert value == want.result and [n.step for n in notes if n.step] == want.steps()
        maxn = cases.random_maxn_tree(rng, total=10)
        case = Case("m", "m", maxn, maxn.initial, (10,))
        want = kit.run_model(ref.maxn_shallow_value, case)
        value, notes = explainer.shallow_notes(maxn, maxn.initial, 10)
        assert value == want.result and [n.step for n in notes if n.step] == groups.steps(want)


def test_lab06_a_call_alone_that_changes_whose_view_a_node_is_valued_from_is_not_reported():
    """An expectimax that takes the max at every player's node (the opponent's too): called alone on an opponent's
    node, that node becomes the searching player's own and comes out right. The message states the first wrong value
    and its rule, and never that the function was right 'called alone' on a node the opponent moves at."""
    from coursetools.checks.lab06 import groups
    from coursetools.hidden import CheckFailed

    def all_max(game, state):
        player = game.to_move(state)

        def value(s):
            if game.is_terminal(s):
                return game.utility(s, player)
            if game.to_move(s) == CHANCE:
                return sum(p * value(game.result(s, a)) for a, p in game.outcomes(s))
            return max(value(game.result(s, a)) for a in game.actions(s))

        return value(state)

    with pytest.raises(CheckFailed) as failure:
        groups.check_expectimax_trees(all_max)
    text = str(failure.value)
    assert "your values first differ from the correct ones at P1.0." in text
    assert "Yours, called on P1.0, returned 5.2.\n" in text
    assert "alone" not in text  # P2.0 ... P2.3 are MIN's: right alone, as MIN's own nodes, says nothing here
