"""Lab 04's hidden tests without nbgrader: the references are right, the Knuth-Moore count holds,
a table storing bounds as exact values gives wrong values on the generated positions, and every
buggy entry of the bank fails the hidden groups on its own (the visible asserts run first in a
notebook, so the bank alone does not show this)."""

from __future__ import annotations

import csv
import math
import random
import time
from pathlib import Path

import pytest

from coursetools.checks import common

from course_lib.games import ConnectFour, GameTree, RaceTo, TicTacToe
from course_lib.trace import Traced
from coursetools.quality.bank import solution_answers
from coursetools.checks import reference
from coursetools.checks.lab04 import cases as data
from coursetools.checks.lab04 import groups
from coursetools.checks.lab04 import reference as ref
from coursetools.hidden import CheckFailed, check
from coursetools.quality.submission import parse_answers

ROOT = Path(__file__).resolve().parents[2]
LAB = "04_move_ordering"
BANK = ROOT / "bank" / LAB
GROUPS = {
    "ordered_value": "ordered_alphabeta_value", "ordered_trace": "ordered_alphabeta_value",
    "perfect_ordering": "perfect_ordering", "tt_trees": "alphabeta_tt_value", "tt_games": "alphabeta_tt_value",
    "tt_depth": "alphabeta_tt_value", "iterative_deepening": "iterative_deepening_decision",
    "deepening_clock": "iterative_deepening_decision",
}


def functions(entry: str | None = None) -> dict:
    """The notebook's solution, with the cells of a bank entry in place of its own."""
    answers = solution_answers(ROOT / "source" / LAB / f"{LAB}.ipynb")
    if entry:
        answers.update(parse_answers((BANK / f"{entry}.py").read_text()))
    namespace: dict = {"math": math, "GameTree": GameTree, "EXACT": "exact", "LOWER": "lower", "UPPER": "upper"}
    for source in answers.values():
        exec(source, namespace)
    return {name: namespace[name] for name in set(GROUPS.values())}


def expected_rows() -> dict[str, list[str]]:
    with (BANK / "expected.csv").open(newline="") as f:
        return {r["entry"]: r["failing"].split() for r in csv.DictReader(f)}


def test_lab04_solver_agrees_with_plain_minimax():
    rng = random.Random(4)
    for game, low, high in ((TicTacToe(), 4, 7), (ConnectFour(4, 4), 10, 13)):
        solver = ref.Solver(game)
        for state in data.positions(game, rng, 25, low, high):
            assert solver.value(state, game.to_move(state)) == reference.minimax_value(game, state)


def test_lab04_best_first_trees_meet_the_knuth_moore_count():
    rng = random.Random(7)
    for _ in range(30):
        b, d = rng.choice([2, 3, 4]), rng.randint(1, 4)
        tree = data.uniform_tree(rng, b, d, distinct=rng.random() < 0.5, root=rng.choice(["MAX", "MIN"]))
        best = functions()["perfect_ordering"](tree)
        game = Traced(best, keep_events=False)
        ref.depth_limited_alphabeta(game, best.initial)
        assert game.trace.count("utility") == ref.minimal_leaves(b, d)
        assert groups.canonical(best, best.initial) == groups.canonical(tree, tree.initial)


def test_lab04_bounds_stored_as_exact_give_wrong_values_on_generated_positions():
    """Bounds stored as exact values show in the values alone, without reading the table."""
    buggy = functions("tt_bounds_as_exact")["alphabeta_tt_value"]
    wrong = total = 0
    for game, count, low, high in ((TicTacToe(), 600, 4, 6), (ConnectFour(4, 4), 420, 11, 13)):
        solver = ref.Solver(game)
        rng = data.common.rng(LAB, "tt_games")
        shared = {p: {} for p in game.players}
        for i, state in enumerate(data.positions(game, rng, count, low, high)):
            player = game.to_move(state)
            table = {} if i % 2 == 0 else shared[player]
            wrong += buggy(game, state, table) != solver.value(state, player)
            total += 1
    assert total >= 1000
    assert wrong >= 5, f"only {wrong} wrong values in {total} positions"


def test_lab04_solution_passes_every_group_within_the_budget(capsys):
    fns = functions()
    start = time.process_time()  # CPU time: the machine may be shared
    for group, name in GROUPS.items():
        check(LAB, group, **{name: fns[name]})
    elapsed = time.process_time() - start
    assert elapsed < 20, f"lab 04's hidden tests took {elapsed:.1f} s of CPU (budget: 20 s)"


@pytest.mark.slow
@pytest.mark.parametrize("entry", sorted(e for e, failing in expected_rows().items() if failing))
def test_lab04_hidden_groups_alone_catch_each_bank_bug(entry):
    fns = functions(entry)
    failing = expected_rows()[entry]
    caught = []
    for grade_id in failing:
        group = grade_id.removeprefix("test_")
        name = GROUPS[group]
        try:
            check(LAB, group, **{name: fns[name]})
        except CheckFailed:
            caught.append(grade_id)
    assert caught, f"{entry}: the hidden tests of {failing} all passed"


def _mistake_runs():
    for mistakes, checks in ((ref.ORDER_MISTAKES, ("ordered_value", "ordered_trace")),
                             (ref.PERFECT_MISTAKES, ("perfect_ordering",)),
                             (ref.ID_MISTAKES, ("iterative_deepening", "deepening_clock")),
                             (ref.CLOCK_MISTAKES, ("iterative_deepening", "deepening_clock"))):
        for mistake in mistakes:
            yield pytest.param(mistake, mistakes, checks, id=mistake.key)


@pytest.mark.parametrize("mistake, mistakes, checks", list(_mistake_runs()))
def test_lab04_each_mistake_model_is_named_by_its_own_hint_only(mistake, mistakes, checks):
    """A mistake model handed in as a student's answer fails with its hint, and no other mistake's."""
    answer = ref.AS_ANSWER[mistake.key]
    messages = []
    for group in checks:
        try:
            check(LAB, group, **{GROUPS[group]: answer})
        except CheckFailed as failure:
            messages.append(str(failure))
    assert messages, f"{mistake.key} passes every group"
    assert any(mistake.hint in m for m in messages), messages
    assert not any(other.hint in m for m in messages for other in mistakes if other is not mistake), messages


def test_lab04_the_clock_group_fails_a_search_that_checks_the_clock_too_late():
    """Asking the clock after generating a child (not before) stops one state late: no known mistake does that,
    so the message says what the search did against its own run without a clock, and names none."""
    def late(game, state, max_depth, evaluate, clock=None):
        watched = type("Late", (), {"expired": lambda self: clock.used > clock.nodes})() if clock else None
        return ref.iterative_deepening_decision(game, state, max_depth, evaluate, watched)

    with pytest.raises(CheckFailed) as failure:
        check(LAB, "deepening_clock", iterative_deepening_decision=late)
    text = str(failure.value)
    assert "went on after the clock had expired" in text and "the clock allows 0" in text
    assert not any(m.hint in text for m in ref.CLOCK_MISTAKES + ref.ID_MISTAKES)


def test_lab04_a_deepening_mistake_costs_nothing_in_the_clock_group():
    """A deepening that searches the previous best action twice, its clock handled right, loses points in
    'iterative_deepening' only: the clock group compares with the same search run without a clock."""
    search = functions("id_best_searched_twice")["iterative_deepening_decision"]
    with pytest.raises(CheckFailed):
        check(LAB, "iterative_deepening", iterative_deepening_decision=search)
    check(LAB, "deepening_clock", iterative_deepening_decision=search)


def test_lab04_the_clock_group_runs_a_search_that_needs_a_clock():
    """A search that cannot run without a clock (it asks clock.expired() unguarded) is compared with its own run
    under a clock that never expires: the clock group grades its clock, and passes it."""
    def needs_clock(game, state, max_depth, evaluate, clock=None):
        clock.expired()
        return ref.iterative_deepening_decision(game, state, max_depth, evaluate, clock)

    check(LAB, "deepening_clock", iterative_deepening_decision=needs_clock)


def test_lab04_a_case_is_drawn_for_each_student(monkeypatch):
    """With a secret seed, the clock group holds a case drawn from the seed and the student's id: two students
    meet different positions, the same student always the same one."""
    monkeypatch.setenv("COURSE_SECRET_SEED", "test-seed")
    drawn = {}
    for student in ("ada", "bob", "ada"):
        with common.for_student(student):
            mine = [c for c in data.clock() if c.id.startswith("yours-1@")]
        assert len(mine) == 1 and "drawn for you" in mine[0].name
        drawn.setdefault(student, []).append((mine[0].state, mine[0].args[2]))
    assert drawn["ada"][0] == drawn["ada"][1]
    assert drawn["ada"][0] != drawn["bob"][0]
    assert not [c for c in data.clock() if c.id.startswith("yours")]


# -- the first wrong step: orderings, tables, deepening and its clock --------------------------------------

def _failure(group: str, fn) -> str:
    with pytest.raises(CheckFailed) as failure:
        check(LAB, group, **{GROUPS[group]: fn})
    return str(failure.value)


def test_lab04_a_table_read_on_the_wrong_side_is_told_as_a_read():
    """Bounds stored right but read on the wrong side (a LOWER entry used when v <= alpha): the hint shows the entry
    the correct search read, the window and the rule of reading, not a rule of storing."""
    source = BANK.parent / "blind" / LAB / "tt_bounds_read_wrong_side.py"
    namespace: dict = {"math": math, "GameTree": GameTree, "EXACT": "exact", "LOWER": "lower", "UPPER": "upper"}
    exec(parse_answers(source.read_text())["alphabeta_tt_value"], namespace)
    text = _failure("tt_games", namespace["alphabeta_tt_value"])
    hint = text[text.index("Hint:"):]
    assert "the table held (-1, UPPER, inf) for total 8, P2 to move" in hint, text
    assert "it answers only when -1 <= alpha, and alpha = -inf, so the search goes on" in hint, text
    assert "store" not in hint.lower(), text


def test_lab04_a_bound_stored_as_exact_is_told_with_its_window_and_flag():
    """The first false entry stored (P1.2's (9, EXACT) is true: its value is 9; P1.4's (23, EXACT) is not)."""
    text = _failure("tt_trees", functions("tt_bounds_as_exact")["alphabeta_tt_value"])
    assert "the first entry your search stored that differs is the one of P1.4" in text, text
    assert "window (alpha, beta) = (5, 12)" in text and "So the entry is (23, LOWER, inf)" in text, text
    assert "Yours stored (23, 'exact', inf) for it (searched inf plies deep its value is 24)." in text, text


def test_lab04_the_correct_ways_of_reading_a_table_get_no_message():
    """The lab's reading, the narrowing one and EXACT entries only: the explainer finds nothing to say."""
    from coursetools.checks.lab04.tables import explain_call

    for entry in (None, "alt_tt_narrowing", "alt_tt_exact_only"):
        fn = functions(entry)["alphabeta_tt_value"]
        race = RaceTo(10, 3)
        assert explain_call(fn, "race", race, race.initial, {}) is None, entry
        tree = GameTree.from_leaves([7, 6, 2, 8, 8, 7, 1, 3, 0, 7, 7, 8, 8, 8, 2, 3], branching=2)
        table: dict = {}
        fn(tree, tree.initial, table)
        assert explain_call(fn, "again", tree, tree.initial, table) is None, entry


def test_lab04_perfect_ordering_of_the_root_only_is_told_in_the_given_tree_labels():
    def root_only(tree):
        value = groups.leaf_values(tree)

        def nested(n):
            return tree.value(n) if tree.is_terminal(n) else [nested(c) for c in tree.children(n)]

        kids = sorted(tree.children(tree.initial), key=value.get, reverse=tree.kind(tree.initial) == "MAX")
        return GameTree.from_nested([nested(c) for c in kids], root=tree.kind(tree.initial))

    text = _failure("perfect_ordering", root_only)
    assert "at P1.3 (P1.1 in yours), a MAX node" in text, text
    assert "P2.6 = 0, P2.7 = 7" in text and "there yours keeps the given order" in text, text
    assert "changes the order of the children at P1.0 only" in text, text


def test_lab04_an_ordering_message_shows_the_keys_that_decide_the_order():
    def min_reversed(game, state, key):
        player = game.to_move(state)

        def search(s, alpha, beta):
            if game.is_terminal(s):
                return game.utility(s, player)
            acts = sorted(game.actions(s), key=lambda a: key(s, a))
            maxing = game.to_move(s) == player
            v = -math.inf if maxing else math.inf
            for a in (acts if maxing else acts[::-1]):
                w = search(game.result(s, a), alpha, beta)
                v = max(v, w) if maxing else min(v, w)
                if (v >= beta) if maxing else (v <= alpha):
                    return v
                alpha, beta = (max(alpha, v), beta) if maxing else (alpha, min(beta, v))
            return v

        return search(state, -math.inf, math.inf)

    text = _failure("ordered_trace", min_reversed)
    assert "at MIN node P2.0" in text and "its first child is P1.1" in text, text
    assert "P1.1 (key 0), P1.2 (key 0)" in text and "Yours generated P1.2." in text, text


def test_lab04_the_clock_message_says_when_the_clock_was_asked():
    def between_depths(game, state, max_depth, evaluate, clock=None):
        best = game.actions(state)[0]
        for depth in range(1, max_depth + 1):
            if clock is not None and clock.expired():
                break
            best = ref.iterative_deepening_decision(game, state, depth, evaluate)
        return best

    text = _failure("deepening_clock", between_depths)
    assert "When the clock was asked: the budget ran out with state 1 (P2.0); state 2 (P2.1), in depth 1" in text, text
    assert "yours had last asked the clock when 0 states had been generated" in text, text
    assert "did not ask it again before state 2" in text, text


def test_lab04_the_clock_record_shown_is_the_one_of_the_case_shown():
    """One search of depths 1, 2, ..., the clock asked only before each depth: the record of when it asked is the
    failing case's own, not the one of a later case run to try a mistake model on."""
    text = _failure("deepening_clock", _deepening(root_alpha=True, clock_before_depth=True))
    assert "the budget ran out with state 1 (P2.0)" in text, text
    assert "In all, yours asked the clock when 0, 2 states had been generated." in text, text


def _deepening(root_alpha: bool, clock_before_depth: bool):
    """Iterative deepening in one pass of depths 1, 2, ...; with `root_alpha` False the root searches every action
    with the full window (-inf, inf), which from depth 3 on the 16-leaf tree makes P1.4, a state the root's alpha
    cuts; with `clock_before_depth` it asks its clock only before each depth (never with False)."""
    def search(game, s, alpha, beta, depth, evaluate, player):
        if game.is_terminal(s):
            return game.utility(s, player)
        if depth == 0:
            return evaluate(s, player)
        maxing = game.to_move(s) == player
        v = -math.inf if maxing else math.inf
        for a in game.actions(s):
            w = search(game, game.result(s, a), alpha, beta, depth - 1, evaluate, player)
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

    def decision(game, state, max_depth, evaluate, clock=None):
        player, actions = game.to_move(state), game.actions(state)
        best, previous = actions[0], None
        for depth in range(1, max_depth + 1):
            if clock_before_depth and clock is not None and clock.expired():
                break
            order = actions if previous is None else [previous] + [a for a in actions if a != previous]
            top, top_value = None, -math.inf
            for a in order:
                alpha = top_value if root_alpha else -math.inf
                v = search(game, game.result(state, a), alpha, math.inf, depth - 1, evaluate, player)
                if top is None or v > top_value:
                    top, top_value = a, v
            best = previous = top
        return best

    return decision


def test_lab04_a_depth_that_goes_on_past_its_cut_is_told_at_that_depth():
    """A depth whose steps agree with the correct depth's and then go on (a root cut-off missed) is wrong there,
    at the correct depth's end and its cut, not at the next depth's first step: hidden and visible explainer."""
    from course_lib.explain import encode, explain_depths
    from coursetools.checks.lab04.notes import _choice, ordered_notes

    full_window = _deepening(root_alpha=False, clock_before_depth=False)
    text = _failure("iterative_deepening", full_window)
    assert "the 16-leaf tree with max_depth=4, depth 3 of 4" in text, text
    assert "There the correct search was at MIN node P2.1" in text and "Yours generated P1.4." in text, text

    case = data.deepening()[0]
    max_depth, evaluate = case.args[:2]
    runs, best = [], None
    for d in range(1, max_depth + 1):
        acts = list(case.game.actions(case.state))
        if best is not None:
            acts = [best] + [a for a in acts if a != best]
        runs.append(encode(ordered_notes(case.game, case.state, None, d, evaluate, root_order=acts)[1]))
        best = _choice(case.game, case.state, acts, d, evaluate)
    game = Traced(case.game)
    full_window(game, game.initial, max_depth, game.evaluator(evaluate))
    shown = explain_depths(case.name, game, runs)
    assert shown and shown.startswith(f"{case.name}, depth 3 of 4") and "Yours generated P1.4." in shown, shown
    game = Traced(case.game)
    ref.iterative_deepening_decision(game, game.initial, max_depth, game.evaluator(evaluate))
    assert explain_depths(case.name, game, runs) is None


def test_lab04_the_runs_shipped_in_the_visible_tests_are_the_correct_searches():
    """The notes in the release's test cells are what the grader's correct searches write today."""
    import nbformat
    from course_lib.explain import decode, encode_table_run
    from coursetools.checks.lab04.notes import ordered_notes

    cells = {c.metadata.get("nbgrader", {}).get("grade_id"): c.source
             for c in nbformat.read(ROOT / "source" / LAB / f"{LAB}.ipynb", as_version=4).cells}
    sixteen = GameTree.from_leaves([7, 6, 2, 8, 8, 7, 1, 3, 0, 7, 7, 8, 8, 8, 2, 3], branching=2)

    def shipped(cell: str, name: str) -> str:
        import ast
        tree = ast.parse(cells[cell])
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == name:
                return ast.literal_eval(node.value)
        raise AssertionError(f"{name} not in {cell}")

    runs = shipped("test_ordered_trace", "CORRECT_RUNS")
    assert decode(runs["natural"]) == ordered_notes(sixteen, sixteen.initial, lambda s, a: 0)[1]
    assert decode(runs["last_first"]) == ordered_notes(sixteen, sixteen.initial, lambda s, a: -a)[1]
    race = RaceTo(10, 3)
    g = Traced(race)
    _, visits = ref.tt_visits(g, g.initial, {}, truth=lambda s, d: ref.Solver(race).value(s, "P1", d))
    want = [(e.kind, e.node) for e in g.trace.events("generate", "utility", "evaluate")]
    assert shipped("test_tt_games", "RACE_RUN") == encode_table_run(want, visits)
