# fix: the message says the search stopped at depth 9 (returned 0 instead of searching the 10th ply to the terminal); I removed the depth cap that returned 0 at depth >= 9.
# clear: yes

# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    player = game.to_move(state)

    def value(s, depth):
        if game.is_terminal(s):
            return game.utility(s, player)
        values = [value(game.result(s, a), depth + 1) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    return value(state, 0)
