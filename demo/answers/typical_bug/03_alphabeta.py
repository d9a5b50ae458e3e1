# %% minimax_from_lab_02
def minimax_value(game, state):
    # Paste your lab 02 function here.
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    return value(state)


def minimax_decision(game, state):
    # Paste your lab 02 function here.
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    best_action, best_value = None, -math.inf
    for a in game.actions(state):
        v = value(game.result(state, a))
        if best_action is None or v > best_value:
            best_action, best_value = a, v
    return best_action

# %% alphabeta_value
import math


def alphabeta_value(game, state, alpha=-math.inf, beta=math.inf):
    player = game.to_move(state)

    def search(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, search(game.result(s, a), alpha, beta))
                if v > beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, search(game.result(s, a), alpha, beta))
            if v < alpha:
                return v
            beta = min(beta, v)
        return v

    return search(state, alpha, beta)

# %% alphabeta_decision
def alphabeta_decision(game, state):
    best_action, alpha = None, -math.inf
    for a in game.actions(state):
        v = -alphabeta_value(game, game.result(state, a), -math.inf, -alpha)
        if best_action is None or v > alpha:
            best_action, alpha = a, v
    return best_action

