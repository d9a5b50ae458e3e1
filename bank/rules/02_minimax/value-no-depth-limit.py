# Breaks "Search every line of play down to a terminal state, however many plies that takes: there is no depth limit".
# Taken from the blind3 entry value_depth_cap_nine (bank/blind3/02_minimax/), written blind from the release notebook:
# a safety cap on the recursion: below 9 plies (the longest Tic-Tac-Toe game) a state counts as a draw, 0, though longer games (RaceTo(10, 3): up to 10 plies) go on
# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    player = game.to_move(state)

    def value(s, depth):
        if game.is_terminal(s):
            return game.utility(s, player)
        if depth >= 9:  # no game of the lab lasts longer
            return 0
        values = [value(game.result(s, a), depth + 1) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    return value(state, 0)
