# ruff: noqa: F821  (math and alphabeta_value come from the notebook's earlier cells)
# The origin lab's bug: `return` indented one level too deep, inside the loop over the
# moves, so the decision always answers with the first move it looks at.
# Expected to lose test_decision only.

# %% alphabeta_decision
def alphabeta_decision(game, state):
    best_action, alpha = None, -math.inf
    for a in game.actions(state):
        v = -alphabeta_value(game, game.result(state, a), -math.inf, -alpha)
        if best_action is None or v > alpha:
            best_action, alpha = a, v
        return best_action
