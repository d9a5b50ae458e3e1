# Entry decision_forgets_to_negate (02_minimax), cell(s): minimax_decision
# Mistake: each child is valued from the point of view of the player to move AT THE CHILD (the opponent), and the decision takes the largest of those values instead of the largest value for the root player: it picks the move best for the opponent
# First wrong step: 16-leaf tree: the child P2.0 (action 0) is valued -6 (its value for MIN, the player to move there) instead of 6 for the root player, P2.1 -7 instead of 7; the larger, -6, makes the decision 0 instead of 1
# Checked: the child values and the decision on the 16-leaf tree, this function against my correct one

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

    def value(s):
        # the value of s for the player to move at s
        me = game.to_move(s)

        def v(t):
            if game.is_terminal(t):
                return game.utility(t, me)
            vs = [v(game.result(t, a)) for a in game.actions(t)]
            return max(vs) if game.to_move(t) == me else min(vs)

        return v(s)

    best_action, best_value = None, -math.inf
    for a in game.actions(state):
        score = value(game.result(state, a))
        if score > best_value:
            best_action, best_value = a, score
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
