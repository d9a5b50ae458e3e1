# Bug: a move is valued from the wrong player's view (the opponent's value, not 1 minus it).
# %% move_values
def move_values(game, state, weights):
    me = game.to_move(state)
    out = []
    for action in game.actions(state):
        child = game.result(state, action)
        if game.is_terminal(child):
            out.append((action, reward(game, child, me)))
        else:
            out.append((action, value(weights, features(child, game.to_move(child)))))
    return out
