# fix: the message says a faster win must score more with d the plies below the root, but my recursion passed the same d to every child; it now passes d + 1.
# clear: partly

# %% quick_win_decision
def quick_win_decision(game, state):
    """Like minimax_decision, but a terminal state d plies below scores utility * (10 - d)."""
    me = game.to_move(state)

    def value(s, d):
        if game.is_terminal(s):
            return game.utility(s, me) * (10 - d)
        vals = [value(game.result(s, a), d + 1) for a in game.actions(s)]
        return max(vals) if game.to_move(s) == me else min(vals)

    best_action, best_value = None, -math.inf
    for a in game.actions(state):
        v = value(game.result(state, a), 1)
        if v > best_value:
            best_action, best_value = a, v
    return best_action
