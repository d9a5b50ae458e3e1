# ruff: noqa
# Bug: players not alternating: below the root the helper always takes the max, as if the
# opponent helped.
# %% minimax_decision
def minimax_decision(game, state):
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        return max(value(game.result(s, a)) for a in game.actions(s))

    best_action, best_value = None, -math.inf
    for action in game.actions(state):
        v = value(game.result(state, action))
        if v > best_value:
            best_action, best_value = action, v
    return best_action
