# fix: The message says the move's worth is 1 minus the value for X, the player to move after O's move, and mine equals that value itself; I now compute features(child, ...) for the player to move in the child instead of the mover p.
# clear: partly

# %% move_values
def move_values(game, state, weights):
    """(action, value of that move for the player to move at `state`) for each action, in actions() order."""
    p = game.to_move(state)
    result = []
    for a in game.actions(state):
        child = game.result(state, a)
        if game.is_terminal(child):
            result.append((a, reward(game, child, p)))
        else:
            result.append((a, 1 - value(weights, features(child, game.to_move(child)))))
    return result
