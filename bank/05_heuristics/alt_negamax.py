# Correct: negamax. Each node's value is from the view of the player to move there; the
# evaluation and the utility are still asked for the root player and negated as needed.

# %% depth_limited_value
import math


def negamax(game, state, depth, alpha, beta, root, evaluate):
    sign = 1 if game.to_move(state) == root else -1
    if game.is_terminal(state):
        return sign * game.utility(state, root)
    if depth == 0:
        return sign * evaluate(state, root)
    best = -math.inf
    for action in game.actions(state):
        best = max(best, -negamax(game, game.result(state, action), depth - 1, -beta, -alpha, root, evaluate))
        if best >= beta:
            return best
        alpha = max(alpha, best)
    return best


def depth_limited_value(game, state, depth, evaluate):
    return negamax(game, state, depth, -math.inf, math.inf, game.to_move(state), evaluate)

# %% depth_limited_decision
def depth_limited_decision(game, state, depth, evaluate):
    root = game.to_move(state)
    choice, best = None, -math.inf
    for action in game.actions(state):
        value = -negamax(game, game.result(state, action), depth - 1, -math.inf, -best, root, evaluate)
        if choice is None or value > best:
            choice, best = action, value
    return choice
