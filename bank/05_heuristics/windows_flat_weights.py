# Every open window weighs 1, whatever the number of discs in it.

# %% connect_four_windows
def connect_four_windows(state, player):
    """(state, player) -> float in (-1, 1)."""
    cols = len(state.heights)
    lines = windows_of(len(state.board) // cols, cols)  # noqa: F821 (a notebook global)
    opponent = "O" if player == "X" else "X"
    total = 0
    for window in lines:
        cells = [state.board[i] for i in window]
        mine, theirs = cells.count(player), cells.count(opponent)
        if mine and not theirs:
            total += 1
        elif theirs and not mine:
            total -= 1
    return total / (9 * len(lines) + 1)
