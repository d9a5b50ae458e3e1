# Breaks "noisy ones past the cut-off included, is searched with alpha-beta": a noisy state past the cut-off is
# searched with a fresh window (-inf, +inf) instead of the alpha and beta it was given (same values, less pruning).
# %% quiescence_value
def quiescence_value(game, state, depth, evaluate):
    """Alpha-beta value of `state` for the player to move there, `depth` plies deep, never cut off at a noisy state."""
    player = game.to_move(state)

    def value(s, d, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        if d <= 0 and not game.is_noisy(s):
            return evaluate(s, player)
        if d <= 0:
            alpha, beta = -math.inf, math.inf  # past the cut-off: search the exchange to its end
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
