# ruff: noqa: F821  (math and alphabeta_value come from the notebook's earlier cells)
# The decision searches every root move with the full window: the best value so far is
# never passed down, so nothing is pruned below the later root moves.
# Expected to lose test_decision_pruning only.

# %% alphabeta_decision
def alphabeta_decision(game, state):
    best_action, best = None, -math.inf
    for a in game.actions(state):
        v = -alphabeta_value(game, game.result(state, a))
        if best_action is None or v > best:
            best_action, best = a, v
    return best_action
