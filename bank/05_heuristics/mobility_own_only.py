# Mobility that counts only the player's own moves (over the same divisor): it ignores the opponent.

# %% isolation_mobility
def isolation_mobility(state, player):
    """(state, player) -> float in (-1, 1)."""
    mine = isolation.mobility(state, player)  # noqa: F821 (a notebook global)
    theirs = isolation.mobility(state, isolation.opponent(player))  # noqa: F821 (a notebook global)
    return mine / (mine + theirs + 1)
