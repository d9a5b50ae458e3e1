"""Lab 07 (Monte Carlo tree search): the grader's references and hidden-test groups, run directly and
over the checker's real channel to a second process (the bank runs them through nbgrader)."""

from __future__ import annotations

import random
import re
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import nbformat
import pytest

from coursetools.grading import checker
from coursetools.checks import lab07
from coursetools.checks.lab07 import cases as data
from coursetools.checks.lab07 import groups
from coursetools.checks.lab07 import reference as ref
from coursetools.hidden import CheckFailed
from coursetools.course.labfiles import solution_answers
from course_lib.clock import NodeBudget
from course_lib.trace import Traced

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "source" / "07_mcts" / "07_mcts.ipynb"


def _all_groups(ucb1, rollout, search, decision) -> list[int]:
    return [lab07.check_ucb1(ucb1), lab07.check_rollout(rollout), lab07.check_search_trees(search),
            lab07.check_search_games(search), lab07.check_decision(search, decision), lab07.check_clock(search)]


def test_lab07_checks_pass_the_references_quickly():
    start = time.process_time()
    counts = _all_groups(ref.ucb1, ref.rollout, ref.mcts_search, ref.mcts_decision)
    assert counts == [20, 8, 5, 6, 13, 8]
    assert time.process_time() - start < 5


def test_lab07_the_small_tree_is_followed_step_by_step():
    """The visible test's numbers, worked out by hand in the notebook, come from the reference."""
    game = Traced(data.two_by_two())
    root = ref.mcts_search(game, game.initial, 4, random.Random(1))
    assert game.trace.generated() == ["P2.0", "L.0", "P2.1", "L.2", "L.0", "L.1"]
    assert [(ch.action, ch.visits, ch.total) for ch in root.children] == [(0, 3, 1), (1, 1, 0)]
    assert [ch.player for ch in root.children] == ["MAX", "MAX"]
    assert [(ch.player, ch.total) for ch in root.children[0].children] == [("MIN", -1), ("MIN", 1)]


def test_lab07_a_clock_stops_between_iterations_only():
    state = data.position(data.TTT, (0, 0), (1, 1), (2, 2), (1, 0))
    for budget in (0, 1, 25, 60, 150):
        clock = NodeBudget(budget)
        game = Traced(data.TTT)
        ref.mcts_decision(game, state, 5000, random.Random(2), ref.SQRT2, clock)
        root_visits = 0
        while True:  # the number of whole iterations it takes to reach the budget without a clock
            probe = Traced(data.TTT)
            ref.mcts_search(probe, state, root_visits, random.Random(2))
            if len(probe.trace.generated()) >= budget:
                break
            root_visits += 1
        assert game.trace.generated() == probe.trace.generated()
        assert clock.used == len(game.trace.generated()) >= budget


def test_lab07_a_tree_that_holds_the_whole_game_stops_at_its_iterations():
    """Past a position whose whole game tree MCTS has grown, nothing more is generated and a NodeBudget never
    expires: `iterations` is what stops the search (a caller with a clock keeps it finite)."""
    state = data.position(data.TTT, (0, 0), (1, 1), (2, 2), (1, 0))
    clock = NodeBudget(200)
    root = ref.mcts_search(data.TTT, state, 3000, random.Random(2), ref.SQRT2, clock)
    assert root.visits == 3000 and not clock.expired() and clock.used < 200


def _mistakes():
    for m in ref.UCB1_MISTAKES:
        yield pytest.param(m, ref.UCB1_MISTAKES, lambda f: lab07.check_ucb1(f), id=m.key)
    for m in ref.SEARCH_MISTAKES:
        yield pytest.param(m, ref.SEARCH_MISTAKES,
                           lambda f: (lab07.check_search_trees(f), lab07.check_search_games(f)), id=m.key)
    for m in ref.CLOCK_MISTAKES:
        yield pytest.param(m, ref.CLOCK_MISTAKES, lambda f: lab07.check_clock(partial(ref.mcts_search, **f.keywords)),
                           id=m.key)
    for m in ref.DECISION_MISTAKES:
        yield pytest.param(m, ref.DECISION_MISTAKES, lambda f: lab07.check_decision(ref.mcts_search, f), id=m.key)


@pytest.mark.parametrize("mistake, mistakes, check", list(_mistakes()))
def test_lab07_each_mistake_model_is_named_by_its_own_hint_only(mistake, mistakes, check):
    with pytest.raises(CheckFailed) as failure:
        check(mistake.model)
    text = str(failure.value)
    assert mistake.hint in text
    assert not any(other.hint in text for other in mistakes if other.key != mistake.key)


def test_lab07_a_search_mistake_costs_nothing_in_the_decision_and_clock_groups():
    for m in ref.SEARCH_MISTAKES:
        decide = groups._as_decision([m])[0].model
        assert lab07.check_decision(m.model, decide) == 13, m.key
        assert lab07.check_clock(m.model) == 8, m.key


def _one_more(game, state, iterations, rng, c=ref.SQRT2, clock=None):
    """A search that runs one iteration more than it is asked for (its clock handled right)."""
    return ref.mcts_search(game, state, iterations + 1, rng, c, clock)


def _decide_with(search, give_node=False, rule="visits"):
    def decision(game, state, iterations, rng, c=ref.SQRT2, clock=None):
        best = ref.best_child(search(game, state, iterations, rng, c, clock), rule)
        if best is None:
            return game.actions(state)[0]
        return best if give_node else best.action
    return decision


@pytest.mark.parametrize("search, decision, own", [
    (_one_more, _decide_with(_one_more), "search_trees"),
    (ref.mcts_search, _decide_with(ref.mcts_search, give_node=True), "decision"),
], ids=["one-iteration-more", "decision-returns-node"])
def test_lab07_a_mistake_elsewhere_costs_nothing_in_the_clock_group(search, decision, own):
    """An off-by-one iteration count, or a decision returning the child Node, loses points in its own group only:
    the clock group runs the student's search through the lab's decision (lent by the grader), compared with the
    same run without a clock."""
    with pytest.raises(CheckFailed):
        (lab07.check_search_trees(search) if own == "search_trees" else lab07.check_decision(search, decision))
    assert lab07.check_clock(search) == 8


def test_lab07_a_wrong_default_c_is_caught_where_c_is_left_out():
    """Every hidden case passed c until a case called without it: a default of 1.4 for math.sqrt(2) now fails
    search_games (and only it), with a hint that states what was observed."""
    def low_c(game, state, iterations, rng, c=1.4, clock=None):
        return ref.mcts_search(game, state, iterations, rng, c, clock)

    with pytest.raises(CheckFailed) as failure:
        lab07.check_search_games(low_c)
    assert "called without c" in str(failure.value) and "default of c must be math.sqrt(2)" in str(failure.value)
    assert lab07.check_search_trees(low_c) == 5
    assert lab07.check_decision(low_c, _decide_with(low_c)) == 13
    assert lab07.check_clock(low_c) == 8

    def decision_low_c(game, state, iterations, rng, c=1.4, clock=None):
        return _decide_with(ref.mcts_search)(game, state, iterations, rng, c, clock)

    with pytest.raises(CheckFailed) as failure:
        lab07.check_decision(ref.mcts_search, decision_low_c)
    assert "called without c" in str(failure.value)


def test_lab07_a_new_random_inside_the_search_is_named():
    def own_rng(game, state, iterations, rng, c=ref.SQRT2, clock=None):
        return ref.mcts_search(game, state, iterations, random.Random(0), c, clock)

    def module_random(game, state, rng):
        return ref.rollout(game, state, random)

    for check, fn in ((lab07.check_search_games, own_rng), (lab07.check_rollout, module_random)):
        with pytest.raises(CheckFailed, match="drew no number from the rng it was given"):
            check(fn)


def test_lab07_an_unknown_mistake_is_not_given_a_known_name():
    """Expanding the LAST untried action first is no known mistake: the message shows the first wrong step (the
    expansion, its untried actions and the rule) and names no mistake."""
    def last_first(game, state, iterations, rng, c=ref.SQRT2, clock=None):
        root = ref.Node(state, untried=[] if game.is_terminal(state) else game.actions(state)[::-1])
        orig = ref.new_node

        def new(g, s, parent=None, action=None, player=None):
            node = orig(g, s, parent, action, player)
            node.untried.reverse()
            return node

        ref.new_node = new
        try:
            return ref.mcts_search(game, state, iterations, rng, c, clock)
        finally:
            ref.new_node = orig
        return root

    with pytest.raises(CheckFailed) as failure:
        lab07.check_search_trees(last_first)
    text = str(failure.value)
    assert "Selection reaches P1.0, whose untried actions are 0, 1 (in actions() order): expansion takes the first, 0." \
        in text and "Yours generated P1.0 -> 1." in text, text
    assert not any(m.hint in text for m in ref.SEARCH_MISTAKES)


# -- over the channel: the lab's own solution in a second process, as in a grading kernel -------------------------

def _solution_code() -> str:
    nb = nbformat.read(SOURCE, as_version=4)
    given = next(c.source for c in nb.cells if c.cell_type == "code" and "class Node" in c.source)
    answers = solution_answers(SOURCE)
    parts = ["import math, random", given] + [answers[g] for g in ("ucb1", "rollout", "mcts_search", "mcts_decision")]
    return "\n\n".join(p.replace("### BEGIN SOLUTION\n", "").replace("### END SOLUTION\n", "") for p in parts)


def _serve(code: str, names: list[str]):
    run = checker.HiddenRun(checker.CheckCall("07_mcts", "search_trees", {n: n for n in names}), "/tmp")
    proc = subprocess.Popen([sys.executable, "-c", code + "\n" + run.code()])
    sock = run._accept(lambda: proc.poll() is None)
    assert sock is not None
    peer = checker.CheckerPeer(sock, time.monotonic() + 60)
    hello = peer.receive()
    assert hello["op"] == "hello"
    found = {name: peer.dec(v) for name, v in hello["names"].items()}
    run.close()
    return peer, found, proc


def test_lab07_the_solution_passes_every_group_over_the_channel_within_the_time_limit():
    names = ["ucb1", "rollout", "mcts_search", "mcts_decision"]
    peer, fns, proc = _serve(_solution_code(), names)
    try:
        start = time.monotonic()
        counts = _all_groups(fns["ucb1"], fns["rollout"], fns["mcts_search"], fns["mcts_decision"])
        took = time.monotonic() - start
        assert counts == [20, 8, 5, 6, 13, 8]
        assert took < 20, f"the hidden checks of a correct submission took {took:.1f} s"
        print(f"lab 07 hidden checks over the channel: {took:.2f} s")
    finally:
        peer.send({"op": "bye"})
        proc.wait(10)


WRONG_HELPERS = {
    "rollout-raises-at-the-end": ("rollout", "    s = state\n",
                                  "    s = game.result(state, rng.choice(game.actions(state)))\n"),
    "ucb1-raises": ("ucb1", "    if visits == 0:\n", "    if visits >= 0:\n        raise ValueError('no score')\n"),
    "rollout-returns-the-start": ("rollout", "    return s\n", "    return state\n"),
}


@pytest.mark.parametrize("wrong", list(WRONG_HELPERS))
def test_lab07_a_raising_or_wrong_helper_costs_points_in_its_own_group_only_over_the_channel(wrong):
    """The search, decision and clock groups run the student's functions with the lab's ucb1 and rollout lent in
    place of theirs (over the channel, for the length of each call): a helper that raises, or returns a state that
    is not the end of the game, fails its own group only."""
    own, old, new = WRONG_HELPERS[wrong]
    code = _solution_code()
    answer = solution_answers(SOURCE)[own].replace("### BEGIN SOLUTION\n", "").replace("### END SOLUTION\n", "")
    assert code.count(answer) == 1 and answer.count(old) == 1
    code = code.replace(answer, answer.replace(old, new))
    names = ["ucb1", "rollout", "mcts_search", "mcts_decision"]
    peer, fns, proc = _serve(code, names)
    try:
        with pytest.raises(CheckFailed):
            (lab07.check_ucb1 if own == "ucb1" else lab07.check_rollout)(fns[own])
        assert lab07.check_search_trees(fns["mcts_search"], fns["ucb1"], fns["rollout"]) == 5
        assert lab07.check_search_games(fns["mcts_search"], fns["ucb1"], fns["rollout"]) == 6
        assert lab07.check_decision(fns["mcts_search"], fns["mcts_decision"]) == 13
        assert lab07.check_clock(fns["mcts_search"]) == 8
        with pytest.raises((IndexError, ValueError)):  # the student's own helper is theirs again after each call
            fns["mcts_search"](data.two_by_two(), data.two_by_two().initial, 6, checker.LentRandom(1))
    finally:
        peer.send({"op": "bye"})
        proc.wait(10)


@pytest.mark.parametrize("attack, expected", [
    ("rng._randbelow(3)", "AttributeError"),
    ("rng.seed.__func__", "AttributeError"),
    ("rng.choice.__self__._randbelow", "AttributeError"),
    ("rng.getstate.__globals__", "AttributeError"),
])
def test_lab07_the_lent_random_lends_nothing_private(attack, expected):
    code = ("def probe(rng):\n    try:\n        " + attack + "\n        return 'reached'\n"
            "    except Exception as exc:\n        return type(exc).__name__\n"
            "def draw(rng):\n    return [rng.choice([1, 2, 3]) for _ in range(5)]\n")
    peer, fns, proc = _serve(code, ["probe", "draw"])
    try:
        assert fns["probe"](checker.LentRandom(1)) == expected
        mine, here = checker.LentRandom(4), random.Random(4)
        assert fns["draw"](mine) == [here.choice([1, 2, 3]) for _ in range(5)]
        assert mine.getstate() == here.getstate(), "the draws are made in the grader, on its generator"
    finally:
        peer.send({"op": "bye"})
        proc.wait(10)


def test_lab07_a_lent_random_shuffles_the_students_list_as_random_does():
    """shuffle works in place, so it runs in the kernel on the student's list; its draws are the grader's."""
    code = "def mix(rng):\n    x = list(range(7))\n    rng.shuffle(x)\n    return x, rng.choice('abc')\n"
    peer, fns, proc = _serve(code, ["mix"])
    try:
        mine, here = checker.LentRandom(5), random.Random(5)
        x = list(range(7))
        here.shuffle(x)
        assert fns["mix"](mine) == (x, here.choice("abc"))
        assert mine.getstate() == here.getstate()
    finally:
        peer.send({"op": "bye"})
        proc.wait(10)


def test_lab07_a_check_starts_from_the_same_state_of_the_random_module():
    """A search that draws from the random module instead of its rng gets the same draws in every check, so its
    grade and messages do not change when it is graded again."""
    code = "import random\nrandom.seed()\n\ndef draws():\n    return [random.random() for _ in range(3)]\n"
    seen = []
    for _ in range(2):
        peer, fns, proc = _serve(code, ["draws"])
        try:
            seen.append(fns["draws"]())
        finally:
            peer.send({"op": "bye"})
            proc.wait(10)
    assert seen[0] == seen[1]


def test_lab07_groups_stay_small():
    for name in ("reference.py", "cases.py", "groups.py", "explain.py"):
        lines = (ROOT / "instructor" / "coursetools" / "checks" / "lab07" / name).read_text().count("\n")
        assert lines < 420, f"{name} has {lines} lines"
    assert groups.PROOF_CASES >= 3


def _visible_notes() -> dict:
    """The notes each visible search test of the source notebook ships, by the case they were written for."""
    nb = nbformat.read(ROOT / "source" / "07_mcts" / "07_mcts.ipynb", as_version=4)
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    return dict(re.findall(r'explain_search_run\("([^"]+)".*?\'([A-Za-z0-9+/=]+)\'\)', text, re.S))


def test_lab07_visible_search_tests_ship_the_notes_of_their_cases():
    """The notes in the visible tests are those of the course's run (`python -m coursetools golden` does not write
    them: after a change of the rules, write `explain.visible_notes()` into the source notebook)."""
    from coursetools.checks.lab07 import explain

    assert _visible_notes() == explain.visible_notes()


def test_lab07_the_first_wrong_step_of_a_search():
    """Backup, selection and expansion mistakes are told at their first iteration, with the numbers; the correct
    search is told nothing, through the notes the visible tests ship as through the hidden checks."""
    from course_lib.mcts_explain import explain_search_run

    from coursetools.checks.lab07 import explain

    case = data.trees()[0]
    notes = explain.notes(case)

    def told(search):
        return explain_search_run(case.name, search, case.game, case.state, 6, 1, ref.SQRT2, notes)

    assert told(ref.mcts_search) is None
    text = told(partial(ref.mcts_search, view="root"))
    assert "after iteration 3 its tree first holds other visits" in text and \
        "L.0 (moved into by MIN): 1 visit, total -1; yours 1 visit, total 1." in text, text
    text = told(partial(ref.mcts_search, select="children"))
    assert "in iteration 2" in text and "which still has untried actions (1)" in text, text
    def one_more_draw(game, state, iterations, rng, c=ref.SQRT2, clock=None):
        root = ref.mcts_search(game, state, iterations, rng, c, clock)
        rng.random()
        return root

    assert "drew other numbers from the generator" in told(one_more_draw)
    text = told(partial(ref.mcts_search, tree_rollout=True))
    assert "The correct tree has 2 nodes after iteration 1" in text and "L.0, which the correct one has not" in text
    with pytest.raises(CheckFailed) as failure:
        lab07.check_search_games(partial(ref.mcts_search, ucb=partial(ref.ucb1, bug="swapped")))
    assert "The root (6 visits) has no untried action" in str(failure.value)
    assert "(2,1): 1 visit, total 1, UCB1 2.893. It takes (2,1)." in str(failure.value)


def test_lab07_a_rollout_drawing_elsewhere_costs_nothing_in_the_decision_and_clock_groups():
    """A rollout drawing from a generator other than the one it is given makes the search unrepeatable: decision and
    clock grade the cases where no rollout draws (leaves only) and pass a correct decision and clock. (The other
    generator is seeded, so the test runs the same way every time: drawing from the random module's own generator,
    whose state other tests move, it failed for some of those states.)"""
    import random as module

    elsewhere = module.Random(1)

    def search(game, state, iterations, rng, c=ref.SQRT2, clock=None):
        return ref.mcts_search(game, state, iterations, module.Random(elsewhere.random()), c, clock)

    assert lab07.check_decision(search, _decide_with(search)) == 13
    assert lab07.check_clock(search) == 8
    with pytest.raises(CheckFailed) as failure:
        lab07.check_decision(search, _decide_with(search, rule="value"))
    assert "the tree [0, 1, 0], 3 iterations" in str(failure.value)


@pytest.mark.parametrize("mistake", ref.UCB1_MISTAKES + ["shuffle"], ids=lambda m: getattr(m, "key", m))
def test_lab07_a_wrong_ucb1_or_rollout_costs_nothing_in_the_search_groups(mistake):
    """A search that calls the student's own wrong ucb1 (or a rollout that shuffles instead of rng.choice) does what
    the correct search does with those helpers: the search groups, given the helpers, pass it (test_ucb1 and
    test_rollout charge the mistake); without them, the search groups still fail it."""
    if mistake == "shuffle":
        def rollout(game, state, rng):
            s = state
            while not game.is_terminal(s):
                acts = list(game.actions(s))
                rng.shuffle(acts)
                s = game.result(s, acts[0])
            return s
        ucb1 = ref.ucb1
        with pytest.raises(CheckFailed):
            lab07.check_rollout(rollout)
    else:
        ucb1, rollout = mistake.model, ref.rollout
        with pytest.raises(CheckFailed):
            lab07.check_ucb1(ucb1)
    search = partial(ref.mcts_search, ucb=ucb1, roll=rollout)
    assert lab07.check_search_trees(search, ucb1, rollout) == len(data.trees())
    assert lab07.check_search_games(search, ucb1, rollout) == len(data.games())
    if getattr(mistake, "key", "") != "ucb_unvisited_zero":  # the search scores only visited children: no change
        with pytest.raises(CheckFailed):
            lab07.check_search_trees(search)
            lab07.check_search_games(search)


def test_lab07_a_search_wrong_with_the_helpers_right_or_wrong_still_fails_and_says_so():
    """A search mistake of its own fails the search groups even with the student's helpers given; where those
    helpers differ from the lab's, the message says so (they are graded in their own tests)."""
    wrong_ucb = ref.UCB1_MISTAKES[1].model
    search = partial(ref.mcts_search, ucb=wrong_ucb, view="root")
    with pytest.raises(CheckFailed) as failure:
        lab07.check_search_games(search, wrong_ucb, ref.rollout)
    assert "Your ucb1 or rollout does not do what the lab's does" in str(failure.value)
    with pytest.raises(CheckFailed) as failure:
        lab07.check_search_games(partial(ref.mcts_search, view="root"), ref.ucb1, ref.rollout)
    assert "Your ucb1 or rollout" not in str(failure.value)
