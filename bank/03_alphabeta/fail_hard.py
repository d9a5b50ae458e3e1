# Fail-hard alpha-beta: on a cut it returns the bound, and otherwise the updated
# alpha/beta. Same cut-offs, other values outside the window. Expected to lose test_window only.

# %% alphabeta_value
import math


def alphabeta_value(game, state, alpha=-math.inf, beta=math.inf):
    player = game.to_move(state)

    def search(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        if game.to_move(s) == player:
            for a in game.actions(s):
                alpha = max(alpha, search(game.result(s, a), alpha, beta))
                if alpha >= beta:
                    return beta
            return alpha
        for a in game.actions(s):
            beta = min(beta, search(game.result(s, a), alpha, beta))
            if beta <= alpha:
                return alpha
        return beta

    return search(state, alpha, beta)

# %% alphabeta_decision
def alphabeta_decision(game, state):
    best_action, alpha = None, -math.inf
    for a in game.actions(state):
        v = -alphabeta_value(game, game.result(state, a), -math.inf, -alpha)
        if best_action is None or v > alpha:
            best_action, alpha = a, v
    return best_action
