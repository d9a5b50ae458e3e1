# Entry decision_skips_pass (02_minimax), cell(s): minimax_decision
# Mistake: the root loop leaves out the null move 'pass' (a pass is not a real move), so where passing is the only legal move, as in Reversi(4), no action is ever tried and the decision is None instead of 'pass'
# First wrong step: Reversi(4) after (0, 1), (0, 2), (3, 3), (3, 2), (0, 3), (2, 0), (3, 1), (0, 0), (2, 3), (1, 3): Black's only action is 'pass', and the decision is None instead of 'pass'
# Checked: minimax_decision on that Reversi position (reached by playing those moves), this function against mine

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
        if a == "pass":
            continue  # not a real move
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
