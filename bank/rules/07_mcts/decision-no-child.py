# Breaks "If the root has no child at all (no iteration ran), return the first action, `game.actions(state)[0]`":
# there is no such case; the most visited child is taken with max(), which raises ValueError on a root with no child.
# %% mcts_decision
def mcts_decision(game, state, iterations, rng, c=math.sqrt(2), clock=None):
    """The action of the most visited child of the root after mcts_search (first on ties)."""
    root = mcts_search(game, state, iterations, rng, c, clock)
    return max(root.children, key=lambda ch: ch.visits).action
