# fix: The message said my rollout drew nothing from the rng it was given, so each move is now rng.choice(...) instead of random.choice(...).
# clear: yes

# %% rollout
def rollout(game, state, rng):
    """Random moves, rng.choice(game.actions(s)) each, from `state` until the game ends; the final state."""
    s = state
    while not game.is_terminal(s):
        s = game.result(s, rng.choice(game.actions(s)))
    return s
