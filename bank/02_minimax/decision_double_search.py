# ruff: noqa
# Bug: the best move is found by searching every move, then searching again to find which
# move had the best value: leaves are evaluated twice.
# %% minimax_decision
def minimax_decision(game, state):
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    actions = game.actions(state)
    best_value = max(value(game.result(state, a)) for a in actions)
    for a in actions:
        if value(game.result(state, a)) == best_value:
            return a
