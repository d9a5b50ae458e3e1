# fix: The message says children must be searched smaller keys first, but mine took the largest first; I removed reverse=True from the sort.
# clear: yes

# %% ordered_alphabeta_value
def ordered_alphabeta_value(game, state, key):
    """The alpha-beta value of `state`, searching each node's children by increasing key(state, action)."""
    player = game.to_move(state)

    def search(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        ordered = sorted(game.actions(s), key=lambda a: key(s, a))
        if game.to_move(s) == player:
            v = -math.inf
            for a in ordered:
                v = max(v, search(game.result(s, a), alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
        else:
            v = math.inf
            for a in ordered:
                v = min(v, search(game.result(s, a), alpha, beta))
                if v <= alpha:
                    return v
                beta = min(beta, v)
        return v

    return search(state, -math.inf, math.inf)
