"""Lab 06's cases as data: each public case is one row with a stable id; seeded cases follow.

Adding a hidden case is one row in one of these tables (or one more seeded case in the
group's count). A case's id names it in golden files and reports; its name is what a
student reads.
"""

from __future__ import annotations

import random
from typing import Any

from course_lib.games import CutOff, GameTree
from course_lib.games.dice import PigRace

from .. import kit
from ..kit import Case

LAB = "06_beyond_two_players"
MAX_SUM = 10

CHANCE_LEVELS = [("MAX", "CHANCE"), ("MAX", "CHANCE", "MIN", "CHANCE"), ("MAX", "MIN", "CHANCE"),
                 ("MIN", "CHANCE", "MAX", "CHANCE")]
MCMC = ("MAX", "CHANCE", "MIN", "CHANCE")


def _tree(spec: Any, **kw: Any) -> GameTree:
    return GameTree.from_nested(spec, **kw)


def _kid(tree: GameTree, *path: int) -> Any:
    """The node reached from the root by child indices `path`."""
    node = tree.initial
    for i in path:
        node = tree.children(node)[i]
    return node


def _case(id: str, name: str, tree: GameTree, *path: int, args: tuple = ()) -> Case:
    return Case(id, name, tree, _kid(tree, *path), args)


def expectimax_trees() -> list[Case]:
    """Public trees with chance nodes, some searched from an inner node."""
    deep = _tree([[[[(0.25, 4), (0.75, 8)], [2, 6]], [[(0.5, -3), (0.5, 5)], [(0.1, 9), (0.9, 1)]]],
                  [(0.6, [[7, 1], [(0.3, 0), (0.7, 10)]]), (0.4, [[3, 3], [(0.2, 6), (0.8, -2)]])]], levels=MCMC)
    return [
        _case("three-gambles", "three gambles (MAX over chance)", _tree(
            [[(0.5, 4), (0.5, -2)], [(0.25, 8), (0.75, 0)], [(0.5, 1), (0.5, 1)]], levels=("MAX", "CHANCE"))),
        _case("max-chance-min", "MAX, chance, MIN", _tree(
            [[(0.8, [3, 5]), (0.2, [1, 6])], [(0.8, [2, 4]), (0.2, [9, 7])]], levels=("MAX", "CHANCE", "MIN"))),
        _case("depth-four", "MAX, chance, MIN, chance (depth 4)", deep),
        _case("depth-four-from-min", "the same tree from a MIN node inside", deep, 0, 1),
        _case("mixed-depths", "terminals at mixed depths", _tree(
            [[(0.5, 3), (0.5, [1, 7])], [(1.0, 2)], [(0.3, [[4], 5]), (0.7, -1)]], levels=MCMC)),
        _case("min-root", "a MIN root", _tree(
            [[(0.4, [6, 2]), (0.6, [5, 8])], [(0.7, [1, 9]), (0.3, [4, 3])]], levels=("MIN", "CHANCE", "MAX"))),
        _case("unequal-outcomes", "three unequal outcomes", _tree(
            [[(0.1, 10), (0.6, 2), (0.3, -4)], [(0.2, 1), (0.2, 3), (0.6, 2)]], levels=("MAX", "CHANCE"))),
        _case("equal-outcomes", "equally likely outcomes", _tree([[1, 2], [0, 3, 5], [4]], levels=("MAX", "CHANCE"))),
        _case("negative-values", "negative values", _tree(
            [[[(0.5, -3), (0.5, -8)], [-6]], [[(0.9, -1), (0.1, -20)], [(0.5, -2), (0.5, -4)]]],
            levels=("MAX", "MIN", "CHANCE"))),
    ]


def dice() -> list[Case]:
    """Public positions of the dice game: starts, mid-game, B to move, forced holds."""
    small = PigRace(target=6, rolls=4, die=(1, 2, 2, 3))
    five = PigRace(target=6, rolls=5, die=(1, 2, 2, 3))
    fair = PigRace(target=5, rolls=3, die=(1, 2, 3, 4, 5, 6))
    return [
        Case("pig-start", "PigRace(target=6, rolls=4, die=(1, 2, 2, 3)) from the start", small, small.initial),
        Case("pig-b-to-move", "the same game, B to move, A 3 B 2, 3 rolls left", small, small.state(3, 2, 0, "B", 3)),
        Case("pig-a-turn-total", "the same game, A holds or rolls on a turn total of 3", five,
             five.state(2, 4, 3, "A", 3)),
        Case("pig-b-turn-total", "the same game, B rolls or holds on a turn total of 2", five,
             five.state(4, 1, 2, "B", 4)),
        Case("pig-forced-hold", "no roll left: A can only hold", small, small.state(1, 2, 2, "A", 0)),
        Case("pig-fair-die", "a fair six-sided die, target 5, 3 rolls", fair, fair.initial),
        *[Case(f"pig-cut-{d}", f"the first game seen {d} plies deep (CutOff, banks compared at the cut-off): the "
               f"cut-off falls on {'the die in the air' if d % 2 else 'decisions'}", cut, cut.initial)
          for d in (1, 2, 3) for cut in [CutOff(small, d, bank_guess)]],
    ]


def bank_guess(state: Any, player: Any) -> float:
    """A guess at a cut-off of PigRace: the banks' difference for `player`, over 10 (the turn total counts too)."""
    a, b = state.scores
    a, b = (a + state.turn_total, b) if state.player == "A" else (a, b + state.turn_total)
    return (a - b) / 10 if player == "A" else (b - a) / 10


def maxn_trees() -> list[Case]:
    """Public three-player trees with no tie for any mover, from the root and inner nodes."""
    two = _tree([[(1, 2, 7), (6, 3, 1)], [(2, 5, 3), (4, 4, 2)], [(3, 1, 6), (5, 0, 5)]])
    three = _tree([[[(3, 3, 4), (1, 6, 3)], [(7, 2, 1), (0, 1, 9)]], [[(2, 7, 1), (6, 0, 4)], [(5, 4, 1), (8, 1, 2)]]])
    return [
        _case("p1-over-p2", "a P1 root over three P2 nodes", two),
        _case("three-levels", "three levels P1, P2, P3", three),
        _case("three-levels-from-p2", "the same tree from a P2 node", three, 1),
        _case("three-levels-from-p3", "the same tree from a P3 node", three, 0, 1),
        _case("mixed-depths", "terminals at mixed depths", _tree(
            [(4, 4, 2), [[(9, 0, 1), (1, 8, 1)], (2, 6, 2)], [(3, 1, 6), [(0, 2, 8), (5, 3, 2)]]])),
        _case("alphabeta-would-prune", "alpha-beta would prune the answer",
              _tree([(5, 3, 2), [(1, 3, 6), (6, 4, 0)]])),
        _case("p3-root", "a P3 root", _tree([[(2, 5, 3), (7, 1, 2)], [(0, 0, 10), (3, 6, 1)]], root="P3")),
        _case("terminal-root", "a terminal root", _tree((1, 2, 3))),
    ]


def turn_trees() -> list[Case]:
    """Public trees for the first-best rule on ties and for turn orders other than P1, P2, P3."""
    twice = GameTree.from_mapping({
        "root": ("P1", ["a", "b"]),
        "a": ("P1", ["a1", "a2"]), "a1": (3, 1, 1), "a2": (2, 5, 0),
        "b": ("P3", ["b1", "b2"]), "b1": (1, 1, 6), "b2": (4, 4, 4),
    }, root="root")
    backwards = _tree([[[(1, 2, 3), (4, 0, 2)], [(2, 2, 2), (0, 5, 1)]], [[(3, 1, 0), (2, 3, 5)], [(6, 0, 0), (1, 1, 7)]]],
                      levels=("P1", "P3", "P2"))
    return [
        _case("tie-p2", "a tie for P2", _tree([[(3, 5, 2), (1, 5, 4)], [(2, 3, 4)]])),
        _case("tie-p1-root", "a tie for P1 at the root", _tree([[(4, 1, 5)], [(4, 6, 0)]])),
        _case("ties-p3-below-p2", "ties for P3 below a tie for P2",
              _tree([[[(1, 2, 2), (5, 2, 2)], [(0, 1, 9)]], [(3, 3, 3)]])),
        _case("p1-twice", "P1 moves twice in a row", twice),
        _case("order-p1-p3-p2", "turns in the order P1, P3, P2", backwards),
        _case("order-p1-p3-p2-from-p3", "the same tree from a P3 node", backwards, 1),
    ]


def twice_no_cut() -> GameTree:
    """P1 at the root P1.0 and again at P1.1 below it: P1.1's vectors would cut it if it were another player's."""
    return GameTree.from_mapping({
        "P1.0": ("P1", ["L.0", "P1.1"]), "L.0": (5, 3, 2),
        "P1.1": ("P1", ["L.1", "L.2"]), "L.1": (6, 2, 2), "L.2": (8, 1, 1),
    }, root="P1.0")


def shallow_trees() -> list[Case]:
    """Public trees whose vectors are nonnegative and sum to at most max_sum (the case's argument)."""
    deep = _tree([(6, 2, 2), [[(1, 5, 4), (0, 1, 9)], [(7, 3, 0)]]])
    korf = _tree([[(5, 3, 2), (4, 5, 1)], [(2, 7, 1), (2, 1, 7), (8, 1, 1)], [(6, 4, 0), (5, 5, 0)]])
    three = _tree([[[(3, 3, 4), (1, 6, 3)], [(7, 2, 1), (0, 1, 9)]], [[(2, 7, 1), (6, 0, 4)], [(5, 4, 1), (8, 1, 1)]],
                   [[(4, 5, 1), (2, 2, 6)], [(9, 1, 0), (1, 0, 9)]]])
    m = (MAX_SUM,)
    return [
        _case("cut-below-root", "a cut below the root", korf, args=m),
        _case("cut-at-bound", "a cut exactly at the bound (a tie)",
              _tree([[(6, 2, 2), (3, 4, 3)], [(2, 7, 1), (9, 0, 1)]]), args=m),
        _case("three-levels", "three levels", three, args=m),
        _case("three-levels-from-p2", "the same tree from a P2 node", three, 2, args=m),
        _case("deep-would-differ", "deep pruning would change the answer", deep, args=m),
        _case("bound-raised", "a bound raised by the second child",
              _tree([[(3, 5, 2)], [(5, 4, 1)], [(4, 5, 1), (1, 8, 1)]]), args=m),
        _case("sums-below-12", "sums below max_sum = 12",
              _tree([[(4, 3, 2), (2, 2, 2)], [(1, 8, 0), (9, 0, 0)], [(5, 1, 1)]]), args=(12,)),
        _case("terminal-root", "a terminal root", _tree((2, 3, 5)), args=m),
        # a node told nothing never stops, even when its player's entry reaches max_sum (a bound of 0 would cut)
        _case("first-child-reaches-max-sum", "a first child whose player reaches max_sum",
              _tree([[(1, 9, 0), (0, 10, 0), (2, 1, 7)], [(6, 4, 0)], [(3, 3, 4), (7, 0, 3)]]), args=m),
        _case("root-reaches-max-sum", "a root whose player reaches max_sum with its first child",
              _tree([[(10, 0, 0), (9, 0, 1)], [(4, 3, 3), (2, 6, 2)]]), args=m),
        # P1.1 is P1's like its parent: told P1's 5, its first child gives P1 6 >= 10 - 5, yet it must not stop there
        _case("p1-twice-no-cut", "P1 moves twice in a row (no pruning at a node of its parent's player)",
              twice_no_cut(), args=m),
    ]


# -- seeded cases ----------------------------------------------------------------------------------

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


def random_dice_case(rng: random.Random) -> tuple[PigRace, Any]:
    die = rng.choice([(1, 2, 2, 3), (1, 2, 3), (1, 1, 2, 3, 3, 3), (1, 2, 2, 2, 3, 4)])
    target = rng.randint(4, 7)
    game = PigRace(target=target, rolls=4, die=die)
    a, b = rng.randint(0, target - 1), rng.randint(0, target - 1)
    player = rng.choice(game.players)
    turn = rng.choice([0, 0, rng.randint(1, 3)])
    return game, game.state(a, b, turn, player, rng.randint(1 if turn == 0 else 0, 4))


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


def _rooted(id: str, name: str, tree: GameTree, rng: random.Random, args: tuple = ()) -> Case:
    """The tree searched from its root (7 times in 10) or from a random inner node that is not chance."""
    inner = [n for n in tree.nodes() if not tree.is_terminal(n) and tree.kind(n) != "CHANCE"]
    return Case(id, name, tree, tree.initial if rng.random() < 0.7 else rng.choice(inner), args)


def _dice_case(rng: random.Random, id: str, name: str) -> Case:
    game, state = random_dice_case(rng)
    return Case(id, name, game, state)


#: The cases of each test group: public rows, then how many seeded ones (public, secret).
GROUPS = {
    "expectimax_trees": (expectimax_trees, 8, 12,
                         lambda r, i, n: _rooted(i, n, random_chance_tree(r), r)),
    "expectimax_dice": (dice, 4, 6, _dice_case),
    "maxn_trees": (maxn_trees, 8, 12, lambda r, i, n: _rooted(i, n, random_maxn_tree(r), r)),
    "maxn_turns": (turn_trees, 8, 12,
                   lambda r, i, n: _rooted(i, n, random_maxn_tree(r, ties=True, orders=r.random() < 0.5), r)),
    "maxn_shallow": (shallow_trees, 10, 12,
                     lambda r, i, n: _rooted(i, n, random_maxn_tree(r, total=MAX_SUM), r, (MAX_SUM,))),
}


def cases(group: str) -> list[Case]:
    """Every case of `group`: its public rows, then its seeded cases (and secret ones with a seed)."""
    public, count, secret, make = GROUPS[group]
    return public() + kit.seeded(LAB, group, count, secret, make)
