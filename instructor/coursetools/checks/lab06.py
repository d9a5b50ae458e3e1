"""Hidden tests of lab 06 (beyond two players): expectimax, max^n, shallow pruning."""

from __future__ import annotations

import random
from typing import Any, Callable

from course_lib.games import GameTree
from course_lib.games.dice import PigRace
from course_lib.trace import Traced

from . import common
from . import reference_chance as ref
from .searchcheck import node_text, picture

LAB = "06_beyond_two_players"
MAX_SUM = 10

# -- the cases ---------------------------------------------------------------------------

CHANCE_LEVELS = [("MAX", "CHANCE"), ("MAX", "CHANCE", "MIN", "CHANCE"), ("MAX", "MIN", "CHANCE"),
                 ("MIN", "CHANCE", "MAX", "CHANCE")]


def chance_trees() -> dict[str, tuple[GameTree, Any]]:
    """Public trees with chance nodes, each with the state the search starts from."""
    mcmc = ("MAX", "CHANCE", "MIN", "CHANCE")
    deep = GameTree.from_nested(
        [[[[(0.25, 4), (0.75, 8)], [2, 6]], [[(0.5, -3), (0.5, 5)], [(0.1, 9), (0.9, 1)]]],
         [(0.6, [[7, 1], [(0.3, 0), (0.7, 10)]]), (0.4, [[3, 3], [(0.2, 6), (0.8, -2)]])]], levels=mcmc)
    cases = {
        "three gambles (MAX over chance)": GameTree.from_nested(
            [[(0.5, 4), (0.5, -2)], [(0.25, 8), (0.75, 0)], [(0.5, 1), (0.5, 1)]], levels=("MAX", "CHANCE")),
        "MAX, chance, MIN": GameTree.from_nested(
            [[(0.8, [3, 5]), (0.2, [1, 6])], [(0.8, [2, 4]), (0.2, [9, 7])]], levels=("MAX", "CHANCE", "MIN")),
        "MAX, chance, MIN, chance (depth 4)": deep,
        "the same tree from a MIN node inside": (deep, deep.children(deep.children(deep.initial)[0])[1]),
        "terminals at mixed depths": GameTree.from_nested(
            [[(0.5, 3), (0.5, [1, 7])], [(1.0, 2)], [(0.3, [[4], 5]), (0.7, -1)]], levels=mcmc),
        "a MIN root": GameTree.from_nested(
            [[(0.4, [6, 2]), (0.6, [5, 8])], [(0.7, [1, 9]), (0.3, [4, 3])]], levels=("MIN", "CHANCE", "MAX")),
        "three unequal outcomes": GameTree.from_nested(
            [[(0.1, 10), (0.6, 2), (0.3, -4)], [(0.2, 1), (0.2, 3), (0.6, 2)]], levels=("MAX", "CHANCE")),
        "equally likely outcomes": GameTree.from_nested([[1, 2], [0, 3, 5], [4]], levels=("MAX", "CHANCE")),
        "negative values": GameTree.from_nested(
            [[[(0.5, -3), (0.5, -8)], [-6]], [[(0.9, -1), (0.1, -20)], [(0.5, -2), (0.5, -4)]]],
            levels=("MAX", "MIN", "CHANCE")),
    }
    return {k: v if isinstance(v, tuple) else (v, v.initial) for k, v in cases.items()}


def random_chance_tree(rng: random.Random) -> GameTree:
    """A random tree with chance levels: unbalanced, 1-3 children, unequal probabilities."""
    levels = rng.choice(CHANCE_LEVELS)
    max_depth = rng.randint(2, 4)

    def grow(depth: int) -> Any:
        if depth == max_depth or (depth > 0 and rng.random() < 0.15):
            return rng.randint(-9, 9)
        kids = [grow(depth + 1) for _ in range(rng.randint(1, 3))]
        if levels[depth % len(levels)] != "CHANCE":
            return kids
        weights = [rng.randint(1, 4) for _ in kids]
        return [(w / sum(weights), k) for w, k in zip(weights, kids)]

    spec = grow(0)
    while not isinstance(spec, list):
        spec = grow(0)
    return GameTree.from_nested(spec, levels=levels)


def dice_cases() -> dict[str, tuple[PigRace, Any]]:
    """Public positions of the dice game: starts, mid-game, B to move, forced holds."""
    small = PigRace(target=6, rolls=4, die=(1, 2, 2, 3))
    five = PigRace(target=6, rolls=5, die=(1, 2, 2, 3))
    fair = PigRace(target=5, rolls=3, die=(1, 2, 3, 4, 5, 6))
    return {
        "PigRace(target=6, rolls=4, die=(1, 2, 2, 3)) from the start": (small, small.initial),
        "the same game, B to move, A 3 B 2, 3 rolls left": (small, small.state(3, 2, 0, "B", 3)),
        "the same game, A holds or rolls on a turn total of 3": (five, five.state(2, 4, 3, "A", 3)),
        "the same game, B rolls or holds on a turn total of 2": (five, five.state(4, 1, 2, "B", 4)),
        "no roll left: A can only hold": (small, small.state(1, 2, 2, "A", 0)),
        "a fair six-sided die, target 5, 3 rolls": (fair, fair.initial),
    }


def random_dice_case(rng: random.Random) -> tuple[PigRace, Any]:
    die = rng.choice([(1, 2, 2, 3), (1, 2, 3), (1, 1, 2, 3, 3, 3), (1, 2, 2, 2, 3, 4)])
    target = rng.randint(4, 7)
    game = PigRace(target=target, rolls=4, die=die)
    a, b = rng.randint(0, target - 1), rng.randint(0, target - 1)
    player = rng.choice(game.players)
    turn = rng.choice([0, 0, rng.randint(1, 3)])
    return game, game.state(a, b, turn, player, rng.randint(1 if turn == 0 else 0, 4))


def maxn_trees() -> dict[str, tuple[GameTree, Any]]:
    """Public three-player trees with no tie for any mover, from the root and inner nodes."""
    two = GameTree.from_nested([[(1, 2, 7), (6, 3, 1)], [(2, 5, 3), (4, 4, 2)], [(3, 1, 6), (5, 0, 5)]])
    three = GameTree.from_nested(
        [[[(3, 3, 4), (1, 6, 3)], [(7, 2, 1), (0, 1, 9)]],
         [[(2, 7, 1), (6, 0, 4)], [(5, 4, 1), (8, 1, 2)]]])
    cases = {
        "a P1 root over three P2 nodes": two,
        "three levels P1, P2, P3": three,
        "the same tree from a P2 node": (three, three.children(three.initial)[1]),
        "the same tree from a P3 node": (three, three.children(three.children(three.initial)[0])[1]),
        "terminals at mixed depths": GameTree.from_nested(
            [(4, 4, 2), [[(9, 0, 1), (1, 8, 1)], (2, 6, 2)], [(3, 1, 6), [(0, 2, 8), (5, 3, 2)]]]),
        "alpha-beta would prune the answer": GameTree.from_nested([(5, 3, 2), [(1, 3, 6), (6, 4, 0)]]),
        "a P3 root": GameTree.from_nested([[(2, 5, 3), (7, 1, 2)], [(0, 0, 10), (3, 6, 1)]], root="P3"),
        "a terminal root": GameTree.from_nested((1, 2, 3)),
    }
    return {k: v if isinstance(v, tuple) else (v, v.initial) for k, v in cases.items()}


def random_maxn_tree(rng: random.Random, *, ties: bool = False, total: int | None = None,
                     orders: bool = False) -> GameTree:
    """A random three-player tree. Without `ties` every entry value is used once per
    position, so no mover ever faces a tie; `total` makes every vector sum to it;
    `orders` lets the turn order differ from P1, P2, P3."""
    fresh = [iter(rng.sample(range(0, 100), 100)) for _ in range(3)]
    max_depth = rng.randint(2, 4)

    def vector() -> tuple:
        if total is not None:
            a = rng.randint(0, total)
            b = rng.randint(0, total - a)
            v = [a, b, total - a - b]
            rng.shuffle(v)
            return tuple(v)
        if ties:
            return tuple(rng.randint(0, 4) for _ in range(3))
        return tuple(next(f) for f in fresh)

    def grow(depth: int) -> Any:
        if depth == max_depth or (depth > 0 and rng.random() < 0.15):
            return vector()
        return [grow(depth + 1) for _ in range(rng.randint(1, 3))]

    spec = grow(0)
    while not isinstance(spec, list):
        spec = grow(0)
    if orders:
        levels = [rng.choice(["P1", "P2", "P3"]) for _ in range(rng.randint(2, 4))]
        return GameTree.from_nested(spec, levels=levels)
    return GameTree.from_nested(spec, root=rng.choice(["P1", "P2", "P3"]))


def turn_trees() -> dict[str, tuple[GameTree, Any]]:
    """Public trees for the first-best rule on ties and for turn orders other than P1, P2, P3."""
    twice = GameTree.from_mapping({
        "root": ("P1", ["a", "b"]),
        "a": ("P1", ["a1", "a2"]), "a1": (3, 1, 1), "a2": (2, 5, 0),
        "b": ("P3", ["b1", "b2"]), "b1": (1, 1, 6), "b2": (4, 4, 4),
    }, root="root")
    backwards = GameTree.from_nested(
        [[[(1, 2, 3), (4, 0, 2)], [(2, 2, 2), (0, 5, 1)]], [[(3, 1, 0), (2, 3, 5)], [(6, 0, 0), (1, 1, 7)]]],
        levels=("P1", "P3", "P2"))
    return {
        "a tie for P2": (GameTree.from_nested([[(3, 5, 2), (1, 5, 4)], [(2, 3, 4)]]), None),
        "a tie for P1 at the root": (GameTree.from_nested([[(4, 1, 5)], [(4, 6, 0)]]), None),
        "ties for P3 below a tie for P2": (GameTree.from_nested(
            [[[(1, 2, 2), (5, 2, 2)], [(0, 1, 9)]], [(3, 3, 3)]]), None),
        "P1 moves twice in a row": (twice, None),
        "turns in the order P1, P3, P2": (backwards, None),
        "the same tree from a P3 node": (backwards, backwards.children(backwards.initial)[1]),
    }


def shallow_trees() -> dict[str, tuple[GameTree, Any, float]]:
    """Public trees whose vectors are nonnegative and sum to at most `max_sum`."""
    deep = GameTree.from_nested([(6, 2, 2), [[(1, 5, 4), (0, 1, 9)], [(7, 3, 0)]]])
    korf = GameTree.from_nested(
        [[(5, 3, 2), (4, 5, 1)], [(2, 7, 1), (2, 1, 7), (8, 1, 1)], [(6, 4, 0), (5, 5, 0)]])
    three = GameTree.from_nested(
        [[[(3, 3, 4), (1, 6, 3)], [(7, 2, 1), (0, 1, 9)]],
         [[(2, 7, 1), (6, 0, 4)], [(5, 4, 1), (8, 1, 1)]],
         [[(4, 5, 1), (2, 2, 6)], [(9, 1, 0), (1, 0, 9)]]])
    cases = {
        "a cut below the root": (korf, None, MAX_SUM),
        "a cut exactly at the bound (a tie)": (GameTree.from_nested(
            [[(6, 2, 2), (3, 4, 3)], [(2, 7, 1), (9, 0, 1)]]), None, MAX_SUM),
        "three levels": (three, None, MAX_SUM),
        "the same tree from a P2 node": (three, three.children(three.initial)[2], MAX_SUM),
        "deep pruning would change the answer": (deep, None, MAX_SUM),
        "sums below max_sum = 12": (GameTree.from_nested(
            [[(4, 3, 2), (2, 2, 2)], [(1, 8, 0), (9, 0, 0)], [(5, 1, 1)]]), None, 12),
        "a terminal root": (GameTree.from_nested((2, 3, 5)), None, MAX_SUM),
    }
    return {k: (t, t.initial if s is None else s, m) for k, (t, s, m) in cases.items()}


def _with_random(public: dict, make: Callable[[random.Random], Any], group: str, count: int,
                 secret_count: int) -> dict:
    cases = dict(public)
    r = common.rng(LAB, group)
    for i in range(count):
        cases[f"random case #{i + 1}"] = make(r)
    if common.has_secret():
        r = common.rng(LAB, group, secret=True)
        for i in range(secret_count):
            cases[f"secret random case #{i + 1}"] = make(r)
    return cases


def _rooted(tree: GameTree, rng: random.Random) -> tuple[GameTree, Any]:
    inner = [n for n in tree.nodes() if not tree.is_terminal(n) and tree.kind(n) != "CHANCE"]
    return tree, (tree.initial if rng.random() < 0.7 else rng.choice(inner))


# -- comparing a search with the reference ---------------------------------------------------


def _leaf_runs(trace: Any, tree: bool = True) -> list:
    """The leaves valued, in order. In a tree, calls in a row on one leaf count once (three
    utility() calls, one per player, value one leaf, but a second call for the same player
    or a second utilities() call is a second visit); in a game a state may recur."""
    if not tree:
        return trace.leaves()
    out: list = []
    asked: set = set()
    for e in trace.events("utility", "evaluate"):
        if out and out[-1] == e.node and e.action is not None and e.action not in asked:
            asked.add(e.action)  # the same leaf, asked for another player's utility
            continue
        out.append(e.node)
        asked = {e.action}
    return out


def _compare(name: str, student: Callable[..., Any], reference: Callable[..., Any], game: Any, state: Any, *,
             case: str, check_result: Callable[[Any, Any, str], None], extra: tuple = (),
             leaf_hint: Callable[[Any, list], str] | None = None) -> None:
    """Result (exact type), leaves in order, no leaf twice, children generated in order."""
    mine, theirs = Traced(game), Traced(game)
    expected = reference(theirs, state, *extra)
    got = common.call(student, mine, state, *extra, where=f"on {case}")
    check_result(got, expected, case)
    pic = picture(game)
    is_tree = isinstance(game, GameTree)
    exp_leaves, got_leaves = _leaf_runs(theirs.trace, is_tree), _leaf_runs(mine.trace, is_tree)
    twice = [n for n in dict.fromkeys(got_leaves) if got_leaves.count(n) > 1] if is_tree else []
    if twice:
        common.fail(f"On {case} your search valued the leaf {node_text(game, twice[0])} more than once.",
                    "store the value a recursive call returns instead of calling it again", pic)
    if exp_leaves != got_leaves:
        hint = leaf_hint(mine, got_leaves) if leaf_hint else ""
        raise common.CheckFailed(common.sequence_message(
            "The leaves your search valued (in order)", [_short(game, n) for n in exp_leaves],
            [_short(game, n) for n in got_leaves], f"on {case}", pic,
            hint or "visit the children in actions() order (at a chance node, in outcomes() order) "
                    "and value each leaf once"))
    exp_gen, got_gen = theirs.trace.generated(), mine.trace.generated()
    if exp_gen != got_gen:
        raise common.CheckFailed(common.sequence_message(
            "The children your search generated with result() (in order)", [_short(game, n) for n in exp_gen],
            [_short(game, n) for n in got_gen], f"on {case}", pic,
            "generate each child once, with game.result(state, action), in actions() order"))


def _short(game: Any, node: Any) -> str:
    if isinstance(game, GameTree):
        return str(node)
    return "(" + str(node) + ")"


def _number_result(name: str, game: Any, state: Any) -> Callable[[Any, Any, str], None]:
    def check(got: Any, expected: Any, case: str) -> None:
        common.expect_number(got, f"{name} on {case}")
        if not common.same(got, expected):
            hint = ref.expectimax_diagnosis(game, state, got)
            common.fail(f"{name} on {case}: expected {expected!r}, yours returned {got!r}.",
                        hint or "at a chance node take sum(p * value) over game.outcomes(state); MAX and MIN "
                                "nodes as in minimax, from the root player's point of view",
                        picture(game))
    return check


def _vector_result(name: str, game: Any, state: Any,
                   diagnose: Callable[[Any, Any, Any], str] = ref.maxn_diagnosis) -> Callable[[Any, Any, str], None]:
    def check(got: Any, expected: Any, case: str) -> None:
        if type(got) is not tuple:
            common.fail(f"{name} on {case} should return a tuple (like game.utilities(leaf)), "
                        f"but it returned {type(got).__name__}: {got!r:.80}")
        if not common.same(got, expected):
            hint = diagnose(game, state, got)
            common.fail(f"{name} on {case}: expected {expected!r}, yours returned {got!r}.",
                        hint or "at each node the player to move picks the first child whose entry for her "
                                "is largest; a leaf's vector is game.utilities(state)",
                        picture(game))
    return check


def _shallow_diagnosis(max_sum: float) -> Callable[[Any, Any, Any], str]:
    def diagnose(game: Any, state: Any, got: Any) -> str:
        hints = [hint for variant, hint in ref.SHALLOW_MISTAKES
                 if common.same(got, ref.maxn_shallow_value(game, state, max_sum, variant))]
        return ref.join_hints(hints) or ref.maxn_diagnosis(game, state, got)
    return diagnose


# -- the test groups --------------------------------------------------------------------------


def check_expectimax_trees(expectimax_value) -> int:
    """expectimax_value on trees with chance nodes: value, leaves in order, children generated."""
    cases = _with_random(chance_trees(), lambda r: _rooted(random_chance_tree(r), r), "expectimax_trees", 8, 12)
    for case, (tree, state) in cases.items():
        _compare("expectimax_value", expectimax_value, ref.expectimax_value, tree, state, case=case,
                 check_result=_number_result("expectimax_value", tree, state))
    return len(cases)


def check_expectimax_dice(expectimax_value) -> int:
    """expectimax_value on positions of PigRace (same player again after a roll, weighted dice)."""
    cases = _with_random(dice_cases(), random_dice_case, "expectimax_dice", 4, 6)
    for case, (game, state) in cases.items():
        _compare("expectimax_value", expectimax_value, ref.expectimax_value, game, state, case=case,
                 check_result=_number_result("expectimax_value", game, state))
    return len(cases)


def check_maxn_trees(maxn_value) -> int:
    """maxn_value on three-player trees without ties, from the root and from inner nodes."""
    cases = _with_random(maxn_trees(), lambda r: _rooted(random_maxn_tree(r), r), "maxn_trees", 8, 12)
    for case, (tree, state) in cases.items():
        _compare("maxn_value", maxn_value, ref.maxn_value, tree, state, case=case,
                 check_result=_vector_result("maxn_value", tree, state))
    return len(cases)


def check_maxn_turns(maxn_value) -> int:
    """maxn_value with ties (first best child) and turn orders other than P1, P2, P3."""
    public = {k: (t, t.initial if s is None else s) for k, (t, s) in turn_trees().items()}

    def make(r: random.Random) -> tuple:
        return _rooted(random_maxn_tree(r, ties=True, orders=r.random() < 0.5), r)

    cases = _with_random(public, make, "maxn_turns", 8, 12)
    for case, (tree, state) in cases.items():
        _compare("maxn_value", maxn_value, ref.maxn_value, tree, state, case=case,
                 check_result=_vector_result("maxn_value", tree, state))
    return len(cases)


def check_maxn_shallow(maxn_shallow_value) -> int:
    """maxn_shallow_value: the max^n vector, and exactly the leaves shallow pruning values."""

    def make(r: random.Random) -> tuple:
        tree = random_maxn_tree(r, total=MAX_SUM)
        return (*_rooted(tree, r), MAX_SUM)

    cases = _with_random(shallow_trees(), make, "maxn_shallow", 10, 12)
    for case, (tree, state, max_sum) in cases.items():

        def leaf_hint(traced: Any, got: list, tree: GameTree = tree, state: Any = state, max_sum: float = max_sum) -> str:
            hints = []
            for variant, hint in ref.SHALLOW_MISTAKES:
                other = Traced(tree)
                ref.maxn_shallow_value(other, state, max_sum, variant)
                if _leaf_runs(other.trace) == got:
                    hints.append(hint)
            return ref.join_hints(hints) or (
                "after each child of a node of player j whose parent is sure of `bound` for its own "
                "player, stop when best[j] >= max_sum - bound; pass each child the parent's best entry so far")

        _compare("maxn_shallow_value", maxn_shallow_value, ref.maxn_shallow_value, tree, state, case=case,
                 check_result=_vector_result("maxn_shallow_value", tree, state, _shallow_diagnosis(max_sum)),
                 extra=(max_sum,),
                 leaf_hint=leaf_hint)
    return len(cases)
