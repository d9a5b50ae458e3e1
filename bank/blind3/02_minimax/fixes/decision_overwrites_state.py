# fix: the message crashes at `state = game.result(state, a)` with a move applied to the wrong (already moved) state, and the trace shows the next root child made from P2.0, so the child is kept in its own variable instead of overwriting state.
# clear: yes

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
        child = game.result(state, a)
        v = value(child)
        if v > best_value:
            best_action, best_value = a, v
    return best_action
