# fix: the message says the rollout drew no number from the rng it was given; I changed random.choice to rng.choice in rollout
# clear: yes

# %% rollout
def rollout(game, state, rng):
    """Random moves, random.choice(game.actions(s)) each, from `state` until the game ends; the final state."""
    s = state
    while not game.is_terminal(s):
        s = game.result(s, rng.choice(game.actions(s)))
    return s
