# Vectors built over the players in reverse order (consistently, so choices are right).
# %% maxn_value
def maxn_value(game, state):
    order = list(reversed(game.players))

    def value(s):
        if game.is_terminal(s):
            return tuple(game.utility(s, p) for p in order)
        i = order.index(game.to_move(s))
        best = None
        for a in game.actions(s):
            v = value(game.result(s, a))
            if best is None or v[i] > best[i]:
                best = v
        return best

    return value(state)
