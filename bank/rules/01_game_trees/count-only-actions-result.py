# Breaks "use only actions, result and is_terminal": a leftover line from the notes' max_value asks
# game.to_move(state) at every internal node; the count is the same wherever to_move exists, but it fails
# on a game that only has actions, result and is_terminal.
# %% count_nodes
def count_nodes(game, state):
    """The number of nodes of the full game tree below `state`, `state` itself included."""
    if game.is_terminal(state):
        return 1
    player = game.to_move(state)  # whose turn it is (not needed for counting)
    n = 1
    for action in game.actions(state):
        n += count_nodes(game, game.result(state, action))
    return n
