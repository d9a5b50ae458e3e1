# Entry value_first_player_is_max (02_minimax), cell(s): minimax_value
# Mistake: MAX is always game.players[0] instead of the player to move at the root
# First wrong step: AIMA tree with MIN to move at the root: the search takes MAX's point of view and returns 6 (MAX's value) instead of -6 for MIN, the player to move

# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    player = game.players[0]

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        if game.to_move(s) == player:
            return max(values)
        return min(values)

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
