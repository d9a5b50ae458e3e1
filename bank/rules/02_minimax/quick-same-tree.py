# Breaks "It searches the same tree, in the same order, as minimax_decision": the scoring helper visits the
# children from the last action to the first (as a stack would pop them); scores and the decision are
# unchanged, the order of the search is reversed below the root.
# %% quick_win_decision
def quick_win_decision(game, state):
    """Like minimax_decision, but a terminal state d plies below scores utility * (10 - d)."""
    root = game.to_move(state)

    def score(s, d):
        if game.is_terminal(s):
            return game.utility(s, root) * (10 - d)
        values = [score(game.result(s, a), d + 1) for a in reversed(game.actions(s))]
        if game.to_move(s) == root:
            return max(values)
        return min(values)

    best_action, best_value = None, -math.inf
    for action in game.actions(state):
        v = score(game.result(state, action), 1)
        if v > best_value:
            best_action, best_value = action, v
    return best_action
