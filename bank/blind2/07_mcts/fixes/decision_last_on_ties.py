# fix: The message said to take the first child on equal visits and replace the best only on strictly more visits, so >= became >.
# clear: yes

# %% mcts_decision
def mcts_decision(game, state, iterations, rng, c=math.sqrt(2), clock=None):
    """The action of the most visited child of the root after mcts_search (first on ties)."""
    root = mcts_search(game, state, iterations, rng, c, clock)
    if not root.children:
        return game.actions(state)[0]
    best = root.children[0]
    for child in root.children[1:]:
        if child.visits > best.visits:
            best = child
    return best.action
