# Breaks "Players need not move in turn ... so ask `to_move` at every node": to_move is asked at the start only;
# below it the mover is taken to be the next player of game.players at each level (P1, P2, P3, P1, ...).
# %% maxn_value
def maxn_value(game, state):
    """The max^n utility vector of `state`: each player keeps the first child best for her."""
    n = len(game.players)

    def search(s, i):
        if game.is_terminal(s):
            return tuple(game.utilities(s))
        best = None
        for a in game.actions(s):
            v = search(game.result(s, a), (i + 1) % n)
            if best is None or v[i] > best[i]:
                best = v
        return best

    return search(state, game.players.index(game.to_move(state)))
