# fix: the message says mcts_decision does not take the steps of mcts_search with the same arguments (call it once with rng); I pass the given rng instead of random.Random(0)
# clear: yes

# %% mcts_decision
def mcts_decision(game, state, iterations, rng, c=math.sqrt(2), clock=None):
    """The action of the most visited child of the root after mcts_search (first on ties)."""
    root = mcts_search(game, state, iterations, rng, c, clock)
    if not root.children:
        return game.actions(state)[0]
    return max(root.children, key=lambda ch: ch.visits).action
