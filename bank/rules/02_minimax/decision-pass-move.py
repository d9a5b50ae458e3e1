# Breaks "Some games write that pass as a move of its own, the *null move* `"pass"`".
# Taken from the blind3 entry decision_skips_pass (bank/blind3/02_minimax/), written blind from the release notebook:
# the root loop leaves out the null move 'pass' (a pass is not a real move), so where passing is the only legal move, as in Reversi(4), no action is ever tried and the decision is None instead of 'pass'
# %% minimax_decision
def minimax_decision(game, state):
    """The first action, in actions() order, with the best minimax value for the player to move."""
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    best_action, best_value = None, -math.inf
    for a in game.actions(state):
        if a == "pass":
            continue  # not a real move
        v = value(game.result(state, a))
        if v > best_value:
            best_action, best_value = a, v
    return best_action
