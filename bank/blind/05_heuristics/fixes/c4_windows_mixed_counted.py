# fix: the message says windows holding discs of both players were counted; I count a window for a player only when it holds none of the opponent's discs.
# clear: yes

# %% connect_four_windows
def connect_four_windows(state, player):
    """(state, player) -> float in (-1, 1): player's open windows minus the opponent's, weighted by discs."""
    cols = len(state.heights)
    rows = len(state.board) // cols
    opponent = "O" if player == "X" else "X"
    weights = {1: 1, 2: 3, 3: 9}
    windows = windows_of(rows, cols)
    total = 0
    for w in windows:
        cells = [state.board[i] for i in w]
        mine, theirs = cells.count(player), cells.count(opponent)
        if mine and not theirs:
            total += weights.get(mine, 0)
        elif theirs and not mine:
            total -= weights.get(theirs, 0)
    return total / (9 * len(windows) + 1)
