# fix: The message showed the divisor (9 * 69 + 1), so I divide by 9 * len(windows) + 1 instead of len(windows).
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
