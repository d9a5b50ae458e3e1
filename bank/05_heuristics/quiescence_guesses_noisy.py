# The guess is computed before the noise is tested: evaluate is called on noisy states too,
# although their guess is then thrown away.

# %% quiescence_value
import math


def quiescence_value(game, state, depth, evaluate):
    """Alpha-beta value of `state` for the player to move there, `depth` plies deep, never cut off at a noisy state."""
    player = game.to_move(state)

    def value(s, d, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        if d <= 0:
            guess = evaluate(s, player)
            if not game.is_noisy(s):
                return guess
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, value(game.result(s, a), d - 1, alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, value(game.result(s, a), d - 1, alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    return value(state, depth, -math.inf, math.inf)
