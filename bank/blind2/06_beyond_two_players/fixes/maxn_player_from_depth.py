# fix: The message said I guess the mover from the depth and must ask game.to_move(state) at every node, so the mover index is now game.players.index(game.to_move(s)).
# clear: yes

# %% maxn_value
def maxn_value(game, state):
    """The max^n utility vector of `state`: each player keeps the first child best for her."""
    first = game.players.index(game.to_move(state)) if not game.is_terminal(state) else 0

    def search(s, depth):
        if game.is_terminal(s):
            return tuple(game.utilities(s))
        i = game.players.index(game.to_move(s))
        best = None
        for a in game.actions(s):
            v = search(game.result(s, a), depth + 1)
            if best is None or v[i] > best[i]:
                best = v
        return best

    return search(state, 0)
