# fix: The message says a game-ending move is worth its reward for the mover X (1.0), mine gave 0.0; I now take reward(game, child, p) for the mover p, not the next player.
# clear: yes

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
            q = game.to_move(child)
            result.append((a, 1 - value(weights, features(child, q))))
    return result
