# Correct, negamax style: one function, values always for the player to move at the
# node, children's values negated and the window mirrored. Expected: full marks.

# %% alphabeta_value
import math


def negamax(game, state, alpha, beta):
    if game.is_terminal(state):
        return game.utility(state, game.to_move(state))
    best = -math.inf
    for action in game.actions(state):
        score = -negamax(game, game.result(state, action), -beta, -alpha)
        if score > best:
            best = score
        if best >= beta:
            break
        if best > alpha:
            alpha = best
    return best


def alphabeta_value(game, state, alpha=-math.inf, beta=math.inf):
    return negamax(game, state, alpha, beta)

# %% alphabeta_decision
def alphabeta_decision(game, state):
    choice, alpha = None, -math.inf
    for action in game.actions(state):
        score = -negamax(game, game.result(state, action), -math.inf, -alpha)
        if choice is None or score > alpha:
            choice, alpha = action, score
    return choice
