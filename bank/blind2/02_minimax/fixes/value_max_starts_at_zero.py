# fix: the message showed a MAX node over negative leaves returned 0; the max accumulator now starts at -math.inf instead of 0.
# clear: yes

# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        if game.to_move(s) == player:
            best = -math.inf
            for a in game.actions(s):
                best = max(best, value(game.result(s, a)))
        else:
            best = math.inf
            for a in game.actions(s):
                best = min(best, value(game.result(s, a)))
        return best

    return value(state)
