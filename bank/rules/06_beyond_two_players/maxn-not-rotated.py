# Breaks "entry $i$ for `game.players[i]` **whoever moves** (do not reorder it around the player to move)": the
# search is right, but the vector returned is rotated so that it starts with the entry of the player to move at
# `state` (P2 to move: (u2, u3, u1)).
# %% maxn_value
def maxn_value(game, state):
    """The max^n utility vector of `state`: each player keeps the first child best for her."""

    def search(s):
        if game.is_terminal(s):
            return tuple(game.utilities(s))
        i = game.players.index(game.to_move(s))
        best = None
        for a in game.actions(s):
            v = search(game.result(s, a))
            if best is None or v[i] > best[i]:
                best = v
        return best

    v = search(state)
    me = game.players.index(game.to_move(state))
    return v[me:] + v[:me]
