"""Lab 07's cases as data: each public case is one row with a stable id; seeded cases follow.

A search case's `args` are ``(iterations, seed, c)``: the group builds a fresh grader-owned
`random.Random(seed)` for every run, so the student's search and the models draw the same numbers;
``c = None`` calls the function without c, so its default is checked too.
A clock case adds the node budget: ``(iterations, seed, c, nodes)``, and ``True`` after it when the
game is handed over as a plain game, not as the grader's traced one (which a clock watching it counts
already). Adding a hidden case is one row here (then ``python -m coursetools golden 07_mcts``).
"""

from __future__ import annotations

import math
import random
from typing import Any

from course_lib.games import ConnectFour, GameTree, TicTacToe

from .. import kit
from ..kit import Case

LAB = "07_mcts"
SQRT2 = math.sqrt(2)
TTT = TicTacToe()
C4 = ConnectFour()


def position(game: Any, *moves: Any) -> Any:
    """The state after `moves` from the start."""
    s = game.initial
    for a in moves:
        s = game.result(s, a)
    return s


def two_by_two() -> GameTree:
    """MAX picks a risky or a safe MIN node: [[1, -1], [0, 0]]."""
    return GameTree.from_nested([[1, -1], [0, 0]])


def three_moves() -> GameTree:
    """Three moves for MAX, two for MIN below each, leaves in -1..1."""
    return GameTree.from_nested([[1, -1], [0, 1], [-1, -1]])


def depth_three() -> GameTree:
    """Depth 3, two children everywhere: MAX, MIN, MAX."""
    return GameTree.from_nested([[[1, -1], [0, 1]], [[-1, -1], [1, 0]]])


def leaves(*values: int) -> GameTree:
    """A root whose children are all leaves: no rollout has a move to draw."""
    return GameTree.from_nested(list(values))


def uneven() -> GameTree:
    """A terminal child beside deeper ones (the search meets a terminal node in selection)."""
    return GameTree.from_nested([0, [[1, -1], 1], [-1, [0, 1]]])


# -- UCB1: (total, visits, parent_visits, c) ------------------------------------------------------------------

UCB_ROWS = [
    (3, 4, 10, 1.0), (0, 0, 5, SQRT2), (-2, 3, 7, SQRT2), (5, 5, 5, 0.0), (1, 1, 1, 2.0), (0.5, 2, 9, 0.7),
    (-1, 1, 2, SQRT2), (2, 10, 30, 1.0), (0, 0, 1, 0.5), (7, 12, 40, 0.25), (-4, 6, 6, 1.5), (1, 3, 100, SQRT2),
]


#: The rows before the seeded ones (a seeded row's feedback never shows its expected value).
PUBLIC_UCB_ROWS = len(UCB_ROWS)


def ucb_rows() -> list[tuple]:
    """The public rows, then seeded ones (secret ones with the instructor's seed)."""
    rows = list(UCB_ROWS)
    for _prefix, rng, count in kit.rngs(LAB, "ucb1", 8, 8):
        for _ in range(count):
            parent = rng.randint(1, 60)
            visits = rng.randint(1, parent)
            rows.append((rng.randint(-visits, visits), visits, parent, rng.choice([0.5, 1.0, SQRT2, 2.0])))
    return rows


# -- rollouts: args (seed,) -----------------------------------------------------------------------------------

def rollouts() -> list[Case]:
    cases = [
        Case("ttt-centre", "Tic-Tac-Toe after X centre, O corner", TTT, position(TTT, (1, 1), (0, 0)), (1,)),
        Case("ttt-start", "Tic-Tac-Toe from the empty board", TTT, TTT.initial, (7,)),
        Case("ttt-terminal", "a Tic-Tac-Toe position that is already won", TTT,
             position(TTT, (0, 0), (1, 0), (0, 1), (1, 1), (0, 2)), (2,)),
        Case("tree-root", "the tree [[1, -1], [0, 0]] from its root", two_by_two(), "P1.0", (4,)),
        Case("c4-start", "Connect Four from the empty board", C4, C4.initial, (11,)),
    ]

    def make(rng: random.Random, id: str, name: str) -> Case:
        return Case(id, f"{name}: a Tic-Tac-Toe position", TTT, kit.playout(TTT, rng, rng.randint(1, 5)),
                    (rng.randint(0, 10**6),))

    return cases + kit.seeded(LAB, "rollout", 3, 3, make)


# -- the search: args (iterations, seed, c) -------------------------------------------------------------------

def trees() -> list[Case]:
    """Small trees whose every step can be followed by hand."""
    return [
        Case("two-by-two", "the tree [[1, -1], [0, 0]], 6 iterations", two_by_two(), "P1.0", (6, 1, SQRT2)),
        Case("three-moves", "the tree [[1, -1], [0, 1], [-1, -1]], 10 iterations, c = 1", three_moves(), "P1.0",
             (10, 2, 1.0)),
        Case("depth-three", "a depth-3 tree, 14 iterations", depth_three(), "P1.0", (14, 5, SQRT2)),
        Case("uneven", "a tree with a terminal child at depth 1, 12 iterations, c = 0.5", uneven(), "P1.0",
             (12, 3, 0.5)),
        Case("depth-three-min", "the depth-3 tree from a MIN node, 5 iterations", depth_three(), "P2.1",
             (5, 8, SQRT2)),
    ]


def games() -> list[Case]:
    """Tic-Tac-Toe in mid-game, a few dozen iterations each."""
    cases = [
        Case("ttt-threat", "Tic-Tac-Toe, X to block O's row, 40 iterations", TTT,
             position(TTT, (0, 0), (1, 1), (2, 2), (1, 0)), (40, 1, SQRT2)),
        Case("ttt-win-now", "Tic-Tac-Toe, X can win at once, 30 iterations, c = 1", TTT,
             position(TTT, (0, 0), (1, 1), (0, 1), (2, 2)), (30, 4, 1.0)),
        Case("ttt-o-to-move", "Tic-Tac-Toe, O to move, 36 iterations, c = 0.7", TTT,
             position(TTT, (1, 1), (0, 0), (2, 2)), (36, 9, 0.7)),
        # c = None: called without c, so the default is checked (1.4 instead of math.sqrt(2) differs here)
        Case("ttt-default-c", "Tic-Tac-Toe, X to block O's row, 20 iterations, called without c", TTT,
             position(TTT, (0, 0), (1, 1), (2, 2), (1, 0)), (20, 4, None)),
    ]

    def make(rng: random.Random, id: str, name: str) -> Case:
        state = kit.playout(TTT, rng, rng.randint(3, 5))
        return Case(id, f"{name}: a Tic-Tac-Toe position, 30 iterations", TTT, state,
                    (30, rng.randint(0, 10**6), rng.choice([0.7, 1.0, SQRT2])))

    return cases + kit.seeded(LAB, "search_games", 2, 3, make)


def decisions() -> list[Case]:
    """Decisions where the most visited child is not the best valued, ties and quick wins."""
    return [
        Case("two-by-two-tie", "the tree [[1, -1], [0, 0]], 4 iterations (a tie in visits)", two_by_two(), "P1.0",
             (4, 1, SQRT2)),
        Case("three-moves", "the tree [[1, -1], [0, 1], [-1, -1]], 9 iterations, c = 2", three_moves(), "P1.0",
             (9, 6, 2.0)),
        Case("depth-three", "a depth-3 tree, 11 iterations", depth_three(), "P1.0", (11, 3, SQRT2)),
        Case("ttt-threat", "Tic-Tac-Toe, X to block O's row, 40 iterations", TTT,
             position(TTT, (0, 0), (1, 1), (2, 2), (1, 0)), (40, 1, SQRT2)),
        Case("ttt-win-now", "Tic-Tac-Toe, X can win at once, 25 iterations", TTT,
             position(TTT, (0, 0), (1, 1), (0, 1), (2, 2)), (25, 2, SQRT2)),
        Case("ttt-o-blocks", "Tic-Tac-Toe, O to block, 30 iterations, c = 1", TTT,
             position(TTT, (0, 0), (1, 1), (0, 1)), (30, 12, 1.0)),
        Case("ttt-lucky-child", "Tic-Tac-Toe, X to block, 12 iterations, c = 1 (a child won by luck)", TTT,
             position(TTT, (0, 0), (1, 1), (2, 2), (1, 0)), (12, 6, 1.0)),
        Case("ttt-tied-visits", "Tic-Tac-Toe, X to block, 20 iterations (two children tie in visits)", TTT,
             position(TTT, (0, 0), (1, 1), (2, 2), (1, 0)), (20, 0, SQRT2)),
        Case("ttt-both", "Tic-Tac-Toe, X to block, 20 iterations, seed 8", TTT,
             position(TTT, (0, 0), (1, 1), (2, 2), (1, 0)), (20, 8, SQRT2)),
        Case("no-iteration", "Tic-Tac-Toe after one move, 0 iterations (the first action)", TTT,
             position(TTT, (1, 1)), (0, 1, SQRT2)),
        # Leaves only: no rollout draws a number, so these grade the decision even when the search does not repeat
        # itself with one seed (a rollout drawing elsewhere): three children once each (first, best mean and last
        # differ), then visits that differ.
        Case("leaves-tie", "the tree [0, 1, 0], 3 iterations (each child once: a tie in visits)", leaves(0, 1, 0),
             "P1.0", (3, 1, SQRT2)),
        Case("leaves-visits", "the tree [0, 1, -1], 10 iterations, c = 1", leaves(0, 1, -1), "P1.0", (10, 2, 1.0)),
        # c = None: called without c (with c = 1.4 instead of math.sqrt(2) the decision is (1, 2), not (2, 2))
        Case("ttt-default-c", "Tic-Tac-Toe, X in a corner and O in the centre, 30 iterations, called without c",
             TTT, position(TTT, (0, 0), (1, 1)), (30, 1, None)),
    ]


def clocks() -> list[Case]:
    """mcts_decision with a NodeBudget clock: (iterations, seed, c, nodes)."""
    return [
        Case("tree-budget", "the depth-3 tree, a budget of 9 generated states", depth_three(), "P1.0",
             (50, 5, SQRT2, 9)),
        Case("ttt-budget", "Tic-Tac-Toe, X to block, a budget of 60 generated states", TTT,
             position(TTT, (0, 0), (1, 1), (2, 2), (1, 0)), (80, 1, SQRT2, 60)),
        Case("ttt-budget-early", "Tic-Tac-Toe after one move, a budget of 25 generated states", TTT,
             position(TTT, (1, 1)), (80, 3, 1.0, 25)),
        # leaves only (no rollout draws anything): one state per iteration until every child is made
        Case("leaves-budget", "the tree [0, 1, -1, 0, 1], a budget of 3 generated states", leaves(0, 1, -1, 0, 1),
             "P1.0", (50, 2, SQRT2, 3)),
        Case("zero-budget", "Tic-Tac-Toe, a budget of 0 (no iteration may start)", TTT,
             position(TTT, (1, 1), (0, 0)), (80, 4, SQRT2, 0)),
        # the iterations run out before the budget: `iterations` still caps the search
        Case("ttt-iterations-first", "Tic-Tac-Toe after one move, 12 iterations and a budget of 400 generated states",
             TTT, position(TTT, (1, 1)), (12, 6, SQRT2, 400)),
        Case("tree-iterations-first", "the depth-3 tree, 3 iterations and a budget of 40 generated states",
             depth_three(), "P1.0", (3, 8, SQRT2, 40)),
        # the game handed over as a plain one, not a game the clock watches already: only the states generated on
        # clock.watch(game) count (the fifth argument: True)
        Case("ttt-plain-game", "Tic-Tac-Toe, X in a corner and O in the centre, handed over as a plain game (one the "
             "clock does not watch yet), a budget of 40 generated states", TTT, position(TTT, (0, 0), (1, 1)),
             (60, 2, SQRT2, 40, True)),
    ]
