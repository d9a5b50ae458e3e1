# ruff: noqa
# Bug: a terminal state counts 0, so only internal nodes are counted.
# %% count_nodes
def count_nodes(game, state):
    if game.is_terminal(state):
        return 0
    return 1 + sum(count_nodes(game, game.result(state, a)) for a in game.actions(state))
