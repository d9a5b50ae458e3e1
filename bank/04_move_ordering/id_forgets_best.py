"""Bug: every depth starts again from actions() order: the previous depth's best action is forgotten."""
import math

# %% iterative_deepening_decision
def iterative_deepening_decision(game, state, max_depth, evaluate):
    player = game.to_move(state)

    def value(s, alpha, beta, depth):
        if game.is_terminal(s):
            return game.utility(s, player)
        if depth == 0:
            return evaluate(s, player)
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, value(game.result(s, a), alpha, beta, depth - 1))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, value(game.result(s, a), alpha, beta, depth - 1))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    for depth in range(1, max_depth + 1):
        best = None
        actions = game.actions(state)
        if best is not None:
            actions = [best] + [a for a in actions if a != best]
        alpha, choice = -math.inf, None
        for a in actions:
            v = value(game.result(state, a), alpha, math.inf, depth - 1)
            if choice is None or v > alpha:
                choice, alpha = a, v
        best = choice
    return best
