"""Lab 01's models (grader only): the rules of Nim (`ReferenceNim`, shared with lab 02) and the
statistics of a full game tree, with `count_nodes` and `tree_stats` written the way the lab asks.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..kit import Mistake
from ..nim import ReferenceNim

__all__ = ["ReferenceNim", "Stats", "reference_stats", "count_nodes", "tree_stats", "COUNT_MISTAKES",
           "STATS_MISTAKES"]


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


# -- mistake models: each gives what a function with that mistake returns on any case ---------------------

def _stat(f: Any) -> Any:
    return lambda game, state: f(reference_stats(game, state))


COUNT_MISTAKES = (
    Mistake("count_no_root", "you forgot the root: count the state itself too (a terminal state counts 1)",
            _stat(lambda s: s.nodes - 1)),
    Mistake("count_leaves_only", "you counted only the leaves (terminal states): internal nodes count too",
            _stat(lambda s: s.leaves)),
    Mistake("count_internal_only", "you counted only the internal nodes: terminal states (leaves) count too",
            _stat(lambda s: s.internal)),
)

#: Per field of `tree_stats` (depth, leaves, branching): the mistakes and what each returns for that field.
STATS_MISTAKES = (
    (Mistake("depth_in_levels", "depth counts plies (moves), not levels of nodes: a terminal state has depth 0",
             _stat(lambda s: s.depth + 1)),),
    (Mistake("leaves_deepest_only", "you counted only the leaves at the greatest depth: terminal states at every "
                                    "depth are leaves", _stat(lambda s: s.deepest)),
     Mistake("leaves_all_nodes", "you counted every node: only terminal states are leaves", _stat(lambda s: s.nodes)),
     Mistake("leaves_estimate", "b**d is an estimate; count the terminal states of the real tree",
             _stat(lambda s: round((s.nodes - 1) / s.internal) ** s.depth if s.internal else 1))),
    (Mistake("branching_all_nodes", "average over the internal nodes only: leaves have no children and do not "
                                    "count", _stat(lambda s: (s.nodes - 1) / s.nodes)),
     Mistake("branching_floor_division", "branching should be a float: use / (true division), not //",
             _stat(lambda s: (s.nodes - 1) // s.internal if s.internal else 0))),
)



def tree_facts(game: Any, state: Any, limit: int = 5000) -> Any:
    """The facts of the full tree below `state` (`course_lib.explain_tree.TreeFacts`: each node depth first with
    its move, its parent, and its nodes, leaves, internal nodes and depth below), None above `limit` nodes."""
    from course_lib.explain_tree import TreeFacts

    rows: list = []
    stack = [(state, None, None)]
    while stack:
        s, action, parent = stack.pop()
        terminal = bool(game.is_terminal(s))
        rows.append([action, parent, 1, int(terminal), int(not terminal), 0])
        if len(rows) > limit:
            return None
        if not terminal:
            i = len(rows) - 1
            stack.extend((game.result(s, a), a, i) for a in reversed(game.actions(s)))
    for row in reversed(rows):  # a child comes after its parent: add each node's numbers into its parent
        p = row[1]
        if p is not None:
            for k in (2, 3, 4):
                rows[p][k] += row[k]
            rows[p][5] = max(rows[p][5], row[5] + 1)
    return TreeFacts(rows)
