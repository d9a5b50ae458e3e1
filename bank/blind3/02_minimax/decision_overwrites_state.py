# Entry decision_overwrites_state (02_minimax), cell(s): minimax_decision
# Mistake: the loop writes the child into the variable `state` (state = game.result(state, a)), so from the second action on each move is applied to the previous child, not to the root
# First wrong step: 16-leaf tree: action 1 is applied to P2.0 (the child of action 0) instead of the root and reaches P1.2 (value 7) instead of P2.1 (value 7 too, so the answer 1 is right by luck); tie tree [[5, 6], [5, 9], [4, 7]]: action 1 reaches leaf L.1 (6) instead of P2.1 (5), then action 2 is applied to the leaf L.1 and fails with KeyError 'L.1' instead of the decision 0
# Checked: the states generated at depth 1 in Traced(sixteen) by this function and by mine

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
        state = game.result(state, a)
        v = value(state)
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
