# Breaks "every window that holds at least one disc of player and none of the opponent's": counts every window
# with discs of a player, also the windows blocked by the other player's discs (mixed windows count for both).
# %% connect_four_windows
def connect_four_windows(state, player):
    """(state, player) -> float in (-1, 1): player's open windows minus the opponent's, weighted by discs."""
    cols = len(state.heights)
    rows = len(state.board) // cols
    windows = windows_of(rows, cols)
    other = "O" if player == "X" else "X"
    weight = (0, 1, 3, 9, 9)
    mine = theirs = 0
    for w in windows:
        cells = [state.board[i] for i in w]
        p, o = cells.count(player), cells.count(other)
        mine += weight[p]
        theirs += weight[o]
    return (mine - theirs) / (9 * len(windows) + 1)
