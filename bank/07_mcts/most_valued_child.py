# Bug: the decision is the child with the best mean reward, not the most visited.
# %% mcts_decision
def mcts_decision(game, state, iterations, rng, c=math.sqrt(2), clock=None):
    root = mcts_search(game, state, iterations, rng, c, clock)
    if not root.children:
        return game.actions(state)[0]
    best = root.children[0]
    for child in root.children[1:]:
        if child.total / child.visits > best.total / best.visits:
            best = child
    return best.action
