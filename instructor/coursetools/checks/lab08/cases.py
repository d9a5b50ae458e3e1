"""Lab 08's cases as data: each public case is one row with a stable id; seeded cases follow.

A `td_update` case's args are ``(weights, features, target, alpha)``; a `move_values` case's ``(weights,)`` on
its position; a self-play case's ``(weights, seed, alpha, epsilon, lam, games)`` from the empty board, where the
group lends one grader-owned ``LentRandom(seed)`` to all `games` calls in a row and feeds each call the weights
the previous one returned; ``lam = None`` calls the function without lam, so its default is checked.
"""

from __future__ import annotations

import random

from course_lib.games import TicTacToe
from course_lib.learning import HAND_WEIGHTS, N_FEATURES, features

from .. import kit
from ..kit import Case

LAB = "08_learning"
TTT = TicTacToe()
ZERO = (0.0,) * N_FEATURES


def board(*rows: str) -> object:
    return TTT.state_from(list(rows))


def td_rows() -> list[Case]:
    """One TD(0) step on given numbers."""
    s = board("X..", ".O.", "...")
    rows = [
        Case("zero-win", "zero weights, target 1, alpha 0.5", None, None,
             (ZERO, tuple(features(s, "X")), 1.0, 0.5)),
        Case("zero-loss", "zero weights, target 0, alpha 0.1", None, None,
             (ZERO, tuple(features(s, "O")), 0.0, 0.1)),
        Case("hand-draw", "the hand-made weights, target 0.5, alpha 0.2", None, None,
             (HAND_WEIGHTS, tuple(features(s, "X")), 0.5, 0.2)),
        Case("on-target", "a value already on its target (error 0)", None, None,
             ((0.0, 1.0), (0.0, 1.0), 0.7310585786300049, 0.3)),
        Case("two-features", "weights (0.5, -0.25), features (1, 2), target 0.9, alpha 1", None, None,
             ((0.5, -0.25), (1.0, 2.0), 0.9, 1.0)),
    ]

    def make(rng: random.Random, id: str, name: str) -> Case:
        state = kit.playout(TTT, rng, rng.randint(1, 6))
        w = tuple(round(rng.uniform(-1, 1), 2) for _ in range(N_FEATURES))
        return Case(id, f"{name}: seeded weights and a Tic-Tac-Toe position", None, None,
                    (w, tuple(features(state, TTT.to_move(state))), rng.choice([0.0, 0.5, 1.0, round(rng.random(), 2)]),
                     rng.choice([0.05, 0.1, 0.5])))

    return rows + kit.seeded(LAB, "td_update", 4, 4, make)


def positions() -> list[Case]:
    """Positions for the one-ply search's move values: a win in one, a draw in one, none finished."""
    rows = [
        Case("x-wins-now", "X can win at once (top row), zero weights", TTT, board("XX.", "OO.", "..."), (ZERO,)),
        Case("o-to-move", "O to move after X took the centre, hand-made weights", TTT, board("...", ".X.", "..."),
             (HAND_WEIGHTS,)),
        Case("last-square-draw", "one square left, it draws, hand-made weights", TTT,
             board("XOX", "XOO", "OX."), (HAND_WEIGHTS,)),
        Case("o-wins-or-blocks", "O to move, O can win at once, hand-made weights", TTT,
             board("XX.", "OO.", "X.."), (HAND_WEIGHTS,)),
    ]

    def make(rng: random.Random, id: str, name: str) -> Case:
        w = tuple(round(rng.uniform(-1, 1), 2) for _ in range(N_FEATURES))
        return Case(id, f"{name}: a Tic-Tac-Toe position, seeded weights", TTT, kit.playout(TTT, rng, rng.randint(2, 6)),
                    (w,))

    return rows + kit.seeded(LAB, "move_values", 3, 3, make)


def self_play() -> list[Case]:
    """Games of self-play with lam = 0 (lam left out: the default is used)."""
    rows = [
        Case("greedy-zero", "3 games from zero weights, epsilon 0 (no exploration), alpha 0.5", TTT, TTT.initial,
             (ZERO, 1, 0.5, 0.0, None, 3)),
        Case("explore-hand", "3 games from the hand-made weights, epsilon 0.3, alpha 0.2", TTT, TTT.initial,
             (HAND_WEIGHTS, 7, 0.2, 0.3, None, 3)),
        Case("all-random", "2 games of random moves (epsilon 1), alpha 0.1", TTT, TTT.initial,
             (ZERO, 3, 0.1, 1.0, None, 2)),
        Case("explore-zero", "4 games from zero weights, epsilon 0.2, alpha 0.5", TTT, TTT.initial,
             (ZERO, 11, 0.5, 0.2, None, 4)),
        # The boundary of the rule: seed 7's first rng.random() is epsilon itself, which is not below it.
        Case("epsilon-equal", "1 game from the hand-made weights, epsilon exactly the first number drawn "
             f"({random.Random(7).random()!r}), alpha 0.2", TTT, TTT.initial,
             (HAND_WEIGHTS, 7, 0.2, random.Random(7).random(), None, 1)),
    ]

    def make(rng: random.Random, id: str, name: str) -> Case:
        w = tuple(round(rng.uniform(-0.5, 0.5), 2) for _ in range(N_FEATURES))
        return Case(id, f"{name}: 2 games from seeded weights", TTT, TTT.initial,
                    (w, rng.randint(0, 10**6), rng.choice([0.1, 0.3]), rng.choice([0.1, 0.25]), None, 2))

    return rows + kit.seeded(LAB, "self_play", 2, 2, make)


def traces() -> list[Case]:
    """Games with eligibility traces (lam > 0), several in a row so a trace carried over shows."""
    rows = [
        Case("lam-half", "3 games from zero weights, lam 0.5, epsilon 0.1, alpha 0.5", TTT, TTT.initial,
             (ZERO, 2, 0.5, 0.1, 0.5, 3)),
        Case("lam-one", "2 games from the hand-made weights, lam 1, epsilon 0.2, alpha 0.2", TTT, TTT.initial,
             (HAND_WEIGHTS, 5, 0.2, 0.2, 1.0, 2)),
        Case("lam-greedy", "3 games from zero weights, lam 0.8, epsilon 0 (greedy), alpha 0.3", TTT, TTT.initial,
             (ZERO, 4, 0.3, 0.0, 0.8, 3)),
    ]

    def make(rng: random.Random, id: str, name: str) -> Case:
        w = tuple(round(rng.uniform(-0.5, 0.5), 2) for _ in range(N_FEATURES))
        return Case(id, f"{name}: 2 games from seeded weights", TTT, TTT.initial,
                    (w, rng.randint(0, 10**6), 0.3, 0.2, rng.choice([0.3, 0.7]), 2))

    return rows + kit.seeded(LAB, "traces", 1, 2, make)


def game_boards(moves: tuple, start: object = None) -> tuple[str, ...]:
    """The boards of a game played from `start` (the empty board) by `moves`, the last one finished or not."""
    s = TTT.initial if start is None else start
    out = [s.board]
    for a in moves:
        s = TTT.result(s, a)
        out.append(s.board)
    return tuple(out)


def td_leaf() -> list[Case]:
    """TDLeaf updates along a whole game: a case's args are ``(weights, boards, depth, alpha)``; the group calls
    ``td_leaf_update(game, weights, boards[t], boards[t + 1], search, depth, alpha)`` for each t in a row, feeding
    each call the weights the previous one returned. Odd depths end the principal variation with the other player
    to move; some leaves and next positions are finished games."""
    draw = ((1, 1), (0, 0), (0, 2), (2, 0), (1, 0), (1, 2), (0, 1), (2, 1), (2, 2))
    x_wins = ((0, 0), (1, 1), (0, 1), (0, 2), (2, 0), (1, 2), (1, 0))
    o_wins = ((0, 1), (1, 1), (2, 2), (0, 0), (1, 0), (0, 2), (2, 1), (2, 0))
    rows = [
        Case("hand-depth-2", "a drawn game from the hand-made weights, depth 2, alpha 0.5", TTT, TTT.initial,
             (HAND_WEIGHTS, game_boards(draw), 2, 0.5)),
        Case("hand-depth-1", "a game X wins, from the hand-made weights, depth 1, alpha 0.3", TTT, TTT.initial,
             (HAND_WEIGHTS, game_boards(x_wins), 1, 0.3)),
        Case("o-wins-depth-3", "a game O wins, from weights (0, 0.5, 1, -0.5, -1, 0.3, 0.1), depth 3, alpha 0.5", TTT,
             TTT.initial, ((0.0, 0.5, 1.0, -0.5, -1.0, 0.3, 0.1), game_boards(o_wins), 3, 0.5)),
        Case("seeded-depth-1", "a drawn game from weights (0.1, 0.3, 0.8, -0.2, -1, 0.4, 0.1), depth 1, alpha 0.5",
             TTT, TTT.initial, ((0.1, 0.3, 0.8, -0.2, -1.0, 0.4, 0.1), game_boards(draw), 1, 0.5)),
    ]

    def make(rng: random.Random, id: str, name: str) -> Case:
        w = tuple(round(rng.uniform(-1, 1), 2) for _ in range(N_FEATURES))
        s, moves = TTT.initial, []
        while not TTT.is_terminal(s):
            a = rng.choice(TTT.actions(s))
            moves.append(a)
            s = TTT.result(s, a)
        depth = rng.choice([1, 2, 3])
        return Case(id, f"{name}: a random game from seeded weights, depth {depth}", TTT, TTT.initial,
                    (w, game_boards(tuple(moves)), depth, rng.choice([0.1, 0.3, 0.5])))

    return rows + kit.seeded(LAB, "td_leaf", 2, 2, make)
