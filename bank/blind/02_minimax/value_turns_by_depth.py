# Entry value_turns_by_depth (02_minimax), cell(s): minimax_value, minimax_decision
# Mistake: MAX and MIN are decided by the depth parity (a boolean flipped at every level) instead of asking game.to_move(s); correct as long as the players alternate, wrong when a player moves twice in a row (Reversi without null move)
# First wrong step: in Reversi(4, null_move=False) after Black's (0, 3) White is skipped, but the search treats the next node as White's (MIN) node

# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    me = game.to_move(state)

    def value(s, maximizing):
        if game.is_terminal(s):
            return game.utility(s, me)
        values = [value(game.result(s, a), not maximizing) for a in game.actions(s)]
        return max(values) if maximizing else min(values)

    return value(state, True)

# %% minimax_decision
def minimax_decision(game, state):
    """The first action, in actions() order, with the best minimax value for the player to move."""
    me = game.to_move(state)

    def value(s, maximizing):
        if game.is_terminal(s):
            return game.utility(s, me)
        values = [value(game.result(s, a), not maximizing) for a in game.actions(s)]
        return max(values) if maximizing else min(values)

    best_action, best_value = None, -math.inf
    for a in game.actions(state):
        v = value(game.result(state, a), False)
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
        vals = [value(game.result(s, a), d + 1) for a in game.actions(s)]
        return max(vals) if game.to_move(s) == me else min(vals)

    best_action, best_value = None, -math.inf
    for a in game.actions(state):
        v = value(game.result(state, a), 1)
        if v > best_value:
            best_action, best_value = a, v
    return best_action
