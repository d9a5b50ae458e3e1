# Breaks "Return the max^n vector of `state` as a tuple, entry $i$ for `game.players[i]` **whoever moves**": the
# search is right, but the vector returned puts the entry of the player to move at `state` first, then the others in
# game.players order (P2 to move: (u2, u1, u3)); same sentence as maxn-not-rotated, a reorder that is not a rotation.
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
    return (v[me],) + v[:me] + v[me + 1:]
