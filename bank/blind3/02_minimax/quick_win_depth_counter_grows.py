# Entry quick_win_depth_counter_grows (02_minimax), cell(s): quick_win_decision
# Mistake: the depth is one counter shared by the whole search (incremented on the way down, never decremented on the way back up), so it counts the nodes entered so far, not the plies below the root
# First wrong step: lazy-win position O.. / X.X / .O.: the first move's subtree leaves the counter at 47, so the immediate win (1, 1) is scored 1 * (10 - 81) = -71 instead of 1 * (10 - 1) = 9; (0, 1) (score -21, correct 0) is chosen instead of (1, 1)
# Checked: the depth used for the terminal after (1, 1) in the lazy-win position, this function against my correct one

# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        values = [value(game.result(s, a)) for a in game.actions(s)]
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
    depth = 0

    def value(s):
        nonlocal depth
        depth += 1
        if game.is_terminal(s):
            return game.utility(s, player) * (10 - depth)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    best_action, best_value = None, -math.inf
    for a in game.actions(state):
        v = value(game.result(state, a))
        if v > best_value:
            best_action, best_value = a, v
    return best_action
