# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    me = game.to_move(state)

    def max_value(s):
        if game.is_terminal(s):
            return game.utility(s, me)
        v = float("-inf")
        for a in game.actions(s):
            v = max(v, min_value(game.result(s, a)))
        return v

    def min_value(s):
        if game.is_terminal(s):
            return game.utility(s, me)
        v = float("inf")
        for a in game.actions(s):
            v = min(v, max_value(game.result(s, a)))
        return v

    return max_value(state)
# %% minimax_decision
def minimax_decision(game, state):
    """The first action, in actions() order, with the best minimax value for the player to move."""
    me = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, me)
        children = [value(game.result(s, a)) for a in game.actions(s)]
        return max(children) if game.to_move(s) == me else min(children)

    best_action, best_value = None, float("-inf")
    for a in game.actions(state):
        v = value(game.result(state, a))
        if v > best_value:
            best_action, best_value = a, v
    return best_action
# %% quick_win_decision
def quick_win_decision(game, state):
    """Like minimax_decision, but a terminal state d plies below scores utility * (10 - d)."""
    me = game.to_move(state)

    def value(s, d):
        if game.is_terminal(s):
            return game.utility(s, me) * (10 - d)
        children = [value(game.result(s, a), d + 1) for a in game.actions(s)]
        return max(children) if game.to_move(s) == me else min(children)

    best_action, best_value = None, float("-inf")
    for a in game.actions(state):
        v = value(game.result(state, a), 1)
        if v > best_value:
            best_action, best_value = a, v
    return best_action
