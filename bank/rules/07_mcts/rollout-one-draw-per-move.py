# Breaks "Each move of a rollout is exactly `rng.choice(game.actions(s))`: one draw per move, nothing else": each move
# shuffles a copy of the actions with the rng (len - 1 draws) and plays the first one.
# %% rollout
def rollout(game, state, rng):
    """Random moves, rng.choice(game.actions(s)) each, from `state` until the game ends; the final state."""
    s = state
    while not game.is_terminal(s):
        moves = list(game.actions(s))
        rng.shuffle(moves)
        s = game.result(s, moves[0])
    return s
