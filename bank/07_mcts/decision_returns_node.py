# Bug: the decision returns the most visited child Node itself, not its action. The clock is handled as it
# should be: only the decision group may lose points.
# %% mcts_decision
def mcts_decision(game, state, iterations, rng, c=math.sqrt(2), clock=None):
    root = mcts_search(game, state, iterations, rng, c, clock)
    best = None
    for child in root.children:
        if best is None or child.visits > best.visits:
            best = child
    return game.actions(state)[0] if best is None else best
