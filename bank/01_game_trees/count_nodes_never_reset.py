# ruff: noqa
# Bug: the count lives in a global variable that is never reset, so a second call goes on from the first one's total.
# %% count_nodes
NODES_SEEN = 0


def count_nodes(game, state):
    global NODES_SEEN
    NODES_SEEN += 1
    if not game.is_terminal(state):
        for action in game.actions(state):
            count_nodes(game, game.result(state, action))
    return NODES_SEEN
