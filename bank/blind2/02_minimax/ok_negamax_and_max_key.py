# Entry ok_negamax_and_max_key (02_minimax), cell(s): none
# Mistake: none
# First wrong step: none

# %% minimax_value
def minimax_value(game, state):
    """Negamax: the value for the player to move, each child's value negated unless the same player moves again."""
    if game.is_terminal(state):
        return game.utility(state, game.to_move(state))
    me = game.to_move(state)
    best = -math.inf
    for a in game.actions(state):
        child = game.result(state, a)
        v = minimax_value(game, child)
        if game.to_move(child) != me:
            v = -v
        best = max(best, v)
    return best

# %% minimax_decision
def _mm(game, s, player):
    if game.is_terminal(s):
        return game.utility(s, player)
    pick = max if game.to_move(s) == player else min
    return pick(_mm(game, game.result(s, a), player) for a in game.actions(s))


def minimax_decision(game, state):
    """The first action, in actions() order, with the best minimax value for the player to move."""
    player = game.to_move(state)
    return max(game.actions(state), key=lambda a: _mm(game, game.result(state, a), player))

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
