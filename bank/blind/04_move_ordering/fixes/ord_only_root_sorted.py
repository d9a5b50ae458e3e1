# fix: The message says a node below the root (P2.1) searched its children in actions() order instead of key order; inside search I now loop over sorted(game.actions(s), key=lambda a: key(s, a)) at every node, not only at the root.
# clear: yes

# %% ordered_alphabeta_value
def ordered_alphabeta_value(game, state, key):
    """The alpha-beta value of `state`, searching each node's children by increasing key(state, action)."""
    player = game.to_move(state)

    def search(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        if game.to_move(s) == player:
            v = -math.inf
            for a in sorted(game.actions(s), key=lambda a: key(s, a)):
                v = max(v, search(game.result(s, a), alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
        else:
            v = math.inf
            for a in sorted(game.actions(s), key=lambda a: key(s, a)):
                v = min(v, search(game.result(s, a), alpha, beta))
                if v <= alpha:
                    return v
                beta = min(beta, v)
        return v

    value = -math.inf
    alpha = -math.inf
    if game.is_terminal(state):
        return game.utility(state, player)
    for a in sorted(game.actions(state), key=lambda a: key(state, a)):
        value = max(value, search(game.result(state, a), alpha, math.inf))
        alpha = max(alpha, value)
    return value
