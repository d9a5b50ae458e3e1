# fix: The message says each rollout move is rng.choice(game.actions(s)); I replaced the shuffle with rng.choice.
# clear: yes

# %% rollout
def rollout(game, state, rng):
    """Random moves, rng.choice(game.actions(s)) each, from `state` until the game ends; the final state."""
    while not game.is_terminal(state):
        state = game.result(state, rng.choice(game.actions(state)))
    return state
