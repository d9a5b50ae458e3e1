# Breaks "the move is worth `1 - value(weights, features(child, q))` to `p`": a move that does not end the game is
# worth value(weights, features(child, q)), the opponent's value, without the 1 - .
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
            q = game.to_move(child)
            out.append((a, value(weights, features(child, q))))
    return out
