# Children taken from a stack with pop(): the last action is searched first.
# Expected to lose test_children only.

# %% alphabeta_value
import math


def alphabeta_value(game, state, alpha=-math.inf, beta=math.inf):
    player = game.to_move(state)

    def search(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        todo = list(game.actions(s))
        maxing = game.to_move(s) == player
        v = -math.inf if maxing else math.inf
        while todo:
            child = game.result(s, todo.pop())
            if maxing:
                v = max(v, search(child, alpha, beta))
                if v >= beta:
                    break
                alpha = max(alpha, v)
            else:
                v = min(v, search(child, alpha, beta))
                if v <= alpha:
                    break
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
