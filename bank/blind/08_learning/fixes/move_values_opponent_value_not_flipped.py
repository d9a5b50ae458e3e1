# fix: The message says a move's value is 1 - the next player's value, mine took the opponent's value as is; I now flip it with 1 - value(...).
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
