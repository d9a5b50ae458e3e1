# fix: The message says every random choice must use the given rng; rollout now uses rng.choice instead of random.choice.
# clear: yes

# %% rollout
def rollout(game, state, rng):
    """Random moves, rng.choice(game.actions(s)) each, from `state` until the game ends; the final state."""
    while not game.is_terminal(state):
        state = game.result(state, rng.choice(game.actions(state)))
    return state
