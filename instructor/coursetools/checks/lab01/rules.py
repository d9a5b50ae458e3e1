"""Lab 01's rule table (see `checks/rules.py`): each rule of the release notebook, with the cases that catch it.

Case ids: ``heaps (2, 0, 3)`` is the Nim game with those heaps (groups nim_*); the others are the ids of
`cases.public_games` and of the seeded trees (``random-1``, ...).
"""

from __future__ import annotations

from ..rules import Rule
from . import cases

#: Lists of cases a group reads as they are (not through a function): `rules.alone` filters them too.
CONSTANTS = ((cases, "ILLEGAL_HEAPS"),)

RULES = [
    Rule("nim-other-player", "Nim", "nim_rules",
         "`result(state, action)` returns a **new** state; the other player is to move.",
         ("heaps (3,)", "heaps (1, 2)")),
    Rule("nim-heaps-left-to-right", "Nim", "nim_rules",
         "`actions(state)` returns a **list** of all legal pairs in this order: heaps **left to right**, and within "
         "a heap `count = 1, 2, ...` up to the heap's size.",
         ("heaps (1, 2)", "heaps (1, 2, 3)")),
    Rule("nim-counts-upward", "Nim", "nim_rules",
         "`actions(state)` returns a **list** of all legal pairs in this order: heaps **left to right**, and within "
         "a heap `count = 1, 2, ...` up to the heap's size.",
         ("heaps (3,)", "heaps (2, 2)")),
    Rule("nim-actions-list", "Nim", "nim_rules",
         "`actions(state)` returns a **list** of all legal pairs",
         ("heaps (1,)", "heaps (3,)")),
    Rule("nim-empty-heap", "Nim", "nim_rules", "An empty heap has no action.",
         ("heaps (0, 2, 1)", "heaps (2, 0, 3)", "heaps (1, 2)")),
    Rule("nim-terminal-every-heap", "Nim", "nim_rules", "`is_terminal(state)` is `True` when every heap is empty.",
         ("heaps (1, 2)", "heaps (0, 2, 1)")),
    Rule("nim-utility-winner", "Nim", "nim_rules",
         "`utility(state, player)` is `+1` if `player` won (took the last object) and `-1` if `player` lost.",
         ("heaps (1,)", "heaps (3,)")),
    Rule("nim-terminal-to-move", "Nim", "nim_rules",
         "In a terminal state, the player to move is the one who did *not* take the last object.",
         ("heaps (1,)", "heaps (1, 2)")),
    Rule("nim-state-unchanged", "Nim", "nim_immutable", "It must not change `state`",
         ("heaps (2, 3)", "heaps (1, 2, 3)")),
    Rule("nim-hashable", "Nim", "nim_immutable", "States are **immutable** and **hashable**",
         ("heaps (2, 3)", "heaps (2, 0, 2)")),
    Rule("nim-reject-zero", "Nim", "nim_illegal",
         "it must reject an illegal move (taking 0 objects, more objects than the heap holds, or from a heap that "
         "does not exist) by raising `IllegalMoveError(action, legal_moves)` from `course_lib.games`.",
         ("heaps (2, 0, 3)", "heaps (1, 4)", "heaps (3,)")),
    Rule("nim-reject-too-many", "Nim", "nim_illegal",
         "it must reject an illegal move (taking 0 objects, more objects than the heap holds, or from a heap that "
         "does not exist) by raising `IllegalMoveError(action, legal_moves)` from `course_lib.games`.",
         ("heaps (2, 0, 3)", "heaps (1, 4)", "heaps (3,)")),
    Rule("nim-reject-no-heap", "Nim", "nim_illegal",
         "it must reject an illegal move (taking 0 objects, more objects than the heap holds, or from a heap that "
         "does not exist) by raising `IllegalMoveError(action, legal_moves)` from `course_lib.games`.",
         ("heaps (2, 0, 3)", "heaps (1, 4)", "heaps (3,)")),
    Rule("nim-reject-empty-heap", "Nim", "nim_illegal",
         "it must reject an illegal move (taking 0 objects, more objects than the heap holds, or from a heap that "
         "does not exist) by raising `IllegalMoveError(action, legal_moves)` from `course_lib.games`.",
         ("heaps (2, 0, 3)",)),
    Rule("nim-error-names-move", "Nim", "nim_illegal",
         "an illegal move raises `IllegalMoveError` (a kind of `ValueError`) whose message names the move and the "
         "legal moves.",
         ("heaps (2, 0, 3)", "heaps (1, 4)", "heaps (3,)")),
    Rule("count-root-included", "count_nodes", "count_nodes",
         "Write `count_nodes(game, state)`, the number of nodes in the full game tree below `state`, **root "
         "included**.",
         ("sixteen", "terminal-root", "race-4-2")),
    Rule("count-terminal-one", "count_nodes", "count_nodes", "a terminal state is a tree of exactly **1** node;",
         ("sixteen", "terminal-root", "nim-123")),
    Rule("count-only-actions-result", "count_nodes", "count_nodes",
         "It must work for any game in our vocabulary: use only `actions`, `result` and `is_terminal`.",
         ("sixteen-three-questions", "unbalanced-three-questions")),
    Rule("depth-in-plies", "tree_stats", "tree_stats_depth",
         "the **depth**: the number of plies (moves) on the longest path from the root to a terminal state — a "
         "terminal state alone has depth 0;",
         ("sixteen", "terminal-root", "race-4-2")),
    Rule("depth-longest-path", "tree_stats", "tree_stats_depth",
         "the **depth**: the number of plies (moves) on the longest path from the root to a terminal state",
         ("unbalanced", "mixed-depths", "ttt-X.O-.X.-O..")),
    Rule("leaves-terminal-states", "tree_stats", "tree_stats_leaves", "the number of **leaves**: the terminal states;",
         ("unbalanced", "mixed-depths", "race-4-2")),
    Rule("branching-internal-nodes", "tree_stats", "tree_stats_branching",
         "the **average branching factor**: the average number of children of the internal (non-terminal) nodes, "
         "that is (number of nodes − 1) / (number of internal nodes), since every node but the root is somebody's "
         "child.",
         ("sixteen", "unbalanced", "race-4-2")),
    Rule("branching-terminal-zero", "tree_stats", "tree_stats_branching", "It is `0.0` when `state` is terminal.",
         ("terminal-root",)),
    Rule("stats-types", "tree_stats", "tree_stats_branching",
         "`depth` and `leaves` are `int`, `branching` is a `float`.",
         ("terminal-root", "unbalanced", "race-4-2")),
]
