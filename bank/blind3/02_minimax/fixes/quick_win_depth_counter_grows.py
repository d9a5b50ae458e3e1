# fix: the message says my scores differ from utility * (10 - d) with d the plies below the root (the immediate win should score 9), and my shared depth counter kept growing over every node visited, so depth is now passed down as a parameter (1 for a root child, depth + 1 for each child).
# clear: partly

# %% quick_win_decision
def quick_win_decision(game, state):
    """Like minimax_decision, but a terminal state d plies below scores utility * (10 - d)."""
    player = game.to_move(state)

    def value(s, depth):
        if game.is_terminal(s):
            return game.utility(s, player) * (10 - depth)
        values = [value(game.result(s, a), depth + 1) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    best_action, best_value = None, -math.inf
    for a in game.actions(state):
        v = value(game.result(state, a), 1)
        if v > best_value:
            best_action, best_value = a, v
    return best_action
