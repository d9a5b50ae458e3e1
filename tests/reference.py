"""Reference searches used by the library's own tests (never shipped in course_lib)."""

from __future__ import annotations

import math


def minimax_value(game, state):
    """Plain minimax from the point of view of the player to move at `state`."""
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    return value(state)


def alphabeta_value(game, state, alpha=-math.inf, beta=math.inf):
    """Fail-soft alpha-beta that prunes on equality, children in actions() order."""
    player = game.to_move(state)

    def value(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, value(game.result(s, a), alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, value(game.result(s, a), alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    return value(state, alpha, beta)
