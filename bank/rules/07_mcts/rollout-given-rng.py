# Breaks "never call the `random` module's own functions (`random.choice`, ...)": each move is random.choice(...) on
# the module's global generator instead of the rng passed in. (This necessarily breaks
# rollout-one-draw-per-move too: the move is no longer rng.choice, and the rng is never drawn from.)
# %% rollout
def rollout(game, state, rng):
    """Random moves, rng.choice(game.actions(s)) each, from `state` until the game ends; the final state."""
    s = state
    while not game.is_terminal(s):
        s = game.result(s, random.choice(game.actions(s)))
    return s
