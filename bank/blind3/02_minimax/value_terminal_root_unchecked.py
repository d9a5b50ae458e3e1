# Entry value_terminal_root_unchecked (02_minimax), cell(s): minimax_value
# Mistake: the terminal test is made on each child before recursing, never on the state the function is called with: a terminal root goes straight to max() of an empty list of children
# First wrong step: the one-leaf tree GameTree.from_nested(6): minimax_value raises ValueError (max() arg is an empty sequence) instead of returning 6; every non-terminal root is right
# Checked: minimax_value on the one-leaf tree, on the 16-leaf tree (7) and on Nim (1, 2, 3) (-1), this function against my correct one

# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    player = game.to_move(state)

    def value(s):
        values = []
        for a in game.actions(s):
            child = game.result(s, a)
            values.append(game.utility(child, player) if game.is_terminal(child) else value(child))
        return max(values) if game.to_move(s) == player else min(values)

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
