# Breaks "Return the terminal state reached (the `state` itself when it is terminal already, with no draw)": the
# rollout is a do-while, it always draws and plays a first move before testing for the end, so on a terminal state
# it draws from an empty action list (rng.choice raises IndexError).
# %% rollout
def rollout(game, state, rng):
    """Random moves, rng.choice(game.actions(s)) each, from `state` until the game ends; the final state."""
    s = game.result(state, rng.choice(game.actions(state)))
    while not game.is_terminal(s):
        s = game.result(s, rng.choice(game.actions(s)))
    return s
