# ruff: noqa: F821  (math and alphabeta_value come from the notebook's earlier cells)
# The decision keeps the LAST of equally good moves (>= instead of >).
# Expected to lose test_decision only.

# %% alphabeta_decision
def alphabeta_decision(game, state):
    best_action, alpha = None, -math.inf
    for a in game.actions(state):
        v = -alphabeta_value(game, game.result(state, a), -math.inf, -alpha)
        if v >= alpha:
            best_action, alpha = a, v
    return best_action
