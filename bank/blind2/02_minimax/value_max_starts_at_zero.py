# Entry value_max_starts_at_zero (02_minimax), cell(s): minimax_value
# Mistake: the running maximum starts at 0 instead of -infinity, so a MAX node whose children are all negative returns 0
# First wrong step: Nim (1, 2, 3): the root (P1 to move), whose six children are all worth -1, returns max(0, -1, ...) = 0 instead of -1

# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        if game.to_move(s) == player:
            best = 0
            for a in game.actions(s):
                best = max(best, value(game.result(s, a)))
        else:
            best = math.inf
            for a in game.actions(s):
                best = min(best, value(game.result(s, a)))
        return best

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
