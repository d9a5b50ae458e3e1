# fix: the message says mine returned 2, which is not one of the actions, so the decision now keeps the action a itself instead of its position i.
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

    best_index, best_value = None, -math.inf
    for i, a in enumerate(game.actions(state)):
        v = value(game.result(state, a))
        if v > best_value:
            best_index, best_value = a, v
    return best_index
