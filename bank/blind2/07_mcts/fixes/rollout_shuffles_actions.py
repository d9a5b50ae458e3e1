# fix: The message said each rollout move is rng.choice(game.actions(s)), so I replaced the shuffle-and-take-first with s = game.result(s, rng.choice(game.actions(s))).
# clear: yes

# %% rollout
def rollout(game, state, rng):
    """Random moves, rng.choice(game.actions(s)) each, from `state` until the game ends; the final state."""
    s = state
    while not game.is_terminal(s):
        s = game.result(s, rng.choice(game.actions(s)))
    return s
