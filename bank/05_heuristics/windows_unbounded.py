# Open windows, but the raw weighted count is returned: far outside (-1, 1) on a busy board.

# %% connect_four_windows
def connect_four_windows(state, player):
    """(state, player) -> float."""
    weights = (0, 1, 3, 9, 0)
    cols = len(state.heights)
    opponent = "O" if player == "X" else "X"
    total = 0
    for window in windows_of(len(state.board) // cols, cols):  # noqa: F821 (a notebook global)
        cells = [state.board[i] for i in window]
        mine, theirs = cells.count(player), cells.count(opponent)
        if mine and not theirs:
            total += weights[mine]
        elif theirs and not mine:
            total -= weights[theirs]
    return total
