# Correct, a different code shape: alphabeta_value recurses through itself. A child's
# value for the opponent is minus its value for us (a zero-sum game), so the window is
# mirrored and the result negated. The decision keeps its best (action, value) pair in
# one tuple. Expected: full marks.

# %% alphabeta_value
import math


def alphabeta_value(game, state, alpha=-math.inf, beta=math.inf):
    if game.is_terminal(state):
        return game.utility(state, game.to_move(state))
    v = -math.inf
    for action in game.actions(state):
        v = max(v, -alphabeta_value(game, game.result(state, action), -beta, -max(alpha, v)))
        if v >= beta:
            return v
    return v

# %% alphabeta_decision
def alphabeta_decision(game, state):
    best = (None, -math.inf)
    for action in game.actions(state):
        value = -alphabeta_value(game, game.result(state, action), -math.inf, -best[1])
        if best[0] is None or value > best[1]:
            best = (action, value)
    return best[0]
