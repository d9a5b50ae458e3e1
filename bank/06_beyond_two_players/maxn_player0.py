# Every node maximises the first entry (player 0's utility).
# %% maxn_value
def maxn_value(game, state):
    if game.is_terminal(state):
        return game.utilities(state)
    best = None
    for a in game.actions(state):
        v = maxn_value(game, game.result(state, a))
        if best is None or v[0] > best[0]:
            best = v
    return best
