# Breaks "The same key is used at every node, for both players": only the root player's nodes sort their children
# by key; the opponent's nodes search theirs in actions() order.
# %% ordered_alphabeta_value
def ordered_alphabeta_value(game, state, key):
    """The alpha-beta value of `state`, searching each node's children by increasing key(state, action)."""
    player = game.to_move(state)

    def search(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        actions = game.actions(s)
        if game.to_move(s) == player:
            actions = sorted(actions, key=lambda a: key(s, a))
            v = -math.inf
            for a in actions:
                v = max(v, search(game.result(s, a), alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in actions:
            v = min(v, search(game.result(s, a), alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    return search(state, -math.inf, math.inf)
