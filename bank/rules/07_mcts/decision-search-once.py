# Breaks "Call `root = mcts_search(game, state, iterations, rng, c, clock)` once": it searches once to check that
# the root has a child and a second time (same rng, now advanced; same clock) for the tree it reads the visits from.
# %% mcts_decision
def mcts_decision(game, state, iterations, rng, c=math.sqrt(2), clock=None):
    """The action of the most visited child of the root after mcts_search (first on ties)."""
    if not mcts_search(game, state, iterations, rng, c, clock).children:
        return game.actions(state)[0]
    root = mcts_search(game, state, iterations, rng, c, clock)
    best = root.children[0]
    for child in root.children[1:]:
        if child.visits > best.visits:
            best = child
    return best.action
