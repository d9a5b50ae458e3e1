# fix: the message says the decision must be the root's most visited child, not the best mean; I changed mcts_decision's max key from ch.total / ch.visits to ch.visits
# clear: yes

# %% mcts_decision
def mcts_decision(game, state, iterations, rng, c=math.sqrt(2), clock=None):
    """The action of the most visited child of the root after mcts_search (first on ties)."""
    root = mcts_search(game, state, iterations, rng, c, clock)
    if not root.children:
        return game.actions(state)[0]
    return max(root.children, key=lambda ch: ch.visits).action
