# fix: the message said I guess the mover from the depth while players do not always move in turn; the entry index is now taken from game.to_move(s) at every node
# clear: yes

# %% maxn_value
def maxn_value(game, state):
    """The max^n utility vector of `state`: each player keeps the first child best for her."""

    def value(s, depth):
        if game.is_terminal(s):
            return tuple(game.utilities(s))
        i = game.players.index(game.to_move(s))
        best = None
        for a in game.actions(s):
            v = value(game.result(s, a), depth + 1)
            if best is None or v[i] > best[i]:
                best = v
        return best

    return value(state, game.players.index(game.to_move(state)))
