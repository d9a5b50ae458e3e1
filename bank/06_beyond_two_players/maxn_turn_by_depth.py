# The mover guessed from the depth: players assumed to move in turn.
# %% maxn_value
def maxn_value(game, state):
    n = len(game.players)
    first = game.players.index(game.to_move(state))

    def value(s, depth):
        if game.is_terminal(s):
            return game.utilities(s)
        i = (first + depth) % n
        best = None
        for a in game.actions(s):
            v = value(game.result(s, a), depth + 1)
            if best is None or v[i] > best[i]:
                best = v
        return best

    return value(state, 0)
