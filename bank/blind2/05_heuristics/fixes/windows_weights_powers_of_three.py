# fix: The message showed weights x1, x3, x9 for 1, 2, 3 discs (mine gave three times too much), so the weights are now {1: 1, 2: 3, 3: 9}.
# clear: yes

# %% connect_four_windows
def connect_four_windows(state, player):
    """(state, player) -> float in (-1, 1): player's open windows minus the opponent's, weighted by discs."""
    cols = len(state.heights)
    rows = len(state.board) // cols
    windows = windows_of(rows, cols)
    other = "O" if player == "X" else "X"
    weight = {1: 1, 2: 3, 3: 9}
    mine = theirs = 0
    for window in windows:
        cells = [state.board[i] for i in window]
        n_mine, n_theirs = cells.count(player), cells.count(other)
        if n_mine and not n_theirs:
            mine += weight.get(n_mine, 0)
        elif n_theirs and not n_mine:
            theirs += weight.get(n_theirs, 0)
    return (mine - theirs) / (9 * len(windows) + 1)
