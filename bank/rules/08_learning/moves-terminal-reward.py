# Breaks "if the move ends the game, its value is the **reward** of the finished game for `p`": a move that ends the
# game is valued like any other, 1 - value(weights, features(child, q)).
# %% move_values
def move_values(game, state, weights):
    """(action, value of that move for the player to move at `state`) for each action, in actions() order."""
    out = []
    for a in game.actions(state):
        child = game.result(state, a)
        q = game.to_move(child)
        out.append((a, 1 - value(weights, features(child, q))))
    return out
