# fix: The message said isolation_improved is not exactly opposite for the two players, so I weight the opponent's moves the same as mine (2 * mine - 2 * theirs) instead of doubling only theirs.
# clear: partly

# %% isolation_improved
def isolation_improved(state, player):
    """(state, player) -> float in (-1, 1): your better Isolation evaluation for `player`."""
    mine = isolation.mobility(state, player)
    theirs = isolation.mobility(state, isolation.opponent(player))
    return (2 * mine - 2 * theirs) / (2 * (mine + theirs) + 1)
