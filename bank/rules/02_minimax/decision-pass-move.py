# Breaks "Some games write that pass as a move of its own, the null move "pass" (Reversi(4) does: the pass takes
# a ply ...)": the root loop skips the action "pass" as if it were not a real move, so when passing is the only
# legal move (Reversi(4)) no action is kept and None is returned. Below the root the pass is searched as usual.
# (It leaves out one of game.actions(state), so it touches "Loop over game.actions(state)" too, but only for "pass".)
# %% minimax_decision
def minimax_decision(game, state):
    """The first action, in actions() order, with the best minimax value for the player to move."""
    root = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, root)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        if game.to_move(s) == root:
            return max(values)
        return min(values)

    best_action, best_value = None, -math.inf
    for action in game.actions(state):
        if action == "pass":  # the null move places no disc: it is not a move to choose
            continue
        v = value(game.result(state, action))
        if v > best_value:
            best_action, best_value = action, v
    return best_action
