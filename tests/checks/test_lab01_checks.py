"""Lab 01's hidden tests without nbgrader: the grader's Nim, the solution passes every group,
each classic mistake fails its own group with its hint, and nothing else gets points."""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

import nbformat
import pytest

from coursetools.quality.bank import solution_answers
from coursetools.checks import common, lab01
from coursetools.checks.lab01 import cases, reference
from coursetools.checks.nim import NimState, ReferenceNim, random_heaps, tree_size, xor_value
from coursetools.hidden import CheckFailed
from course_lib.games import GameTree, IllegalMoveError

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "source" / "01_game_trees" / "01_game_trees.ipynb"
GROUPS = ["nim_rules", "nim_immutable", "nim_illegal", "count_nodes", "tree_stats_depth", "tree_stats_leaves",
          "tree_stats_branching"]


def _solution_namespace() -> dict:
    """The source notebook's definitions (imports, NimState, TreeStats) and its solutions."""
    nb = nbformat.read(SOURCE, as_version=4)
    ns: dict = {}
    for cell in nb.cells:
        if cell.cell_type == "code" and ("import" in cell.source.split("\n")[0] or cell.source.startswith("class ")) \
                and not cell.get("metadata", {}).get("nbgrader"):
            exec(cell.source, ns)
    for source in solution_answers(SOURCE).values():
        exec(source, ns)
    return ns


@pytest.fixture(scope="module")
def solution() -> dict:
    return _solution_namespace()


def _run(group: str, **fns) -> str:
    """'' when the group passes, else its message."""
    try:
        getattr(lab01, f"check_{group}")(**fns)
    except CheckFailed as failure:
        return str(failure)
    return ""


def _args(group: str, ns: dict) -> dict:
    name = "Nim" if group.startswith("nim") else "count_nodes" if group == "count_nodes" else "tree_stats"
    return {name: ns[name]}


def test_lab01_reference_nim_follows_the_documented_rules():
    g = ReferenceNim((1, 0, 2))
    s = g.initial
    assert g.actions(s) == [(0, 1), (2, 1), (2, 2)] and g.to_move(s) == "P1"
    child = g.result(s, (2, 2))
    assert child == NimState((1, 0, 0), "P2") and s == NimState((1, 0, 2), "P1")
    end = g.result(child, (0, 1))
    assert g.is_terminal(end) and g.utility(end, "P2") == 1 and g.utility(end, "P1") == -1
    for bad in [(0, 0), (1, 1), (2, 3), (3, 1), (-1, 1), (0, True)]:
        with pytest.raises(IllegalMoveError, match=re.escape(repr(bad))):
            g.result(s, bad)
    assert tree_size((1, 2)) == 12 and tree_size((1, 2, 3)) == 447
    assert xor_value((1, 2, 3)) == -1 and xor_value((1, 2)) == 1


def test_lab01_reference_stats_of_known_trees():
    tiny = GameTree.from_nested([[1, 2, 3], 4])
    expected = reference.Stats(nodes=6, leaves=4, internal=2, depth=2, deepest=3)
    assert reference.reference_stats(tiny, tiny.initial) == expected
    leaf = GameTree.from_nested(5)
    assert reference.reference_stats(leaf, leaf.initial).nodes == 1


def test_lab01_solution_passes_every_group(solution):
    for group in GROUPS:
        assert _run(group, **_args(group, solution)) == "", group


def test_lab01_secret_seed_adds_cases_and_is_repeatable(monkeypatch):
    public = cases.heaps("nim_rules")
    monkeypatch.setattr(common, "secret_seed", lambda: "an instructor's seed")
    first, again = cases.heaps("nim_rules"), cases.heaps("nim_rules")
    assert first == again and len(first) > len(public) and first[:len(public)] == public
    monkeypatch.setattr(common, "secret_seed", lambda: "another seed")
    assert cases.heaps("nim_rules") != first
    assert all(any(h) and tree_size(h) <= 800 for h in first[len(public):])


def test_lab01_random_heaps_stay_small():
    import random

    rng = random.Random(4)
    assert all(tree_size(random_heaps(rng)) <= 800 for _ in range(50))


# -- each mistake in its own group, named ---------------------------------------------------

def _nim_variant(solution: dict, **methods):
    """The solution's Nim with some methods replaced."""
    return type("Nim", (solution["Nim"],), methods)


def test_lab01_count_nodes_mistakes_are_named(solution):
    def no_root(game, state):
        if game.is_terminal(state):
            return 0
        return sum(1 + no_root(game, game.result(state, a)) for a in game.actions(state))

    def leaves_only(game, state):
        if game.is_terminal(state):
            return 1
        return sum(leaves_only(game, game.result(state, a)) for a in game.actions(state))

    def by_formula(game, state):  # no exploration on explicit trees
        return len(game.nodes()) if isinstance(game.game, GameTree) else solution["count_nodes"](game, state)

    assert "forgot the root" in _run("count_nodes", count_nodes=no_root)
    assert "only the leaves" in _run("count_nodes", count_nodes=leaves_only)
    assert "exploring the tree" in _run("count_nodes", count_nodes=by_formula)
    assert "should return an int" in _run("count_nodes", count_nodes=lambda g, s: float(solution["count_nodes"](g, s)))


def test_lab01_tree_stats_mistakes_cost_only_their_field(solution):
    good = solution["tree_stats"]

    def depth_plus_one(game, state):
        d, leaves, b = good(game, state)
        return (d + 1, leaves, b)

    def branching_over_all(game, state):
        d, leaves, b = good(game, state)
        nodes = solution["count_nodes"](game, state)
        return (d, leaves, (nodes - 1) / nodes)

    failed = {g: _run(g, tree_stats=depth_plus_one) for g in GROUPS[4:]}
    assert "plies" in failed["tree_stats_depth"] and not failed["tree_stats_leaves"] and not failed["tree_stats_branching"]
    failed = {g: _run(g, tree_stats=branching_over_all) for g in GROUPS[4:]}
    assert "internal nodes only" in failed["tree_stats_branching"] and not failed["tree_stats_depth"]
    assert "TreeStats(depth, leaves, branching)" in _run("tree_stats_depth", tree_stats=lambda g, s: {"depth": 0})


def test_lab01_nim_mistakes_are_named(solution):
    Nim = solution["Nim"]

    def stays(self, state, action):
        child = Nim.result(self, state, action)
        return type(child)(child.heaps, state.to_move)

    def order(self, state):
        return sorted(Nim.actions(self, state), key=lambda a: (a[0], -a[1]))

    def accepts_zero(self, state, action):
        heap, count = action
        heaps = state.heaps[:heap] + (state.heaps[heap] - count,) + state.heaps[heap + 1:]
        return type(state)(heaps, self.opponent(state.to_move))

    assert "players not alternating" in _run("nim_rules", Nim=_nim_variant(solution, result=stays))
    assert "actions() order" in _run("nim_rules", Nim=_nim_variant(solution, actions=order))
    assert "taking 0 is not a move" in _run("nim_illegal", Nim=_nim_variant(solution, result=accepts_zero))
    assert _run("nim_rules", Nim=_nim_variant(solution, result=accepts_zero)) == ""


def test_lab01_mutating_result_is_caught_with_deepcopy():
    class ListState(NamedTuple):
        heaps: list
        to_move: str

    class MutatingNim:
        players = ("P1", "P2")

        def __init__(self, heaps):
            self.initial = ListState(list(heaps), "P1")

        def to_move(self, s):
            return s.to_move

        def actions(self, s):
            return [(i, k) for i, h in enumerate(s.heaps) for k in range(1, h + 1)]

        def result(self, s, a):
            s.heaps[a[0]] -= a[1]
            return ListState(s.heaps, "P2" if s.to_move == "P1" else "P1")

        def is_terminal(self, s):
            return not any(s.heaps)

        def utility(self, s, p):
            return -1 if p == s.to_move else 1

    assert _run("nim_rules", Nim=MutatingNim) == ""  # rules are right when each call gets a fresh copy
    assert "state mutated" in _run("nim_immutable", Nim=MutatingNim)


def test_lab01_look_alike_answers_get_no_points():
    class Anything:
        def __eq__(self, other):
            return True

        def __ne__(self, other):
            return False

    assert _run("count_nodes", count_nodes=lambda g, s: Anything()) != ""
    assert _run("tree_stats_depth", tree_stats=lambda g, s: (Anything(), Anything(), Anything())) != ""



def test_lab01_a_count_that_skips_a_state_met_before_is_told_where_its_walk_left_the_tree(solution):
    """A count over distinct states (a set of states seen) passes on trees, where every state is one node, and
    is told at RaceTo(4, 2) below which node its walk made fewer children than the tree has."""

    def count_nodes(game, state):
        seen = set()

        def visit(s):
            if s in seen:
                return 0
            seen.add(s)
            return 1 + (0 if game.is_terminal(s) else sum(visit(game.result(s, a)) for a in game.actions(s)))

        return visit(state)

    message = _run("count_nodes", count_nodes=count_nodes)
    assert "count_nodes on RaceTo(4, 2): expected 12, yours returned 8." in message
    assert "your walk first differs from the tree below the state after the moves 2/1" in message
    assert "is reached by 2 move orders (the state after the moves 1/2, the state after the moves 2/1)" in message
    assert "matches none" not in message and "Known mistake" not in message


def test_lab01_a_depth_is_explained_at_the_deepest_node_whose_depth_is_wrong(solution):
    """A depth fixed by the first leaf the walk meets: the message names the node whose depth is first wrong, the
    rule with its children's depths, and the leaves the student's walk reached there, in order."""

    def tree_stats(game, state):
        leaves, depth, stack = 0, 0, [(state, 0)]
        while stack:
            s, d = stack.pop()
            if game.is_terminal(s):
                leaves += 1
                depth = d if leaves == 1 else depth
                continue
            stack.extend((game.result(s, a), d + 1) for a in game.actions(s))
        return solution["TreeStats"](depth, leaves, 0.0)

    message = _run("tree_stats_depth", tree_stats=tree_stats)
    assert "your depth first differs from the correct one at P2.0." in message
    assert "There the correct tree has MIN node P2.0 with children L.0 = 0, P1.1 = 1, L.3 = 0." in message
    assert "Yours, called on P2.0, returned 1" in message
    assert "in the order it reached them (depth counted from P2.0): L.3 (depth 1), L.2 (depth 2)" in message
    assert _run("tree_stats_leaves", tree_stats=tree_stats) == ""
