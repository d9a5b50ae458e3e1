# Distance and score are simply added: two steps nearer to food count as much as two
# pieces of food eaten, so the score difference no longer comes first.

# %% food_grid_evaluate
import math


def food_grid_evaluate(state, player):
    """(state, player) -> float in (-1, 1)."""
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
    nearer = manhattan(state.positions[1 - me]) - manhattan(state.positions[me])
    return math.tanh((lead + nearer) / 10)
