# Breaks "the move to play is the root's most visited child": it returns the child with the best mean reward,
# total / visits (the first of equals).
# %% mcts_decision
def mcts_decision(game, state, iterations, rng, c=math.sqrt(2), clock=None):
    """The action of the most visited child of the root after mcts_search (first on ties)."""
    root = mcts_search(game, state, iterations, rng, c, clock)
    if not root.children:
        return game.actions(state)[0]
    best = root.children[0]
    for child in root.children[1:]:
        if child.total / child.visits > best.total / best.visits:
            best = child
    return best.action
