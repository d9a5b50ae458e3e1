# fix: the message says a non-final move is worth 1 - the value of the child for the next player to move; I value the child for game.to_move(child) and take 1 minus it
# clear: yes

# %% move_values
def move_values(game, state, weights):
    """(action, value of that move for the player to move at `state`) for each action, in actions() order."""
    p = game.to_move(state)
    out = []
    for a in game.actions(state):
        child = game.result(state, a)
        if game.is_terminal(child):
            out.append((a, reward(game, child, p)))
        else:
            out.append((a, 1 - value(weights, features(child, game.to_move(child)))))
    return out
