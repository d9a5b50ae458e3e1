# fix: the message says rollout crashes on an already finished position because it moves before testing for the end; I start from s = state so the loop tests first
# clear: yes

# %% rollout
def rollout(game, state, rng):
    """Random moves, rng.choice(game.actions(s)) each, from `state` until the game ends; the final state."""
    s = state
    while not game.is_terminal(s):
        s = game.result(s, rng.choice(game.actions(s)))
    return s
