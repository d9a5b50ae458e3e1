# ruff: noqa
# Bug: last instead of first best move: `>=` replaces the best move on a tie.
# %% minimax_decision
def minimax_decision(game, state):
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    best_action, best_value = None, -math.inf
    for action in game.actions(state):
        v = value(game.result(state, action))
        if v >= best_value:
            best_action, best_value = action, v
    return best_action
