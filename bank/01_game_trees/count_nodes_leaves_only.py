# ruff: noqa
# Bug: only the terminal states are counted.
# %% count_nodes
def count_nodes(game, state):
    if game.is_terminal(state):
        return 1
    return sum(count_nodes(game, game.result(state, a)) for a in game.actions(state))
