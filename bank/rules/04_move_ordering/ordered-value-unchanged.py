# Breaks "The value never depends on the order, only the work does": alpha and beta are kept in one shared
# window (a dict) for the whole search instead of per node, so bounds raised in one subtree leak into its siblings and
# parent; the cuts become unsound and the value returned depends on the order the key gives.
# %% ordered_alphabeta_value
def ordered_alphabeta_value(game, state, key):
    """The alpha-beta value of `state`, searching each node's children by increasing key(state, action)."""
    player = game.to_move(state)

    window = {"alpha": -math.inf, "beta": math.inf}

    def search(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        actions = sorted(game.actions(s), key=lambda a: key(s, a))
        if game.to_move(s) == player:
            v = -math.inf
            for a in actions:
                v = max(v, search(game.result(s, a)))
                if v >= window["beta"]:
                    return v
                window["alpha"] = max(window["alpha"], v)
            return v
        v = math.inf
        for a in actions:
            v = min(v, search(game.result(s, a)))
            if v <= window["alpha"]:
                return v
            window["beta"] = min(window["beta"], v)
        return v

    return search(state)
