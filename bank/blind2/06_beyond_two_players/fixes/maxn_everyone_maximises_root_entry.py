# fix: The message said each node's mover (P2 at a P2 node) keeps the child with the largest entry for herself, while I compared the root player's entry everywhere, so each node now compares the entry of game.to_move(s).
# clear: yes

# %% maxn_value
def maxn_value(game, state):
    """The max^n utility vector of `state`: each player keeps the first child best for her."""
    if game.is_terminal(state):
        return tuple(game.utilities(state))
    root = game.players.index(game.to_move(state))

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

    return search(state)
