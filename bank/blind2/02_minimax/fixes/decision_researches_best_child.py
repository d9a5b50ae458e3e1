# fix: the message said a leaf was evaluated twice (search each move once, keep the value); I removed the second search of the best move (and its assert), keeping max(..., key=...).
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

    best_action = max(game.actions(state), key=lambda a: value(game.result(state, a)))
    return best_action
