# Breaks "a state knows its size from len(state.heights) (columns) and len(state.board)": assumes the
# standard 6 x 7 board (windows_of(6, 7)); right on 6 x 7, wrong (or an IndexError) on other sizes.
# %% connect_four_windows
def connect_four_windows(state, player):
    """(state, player) -> float in (-1, 1): player's open windows minus the opponent's, weighted by discs."""
    cols = len(state.heights)
    rows = len(state.board) // cols
    windows = windows_of(6, 7)
    other = "O" if player == "X" else "X"
    weight = (0, 1, 3, 9, 9)
    mine = theirs = 0
    for w in windows:
        cells = [state.board[i] for i in w]
        p, o = cells.count(player), cells.count(other)
        if p and not o:
            mine += weight[p]
        elif o and not p:
            theirs += weight[o]
    return (mine - theirs) / (9 * len(windows) + 1)
