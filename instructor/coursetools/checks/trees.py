"""Explicit trees for the hidden tests: fixed public ones and seeded random ones."""

from __future__ import annotations

import random
from typing import Any, Callable

from course_lib.games import GameTree

SIXTEEN = [7, 6, 2, 8, 8, 7, 1, 3, 0, 7, 7, 8, 8, 8, 2, 3]
EIGHT = [3, 5, 2, 9, 12, 5, 23, 24]
AIMA = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


#: Shared trees by stable id: (the name a student reads, how to build it). A lab picks the ones it
#: uses by id (adding a tree here changes no lab's grading until a lab names it).
TREES: dict[str, tuple[str, Callable[[], GameTree]]] = {
    "sixteen": ("the 16-leaf tree", lambda: GameTree.from_leaves(SIXTEEN, 2)),
    "eight": ("the 8-leaf list", lambda: GameTree.from_leaves(EIGHT, 2)),
    "aima": ("a ternary tree (AIMA's figure)", lambda: GameTree.from_nested(AIMA)),
    "aima-min": ("the same tree with MIN at the root", lambda: GameTree.from_nested(AIMA, root="MIN")),
    "unbalanced": ("an unbalanced tree", lambda: GameTree.from_nested([[4, [6, 2], 9], 5, [[1, 8], [7], 3]])),
    "tie-cut": ("a tie at the cut point", lambda: GameTree.from_nested([[5, 6], [5, 9], [4, 7]])),
    "tie-min-cut": ("a tie at a MIN cut",
                    lambda: GameTree.from_nested([[[3, 4], [3, 1]], [[2, 9], [3, 8]]], root="MIN")),
    "deep-cut": ("a deep cut-off", lambda: GameTree.from_nested([[[[10, 11], [9, 12]], [[14, 15], [13, 14]]],
                                                                 [[[5, 2], [4, 1]], [[3, 22], [20, 21]]]])),
    "mixed-depths": ("terminals at mixed depths",
                     lambda: GameTree.from_nested([3, [[2, 7], 1], [[5], [[6, 0], 4]], 8])),
    "chain": ("a chain of single children", lambda: GameTree.from_nested([[[[[4]]]], [[[2]]], [[[[[9]]]]]])),
    "terminal-root": ("a terminal root", lambda: GameTree.from_nested(6)),
    "negative": ("negative values", lambda: GameTree.from_nested([[-3, -7], [-2, [-9, -1]], [-5, -4, -6]])),
}


def tree(id: str) -> GameTree:
    """A fresh copy of the shared tree `id`."""
    return TREES[id][1]()


def name(id: str) -> str:
    """The name of the shared tree `id` in messages."""
    return TREES[id][0]


def random_tree(rng: random.Random, max_depth: int = 4, max_branching: int = 3,
                leaf_chance: float = 0.15, values: tuple[int, int] = (-9, 9),
                root: str | None = None) -> GameTree:
    """A random tree: unbalanced, mixed arity, small integer leaves (ties happen)."""

    def grow(depth: int) -> Any:
        if depth == max_depth or (depth > 0 and rng.random() < leaf_chance):
            return rng.randint(*values)
        return [grow(depth + 1) for _ in range(rng.randint(1, max_branching))]

    spec = grow(0)
    while not isinstance(spec, list):
        spec = grow(0)
    return GameTree.from_nested(spec, root=root or rng.choice(["MAX", "MIN"]))


def seeded_trees(rng: random.Random, count: int) -> dict[str, GameTree]:
    """`count` random trees named by their number."""
    out = {}
    for i in range(count):
        out[f"random tree #{i + 1}"] = random_tree(
            rng, max_depth=rng.randint(2, 5), max_branching=rng.randint(2, 4))
    return out


def as_tree(game: Any, state: Any, first: Any = None) -> GameTree:
    """The whole game below `state` as a GameTree (MAX is `first`, by default the player to move there).

    A tree crosses to the submission's kernel by value, so the student's search runs there at full
    speed; use it where only the answer is checked. Nodes are named ``n0, n1, ...`` depth first.
    """
    first = game.to_move(state) if first is None else first
    nodes: dict[str, Any] = {}

    def add(s: Any) -> str:
        name = f"n{len(nodes)}"
        nodes[name] = None
        if game.is_terminal(s):
            nodes[name] = game.utility(s, first)
        else:
            kids = [add(game.result(s, a)) for a in game.actions(s)]
            nodes[name] = ("MAX" if game.to_move(s) == first else "MIN", kids)
        return name

    root = add(state)
    return GameTree.from_mapping(nodes, root=root)
