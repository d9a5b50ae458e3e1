# Entry decision_best_value_never_updated (02_minimax), cell(s): minimax_decision
# Mistake: when an action beats the best so far, only the best action is stored, not its value: the best value stays -infinity, so every action replaces the previous one and the LAST action is returned
# First wrong step: tie tree [[5, 6], [5, 9], [4, 7]]: action 1 (value 5) is compared with -inf instead of 5 and replaces action 0; the decision is 2 (value 4) instead of 0 (on the 16-leaf tree and the threat position the best action is also the last one, so those are right by luck)
# Checked: the decision on the tie tree and on the 16-leaf tree (1 both: the best action is the last there), this function against my correct one

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
            best_action = a
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
