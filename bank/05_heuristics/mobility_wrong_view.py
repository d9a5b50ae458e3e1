# Mobility from the opponent's point of view: theirs minus mine.

# %% isolation_mobility
def isolation_mobility(state, player):
    """(state, player) -> float in (-1, 1)."""
    mine = isolation.mobility(state, player)  # noqa: F821 (a notebook global)
    theirs = isolation.mobility(state, isolation.opponent(player))  # noqa: F821 (a notebook global)
    return (theirs - mine) / (mine + theirs + 1)
