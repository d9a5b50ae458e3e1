# Windows are counted for a player whenever they hold the player's discs, even when the
# opponent has a disc there too (a window that can never be won).

# %% connect_four_windows
def connect_four_windows(state, player):
    """(state, player) -> float in (-1, 1)."""
    weights = (0, 1, 3, 9, 0)
    cols = len(state.heights)
    lines = windows_of(len(state.board) // cols, cols)  # noqa: F821 (a notebook global)
    opponent = "O" if player == "X" else "X"
    total = 0
    for window in lines:
        cells = [state.board[i] for i in window]
        total += weights[cells.count(player)] - weights[cells.count(opponent)]
    return total / (weights[3] * len(lines) + 1)
