# Score difference plus distance, never scaled: as soon as a player leads by a piece of
# food the value reaches 1 or more, as much as a win.

# %% food_grid_evaluate
def food_grid_evaluate(state, player):
    """(state, player) -> float."""
    def manhattan(square):
        r, c = divmod(square, state.width)
        best = state.width + state.height
        for i in range(state.width * state.height):
            if state.food >> i & 1:
                fr, fc = divmod(i, state.width)
                best = min(best, abs(fr - r) + abs(fc - c))
        return best

    me = 0 if player == "A" else 1
    lead = state.scores[me] - state.scores[1 - me]
    nearer = (manhattan(state.positions[1 - me]) - manhattan(state.positions[me])) / (state.width + state.height)
    return lead + 0.5 * nearer
