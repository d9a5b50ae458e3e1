"""Bug: "with a good order the best child comes first", so the search stops at the first
child that is no better than the one before. The order then changes the value."""
import math

# %% ordered_alphabeta_value
def ordered_alphabeta_value(game, state, key):
    player = game.to_move(state)

    def value(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        actions = sorted(game.actions(s), key=lambda a: key(s, a))
        if game.to_move(s) == player:
            v = -math.inf
            for a in actions:
                w = value(game.result(s, a), alpha, beta)
                if w <= v:
                    break  # no better than the previous child: the rest will be worse still
                v = w
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in actions:
            w = value(game.result(s, a), alpha, beta)
            if w >= v:
                break
            v = w
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    return value(state, -math.inf, math.inf)
