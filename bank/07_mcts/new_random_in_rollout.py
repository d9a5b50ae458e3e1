# Bug: the rollout makes its own random.Random(0) instead of drawing from the rng it is given.
# %% rollout
def rollout(game, state, rng):
    mine = random.Random(0)
    s = state
    while not game.is_terminal(s):
        s = game.result(s, mine.choice(game.actions(s)))
    return s
