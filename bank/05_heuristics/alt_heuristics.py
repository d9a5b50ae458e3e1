# Correct: other ways to meet the same requirements. Mobility counted from the moves each
# player would have if it were to move; open windows counted on strings of the window's
# cells; Isolation: moves counted with squares both pieces can reach shared half and half;
# food: Manhattan distances, squashed by tanh.

# %% isolation_mobility
import math


def isolation_mobility(state, player):
    """(state, player) -> float in (-1, 1)."""
    opponent = isolation.opponent(player)  # noqa: F821 (a notebook global)
    mine = len(isolation.actions(state._replace(to_move=player)))  # noqa: F821 (a notebook global)
    theirs = len(isolation.actions(state._replace(to_move=opponent)))  # noqa: F821 (a notebook global)
    return (mine - theirs) / (mine + theirs + 1)


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
    lines = windows_of(len(state.board) // cols, cols)  # noqa: F821 (a notebook global)
    opponent = "O" if player == "X" else "X"
    score = 0
    for window in lines:
        line = "".join(state.board[i] for i in window)
        if opponent not in line:
            score += (0, 1, 3, 9, 0)[line.count(player)]
        elif player not in line:
            score -= (0, 1, 3, 9, 0)[line.count(opponent)]
    return score / (9 * len(lines) + 1)


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
