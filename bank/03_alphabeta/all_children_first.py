# All children are generated with a list comprehension before the first is searched:
# children that alpha-beta prunes are still generated. Expected to lose test_children only.

# %% alphabeta_value
import math


def alphabeta_value(game, state, alpha=-math.inf, beta=math.inf):
    player = game.to_move(state)

    def search(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        children = [game.result(s, a) for a in game.actions(s)]
        if game.to_move(s) == player:
            v = -math.inf
            for child in children:
                v = max(v, search(child, alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for child in children:
            v = min(v, search(child, alpha, beta))
            if v <= alpha:
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
