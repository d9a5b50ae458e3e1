# fix: the message said to ask game.to_move(s) at every node instead of alternating by depth; minimax_value now maximizes when game.to_move(s) == player.
# clear: yes

# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    player = game.to_move(state)

    def value(s, depth):
        if game.is_terminal(s):
            return game.utility(s, player)
        values = [value(game.result(s, a), depth + 1) for a in game.actions(s)]
        if game.to_move(s) == player:
            return max(values)
        return min(values)

    return value(state, 0)
