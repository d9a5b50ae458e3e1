# fix: the message showed the root's children (opponent's nodes) valued with max, one level out of step; the root loop now values each child with min_value instead of max_value.
# clear: partly

# %% minimax_decision
def minimax_decision(game, state):
    """The first action, in actions() order, with the best minimax value for the player to move."""
    player = game.to_move(state)

    def max_value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        return max(min_value(game.result(s, a)) for a in game.actions(s))

    def min_value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        return min(max_value(game.result(s, a)) for a in game.actions(s))

    best_action, best_value = None, -math.inf
    for a in game.actions(state):
        v = min_value(game.result(state, a))
        if v > best_value:
            best_action, best_value = a, v
    return best_action
