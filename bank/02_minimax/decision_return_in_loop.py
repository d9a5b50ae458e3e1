# ruff: noqa
# Bug: the origin lab's Tic-Tac-Toe bug. The decision walks the board's squares row by row;
# `return` is indented inside the loop over rows, so only the top row is ever tried, and the
# `break` after a winning square only leaves the inner loop.
# %% minimax_decision
def minimax_decision(game, state):
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    legal = game.actions(state)
    best_move, best_value = None, -math.inf
    for row in range(3):
        for col in range(3):
            if (row, col) not in legal:
                continue
            v = value(game.result(state, (row, col)))
            if v > best_value:
                best_move, best_value = (row, col), v
            if best_value == 1:
                break
        return best_move
