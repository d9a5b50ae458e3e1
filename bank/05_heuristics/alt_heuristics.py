# Correct: other evaluations that meet the same requirements. Isolation: moves counted
# with squares both pieces can reach shared half and half; Connect Four: weights 1, 10,
# 100 squashed by tanh; food: Manhattan distances, squashed by tanh; mobility scaled by
# the largest possible number of moves.

# %% isolation_mobility
import math


def isolation_mobility(state, player):
    """(state, player) -> float in (-1, 1)."""
    most = 4 * (state.size - 1)
    return (isolation.mobility(state, player) - isolation.mobility(state, isolation.opponent(player))) / (most + 1)  # noqa: F821 (a notebook global)

# %% isolation_improved
def isolation_improved(state, player):
    """(state, player) -> float in (-1, 1)."""
    opponent = isolation.opponent(player)  # noqa: F821 (a notebook global)
    mine = set(isolation.actions(state._replace(to_move=player)))  # noqa: F821 (a notebook global)
    theirs = set(isolation.actions(state._replace(to_move=opponent)))  # noqa: F821 (a notebook global)
    shared = len(mine & theirs)
    a, b = len(mine) - shared / 2, len(theirs) - shared / 2
    return (a - b) / (a + b + 1)

# %% connect_four_windows
def connect_four_windows(state, player):
    """(state, player) -> float in (-1, 1)."""
    cols = len(state.heights)
    opponent = "O" if player == "X" else "X"
    score = 0
    for window in windows_of(len(state.board) // cols, cols):  # noqa: F821 (a notebook global)
        line = "".join(state.board[i] for i in window)
        if opponent not in line:
            score += (0, 1, 10, 100, 0)[line.count(player)]
        elif player not in line:
            score -= (0, 1, 10, 100, 0)[line.count(opponent)]
    return math.tanh(score / 200)

# %% food_grid_evaluate
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
    nearer = (manhattan(state.positions[1 - me]) - manhattan(state.positions[me])) / (state.width + state.height)
    return math.tanh(lead + 0.4 * nearer)
