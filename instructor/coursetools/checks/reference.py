"""Reference searches of the grader, written to the course's conventions: values from the
point of view of the player to move at the root, children in actions() order, alpha-beta
fail-soft and pruning on equality (stop at MAX as soon as v >= beta, at MIN as soon as
v <= alpha), and a decision returns the first best action in actions() order."""

from __future__ import annotations

import math
from typing import Any


def minimax_value(game: Any, state: Any) -> float:
    player = game.to_move(state)

    def value(s: Any) -> float:
        if game.is_terminal(s):
            return game.utility(s, player)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    return value(state)


def minimax_decision(game: Any, state: Any) -> Any:
    player = game.to_move(state)
    best, best_value = None, -math.inf

    def value(s: Any) -> float:
        if game.is_terminal(s):
            return game.utility(s, player)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    for a in game.actions(state):
        v = value(game.result(state, a))
        if v > best_value:
            best, best_value = a, v
    return best


def _alphabeta(game: Any, state: Any, alpha: float, beta: float, player: Any) -> float:
    if game.is_terminal(state):
        return game.utility(state, player)
    if game.to_move(state) == player:
        v = -math.inf
        for a in game.actions(state):
            v = max(v, _alphabeta(game, game.result(state, a), alpha, beta, player))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v
    v = math.inf
    for a in game.actions(state):
        v = min(v, _alphabeta(game, game.result(state, a), alpha, beta, player))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v


def alphabeta_value(game: Any, state: Any, alpha: float = -math.inf, beta: float = math.inf) -> float:
    return _alphabeta(game, state, alpha, beta, game.to_move(state))


def alphabeta_decision(game: Any, state: Any) -> Any:
    player = game.to_move(state)
    best, alpha = None, -math.inf
    for a in game.actions(state):
        v = _alphabeta(game, game.result(state, a), alpha, math.inf, player)
        if best is None or v > alpha:
            best, alpha = a, v
    return best
