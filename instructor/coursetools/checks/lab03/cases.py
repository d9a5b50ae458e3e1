"""Lab 03's cases as data: each public case is one row with a stable id; seeded cases follow.

Adding a hidden case is one row: a shared tree id in a group's `TREE_IDS`, a tree in `TIES`, `DEEP`
or `DECISION_TREES`, a window in `WINDOWS`, or a `Case` in `POSITIONS`. A case's id names it in
golden files; its name is what a student reads (with the window, when the caller gives one).
"""

from __future__ import annotations

import math
import random
from typing import Any

from course_lib.games import ConnectFour, GameTree, RaceTo, TicTacToe
from course_lib.games.race import RaceState

from .. import kit, trees
from ..kit import Case
from ..nim import NimState, ReferenceNim

LAB = "03_alphabeta"

#: Ties at the cut point, each with its twin where the same cut is strict: id -> (name, spec, root).
TIES = {
    "tie-pairs": ("the tie tree [[5, 6], [5, 9]]", [[5, 6], [5, 9]], "MAX"),
    "tie-at-max": ("a tie at MAX [[[4, 7], [4, 1]], [[2, 9], [4, 8]]] (MIN root)",
                   [[[4, 7], [4, 1]], [[2, 9], [4, 8]]], "MIN"),
    "tie-three-down": ("a tie three levels down", [[6], [[[6, 9], 1], 2]], "MAX"),
    "ties-both-kinds": ("ties at both kinds of node", [[3, [3, 8]], [[3, 4], 3, 9], [2, [3, 5]]], "MAX"),
}

#: Deep cut-offs: the bound that cuts comes from a grandparent or higher.
DEEP = {
    "deep-at-min": ("a deep cut at a MIN node [[10], [[[5, 99, 5], 20]]]", [[10], [[[5, 99, 5], 20]]], "MAX"),
    "deep-at-max": ("a deep cut at a MAX node (MIN root)", [[2], [[[7, -4, 7], -1]]], "MIN"),
    "two-deep-cuts": ("two deep cuts", [[8, 9], [[[4, 50], [60, 70]], [[3, 40], 12]]], "MAX"),
    "cut-four-down": ("a cut four levels down", [[10], [[[[[5, 99], 2], 30]], 40]], "MAX"),
}

#: Trees for the decision: ties between root moves, a best move that is not the first.
DECISION_TREES = {
    "root-tie": ("a tie between root moves", [[2, 7], [5, 3], [1, 9], [5, 8]], "MAX"),
    "first-not-best": ("a tree where the first move is not the best", [[1, 2], [6, 7], [3, 9]], "MAX"),
    "three-equal": ("three equal root moves", [[4, 6], [4, 5], [4, 9]], "MAX"),
}
LATER_ROOT_CUTS = ("later-root-cuts", "a tree where later root moves are cut", [[5, 6], [3, 9, 3], [4, 1], [8, 2, 7]],
                   "MAX")

ALL_TREES = list(trees.TREES)
TREE_IDS = {
    "value": ALL_TREES,
    "children": ALL_TREES,
    "pruning": [t for t in ALL_TREES if t not in ("tie-cut", "tie-min-cut", "deep-cut")],
    "equality": ["tie-cut", "tie-min-cut"],
    "deep": ["sixteen", "deep-cut"],
    "decision": [t for t in ALL_TREES if t != "terminal-root"],
}
TREE_IDS["decision_pruning"] = TREE_IDS["decision"]

#: (id, shared tree id or spec, window) of the window group.
WINDOWS = [
    ("eight-13-20", "eight", (13, 20)), ("eight-4-10", "eight", (4, 10)), ("eight-0-2", "eight", (0, 2)),
    ("sixteen-7-8", "sixteen", (7, 8)), ("sixteen-0-6.5", "sixteen", (0, 6.5)),
    ("aima-min--5--2.5", "aima-min", (-5, -2.5)), ("unbalanced-5.5-9", "unbalanced", (5.5, 9)),
    ("negative--8--3", "negative", (-8, -3)),
]

#: Window trees of their own: (id, name, spec, root, window). A leaf above beta at a MAX root cuts, and
#: fail-soft returns that leaf, fail-hard returns beta.
WINDOW_TREES = [
    ("leaf-above-window", "a leaf above the window [30, [1, 2]]", [30, [1, 2]], "MAX", (13, 20)),
]

#: Seeded trees per group: (public count, secret count, fixed shape arguments of `trees.random_tree`).
SEEDED = {
    "value": (6, 10, {}), "children": (5, 8, {}), "pruning": (6, 10, {}), "equality": (6, 10, {"values": (0, 3)}),
    "deep": (5, 8, {"depth": 5, "width": 2, "values": (-20, 20)}), "decision": (6, 10, {}),
    "decision_pruning": (6, 10, {}),
}


def _num(x: float) -> str:
    return ("inf" if x > 0 else "-inf") if isinstance(x, float) and math.isinf(x) else repr(x)


def windowed(id: str, name: str, game: Any, state: Any, window: tuple | None = None) -> Case:
    """A case; with a window, the search is called with it and its name says so."""
    if window is None:
        return Case(id, name, game, state)
    return Case(id, f"{name} with alpha={_num(window[0])}, beta={_num(window[1])}", game, state, tuple(window))


def _spec(table: dict, id: str) -> Case:
    name, spec, root = table[id]
    tree = GameTree.from_nested(spec, root=root)
    return Case(id, name, tree, tree.initial)


def shared(id: str, window: tuple | None = None, case_id: str | None = None) -> Case:
    tree = trees.tree(id)
    return windowed(case_id or id, trees.name(id), tree, tree.initial, window)


def _c4(columns: list[int]) -> Any:
    g = ConnectFour(4, 4)
    s = g.initial
    for c in columns:
        s = g.result(s, c)
    return s


TTT, RACE, C4 = TicTacToe(), RaceTo(10, 3), ConnectFour(4, 4)

#: Game positions of the value, pruning, children and decision groups (both players to move).
POSITIONS = [
    Case("ttt-x", "TicTacToe, X to move", TTT, TTT.state_from(["X.O", ".O.", "X.."], "X")),
    Case("ttt-o", "TicTacToe, O to move", TTT, TTT.state_from(["X..", ".O.", "X.X"], "O")),
    Case("race-3-p2", "RaceTo(10, 3) at total 3, P2 to move", RACE, RaceState(3, "P2")),
    Case("race-4-p1", "RaceTo(10, 3) at total 4, P1 to move", RACE, RaceState(4, "P1")),
    Case("c4-o", "ConnectFour 4x4, O to move", C4, _c4([1, 2, 1, 2, 0, 3, 2, 0, 3])),
    Case("nim-122-p2", "Nim heaps [1, 2, 2], P2 to move", ReferenceNim((1, 2, 2)), NimState((1, 2, 2), "P2")),
    Case("nim-311-p1", "Nim heaps [3, 1, 1], P1 to move", ReferenceNim((3, 1, 1)), NimState((3, 1, 1), "P1")),
]

#: Further positions, per group.
GROUP_POSITIONS = {
    "equality": [
        Case("ttt-x-ties", "TicTacToe, X to move (values -1, 0, 1 tie often)", TTT,
             TTT.state_from(["X.O", "...", "O.X"], "X")),
        Case("race-2-p1", "RaceTo(10, 3) at total 2, P1 to move", RACE, RaceState(2, "P1")),
        Case("nim-221-p1", "Nim heaps [2, 2, 1], P1 to move", ReferenceNim((2, 2, 1)), NimState((2, 2, 1), "P1")),
    ],
    "deep": [
        Case("c4-x-deep", "ConnectFour 4x4, X to move", C4, _c4([1, 2, 3, 2, 3, 3, 2, 3])),
        Case("c4-o-deep", "ConnectFour 4x4, O to move", C4, _c4([3, 0, 0, 1, 0, 2, 0, 2, 2])),
    ],
    "window": [
        windowed("ttt-o-window", "TicTacToe, O to move", TTT, TTT.state_from(["X..", ".O.", "X.X"], "O"), (-0.5, 0.5)),
        windowed("race-3-p1-window", "RaceTo(10, 3) at total 3, P1 to move", RACE, RaceState(3, "P1"), (-1, 0)),
        windowed("c4-o-window", "ConnectFour 4x4, O to move", C4, _c4([1, 2, 1, 2, 0, 3, 2, 0, 3]), (0, 1)),
    ],
    "decision": [
        Case("ttt-x-wins", "TicTacToe, X can win at once", TTT, TTT.state_from(["XX.", "OO.", "..."], "X")),
        Case("ttt-o-blocks", "TicTacToe, O must block", TTT, TTT.state_from(["XX.", ".O.", "..."], "O")),
    ],
}
GROUP_POSITIONS["decision_pruning"] = GROUP_POSITIONS["decision"]
WITH_POSITIONS = ("value", "children", "pruning", "decision", "decision_pruning")


def public(group: str) -> list[Case]:
    """The fixed cases of `group`, in the order it checks them."""
    if group == "window":
        out = [shared(tree, window, id) for id, tree, window in WINDOWS]
        for id, name, spec, root, window in WINDOW_TREES:
            tree = GameTree.from_nested(spec, root=root)
            out.append(windowed(id, name, tree, tree.initial, window))
        return out + GROUP_POSITIONS["window"]
    out = [_spec(TIES, id) for id in TIES] if group == "equality" else []
    out += [_spec(DEEP, id) for id in DEEP] if group == "deep" else []
    out += [shared(id) for id in TREE_IDS[group]]
    if group.startswith("decision"):
        out += [_spec(DECISION_TREES, id) for id in DECISION_TREES]
    if group == "value":
        sixteen = trees.tree("sixteen")
        out.append(Case("sixteen-from-P2.1", "the 16-leaf tree from its MIN node P2.1", sixteen, "P2.1"))
    out += GROUP_POSITIONS.get(group, [])
    out += POSITIONS if group in WITH_POSITIONS else []
    if group == "decision_pruning":
        out.append(_spec({LATER_ROOT_CUTS[0]: LATER_ROOT_CUTS[1:]}, LATER_ROOT_CUTS[0]))
    return out


def seeded_trees(group: str) -> list[Case]:
    """Random trees of `group`: ``random-1, ...`` then, with a secret seed, ``secret-1, ...``."""
    public_count, secret_count, shape = SEEDED[group]

    def make(rng: random.Random, id: str, _name: str) -> Case:
        depth = shape.get("depth") or rng.randint(2, 4)
        width = shape.get("width") or rng.randint(2, 3)
        tree = trees.random_tree(rng, max_depth=depth, max_branching=width, **{
            k: v for k, v in shape.items() if k not in ("depth", "width")})
        return Case(id, id.replace("secret-", "secret random tree #").replace("random-", "random tree #"),
                    tree, tree.initial)

    return kit.seeded(LAB, group, public_count, secret_count, make)


def seeded_windows() -> list[Case]:
    """Random trees with a window around one of their leaf values (group window)."""
    out = []
    for prefix, rng, count in kit.rngs(LAB, "window", 6, 6):
        for i in range(count):
            tree = trees.random_tree(rng, max_depth=rng.randint(2, 4), max_branching=3)
            a = rng.choice(sorted(set(tree.leaf_values()))) - 0.5
            out.append(windowed(f"{prefix}-{i + 1}", f"random tree #{i + 1}", tree, tree.initial,
                                (a, a + rng.choice([1, 2, 4]))))
    return out


def seeded_positions(group: str, count: int = 1) -> list[Case]:
    """Random TicTacToe, ConnectFour 4x4 and Nim positions (one more of each with a secret seed)."""
    out = []
    for prefix, rng, n in kit.rngs(LAB, group + "/positions", count, count + 1):
        tag = "secret " if prefix == "secret" else ""
        for i in range(n):
            s = kit.playout(TTT, rng, rng.randint(4, 5))
            out.append(Case(f"{prefix}-ttt-{i + 1}", f"{tag}a TicTacToe position #{i + 1} ({s.to_move} to move)",
                            TTT, s))
            s = kit.playout(C4, rng, rng.randint(9, 10))
            out.append(Case(f"{prefix}-c4-{i + 1}", f"{tag}a ConnectFour 4x4 position #{i + 1} ({s.to_move} to "
                                                    "move)", C4, s))
            heaps = tuple(rng.randint(0, 2) for _ in range(3))
            heaps = heaps if any(heaps) else (1, 1, 2)
            who = rng.choice(["P1", "P2"])
            out.append(Case(f"{prefix}-nim-{i + 1}", f"{tag}Nim heaps {list(heaps)}, {who} to move (#{i + 1})",
                            ReferenceNim(heaps), NimState(heaps, who)))
    return out


def cases(group: str) -> list[Case]:
    """Every case of `group`: the fixed ones, then the seeded ones."""
    if group == "window":
        return public("window") + seeded_windows()
    out = public(group)
    positions = [c for c in out if c in POSITIONS]
    out = [c for c in out if c not in POSITIONS] + seeded_trees(group)
    if group in WITH_POSITIONS:
        out += positions + seeded_positions(group)
    return out


def probes() -> list[Case]:
    """The probes that find a submission's profile: they tell apart every combination of value mistakes."""
    sixteen = trees.tree("sixteen")
    return [
        shared("sixteen"), Case("sixteen-from-P2.0", "the 16-leaf tree from P2.0", sixteen, "P2.0"),
        _spec(TIES, "tie-pairs"), _spec(TIES, "tie-at-max"), _spec(DEEP, "deep-at-min"), _spec(DEEP, "deep-at-max"),
        shared("aima-min"), shared("eight", (4, 10), "eight-4-10"), shared("eight", (13, 20), "eight-13-20"),
        shared("eight", (0, 2), "eight-0-2"),
        shared("sixteen", (7, 8), "sixteen-7-8"), POSITIONS[1],
    ]


def decision_probes() -> list[Case]:
    """The probes that find the profile of a decision."""
    return [shared("sixteen"), _spec(DECISION_TREES, "root-tie"), _spec(DECISION_TREES, "first-not-best"),
            POSITIONS[1]]
