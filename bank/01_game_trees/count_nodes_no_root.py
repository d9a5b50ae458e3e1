# ruff: noqa
# Bug: counts the children of every node, so the root itself is never counted.
# %% count_nodes
def count_nodes(game, state):
    if game.is_terminal(state):
        return 0
    total = 0
    for action in game.actions(state):
        total += 1 + count_nodes(game, game.result(state, action))
    return total
