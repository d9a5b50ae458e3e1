# Breaks "Search every line of play down to a terminal state ... there is no depth limit": the helper counts
# plies and stops at 9 ("no game of Tic-Tac-Toe lasts longer"), scoring a non-terminal state 9 plies below the
# root as a draw, 0, without searching it (utility is still called only on terminal states).
# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    root = game.to_move(state)  # MAX: the player to move at the root

    def value(s, depth):
        if game.is_terminal(s):
            return game.utility(s, root)
        if depth == 9:  # a game is over after 9 moves at most
            return 0
        values = [value(game.result(s, a), depth + 1) for a in game.actions(s)]
        if game.to_move(s) == root:
            return max(values)
        return min(values)

    return value(state, 0)
