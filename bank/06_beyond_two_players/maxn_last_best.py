# Keeps the last best child on a tie (>= instead of >).
# %% maxn_value
def maxn_value(game, state):
    if game.is_terminal(state):
        return game.utilities(state)
    i = game.players.index(game.to_move(state))
    best = None
    for a in game.actions(state):
        v = maxn_value(game, game.result(state, a))
        if best is None or v[i] >= best[i]:
            best = v
    return best
