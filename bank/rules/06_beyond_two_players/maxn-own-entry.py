# Breaks "the player to move, `game.to_move(s)`, keeps the first child whose entry for her is largest": every node
# keeps the child best for the player to move at the start of the search (values "from the root player's point of
# view", as in the two-player labs), not for its own player.
# %% maxn_value
def maxn_value(game, state):
    """The max^n utility vector of `state`: each player keeps the first child best for her."""
    i = game.players.index(game.to_move(state))

    def search(s):
        if game.is_terminal(s):
            return tuple(game.utilities(s))
        best = None
        for a in game.actions(s):
            v = search(game.result(s, a))
            if best is None or v[i] > best[i]:
                best = v
        return best

    return search(state)
