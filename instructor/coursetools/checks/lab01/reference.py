"""Lab 01's models (grader only): the rules of Nim (`ReferenceNim`, shared with lab 02) and the
statistics of a full game tree, with `count_nodes` and `tree_stats` written the way the lab asks.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..nim import ReferenceNim

__all__ = ["ReferenceNim", "Stats", "reference_stats", "count_nodes", "tree_stats"]


class Stats(NamedTuple):
    nodes: int
    leaves: int
    internal: int
    depth: int
    deepest: int  # nodes at the greatest depth


def reference_stats(game: Any, state: Any) -> Stats:
    """Nodes, leaves, internal nodes, depth (plies) of the full tree below `state`."""
    nodes = leaves = internal = depth = deepest = 0
    stack = [(state, 0)]
    while stack:
        s, d = stack.pop()
        nodes += 1
        if d > depth:
            depth, deepest = d, 0
        if d == depth:
            deepest += 1
        if game.is_terminal(s):
            leaves += 1
            continue
        internal += 1
        stack.extend((game.result(s, a), d + 1) for a in game.actions(s))
    return Stats(nodes, leaves, internal, depth, deepest)




def count_nodes(game: Any, state: Any) -> int:
    """Every node below `state`, the state itself included, children in actions() order."""
    if game.is_terminal(state):
        return 1
    return 1 + sum(count_nodes(game, game.result(state, a)) for a in game.actions(state))


def tree_stats(game: Any, state: Any) -> tuple:
    """(depth in plies, leaves, average branching of the internal nodes) of the full tree below `state`."""
    s = reference_stats(game, state)
    return (s.depth, s.leaves, (s.nodes - 1) / s.internal if s.internal else 0.0)
