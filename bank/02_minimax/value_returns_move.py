# ruff: noqa
# Bug: minimax_value returns the best move instead of its value.
# %% minimax_value
def minimax_value(game, state):
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    if game.is_terminal(state):
        return value(state)
    best, best_value = None, -math.inf
    for a in game.actions(state):
        v = value(game.result(state, a))
        if v > best_value:
            best, best_value = a, v
    return best
