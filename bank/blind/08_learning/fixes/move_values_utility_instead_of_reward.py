# fix: The message says a draw is worth the reward 0.5 (1 win, 0.5 draw, 0 loss), mine gave the utility 0; I now use reward(game, child, p) instead of game.utility.
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
