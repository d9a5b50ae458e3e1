# Correct, AIMA's MAX-VALUE / MIN-VALUE pair written with index loops and flags instead
# of for-loops over generators. Expected: full marks.

# %% alphabeta_value
import math


def max_value(game, state, alpha, beta, player):
    if game.is_terminal(state):
        return game.utility(state, player)
    actions = game.actions(state)
    v = -math.inf
    i = 0
    while i < len(actions):
        child = game.result(state, actions[i])
        w = min_value(game, child, alpha, beta, player) if game.to_move(child) != player \
            else max_value(game, child, alpha, beta, player)
        if w > v:
            v = w
        if v >= beta:
            return v
        if v > alpha:
            alpha = v
        i = i + 1
    return v


def min_value(game, state, alpha, beta, player):
    if game.is_terminal(state):
        return game.utility(state, player)
    actions = game.actions(state)
    v = math.inf
    i = 0
    while i < len(actions):
        child = game.result(state, actions[i])
        w = max_value(game, child, alpha, beta, player) if game.to_move(child) == player \
            else min_value(game, child, alpha, beta, player)
        if w < v:
            v = w
        if v <= alpha:
            return v
        if v < beta:
            beta = v
        i = i + 1
    return v


def alphabeta_value(game, state, alpha=-math.inf, beta=math.inf):
    player = game.to_move(state)
    return max_value(game, state, alpha, beta, player)

# %% alphabeta_decision
def alphabeta_decision(game, state):
    player = game.to_move(state)
    actions = game.actions(state)
    best_index, alpha = -1, -math.inf
    for i in range(len(actions)):
        w = min_value(game, game.result(state, actions[i]), alpha, math.inf, player)
        if best_index < 0 or w > alpha:
            best_index, alpha = i, w
    return actions[best_index] if best_index >= 0 else None
