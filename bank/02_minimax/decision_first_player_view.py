# ruff: noqa
# Bug: wrong perspective: the decision maximises the first player's value even when the
# second player is to move.
# %% minimax_decision
def minimax_decision(game, state):
    me = game.players[0]

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, me)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if game.to_move(s) == me else min(values)

    best_action, best_value = None, -math.inf
    for action in game.actions(state):
        v = value(game.result(state, action))
        if v > best_value:
            best_action, best_value = action, v
    return best_action
