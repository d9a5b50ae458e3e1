# Entry value_global_cache (02_minimax), cell(s): minimax_value
# Mistake: a module-level dictionary of state values that is never cleared: a second search of the same game reads old answers (and skips the tree), and values stored for one root player are reused for another
# First wrong step: after the 16-leaf tree, the 8-leaf tree's root, also named 'P1.0', is found in the cache: returns 7 instead of 12 (and a traced search of the 16-leaf tree visits 1 node instead of 31)

# %% minimax_value
_values = {}


def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    player = game.to_move(state)

    def value(s):
        if s in _values:
            return _values[s]
        if game.is_terminal(s):
            v = game.utility(s, player)
        else:
            values = [value(game.result(s, a)) for a in game.actions(s)]
            v = max(values) if game.to_move(s) == player else min(values)
        _values[s] = v
        return v

    return value(state)

# %% minimax_decision
def minimax_decision(game, state):
    """The first action, in actions() order, with the best minimax value for the player to move."""
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    best_action, best_value = None, -math.inf
    for a in game.actions(state):
        v = value(game.result(state, a))
        if v > best_value:
            best_action, best_value = a, v
    return best_action

# %% quick_win_decision
def quick_win_decision(game, state):
    """Like minimax_decision, but a terminal state d plies below scores utility * (10 - d)."""
    player = game.to_move(state)

    def value(s, d):
        if game.is_terminal(s):
            return game.utility(s, player) * (10 - d)
        values = [value(game.result(s, a), d + 1) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    best_action, best_value = None, -math.inf
    for a in game.actions(state):
        v = value(game.result(state, a), 1)
        if v > best_value:
            best_action, best_value = a, v
    return best_action
