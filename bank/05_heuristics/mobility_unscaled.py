# Mobility as the plain difference of the moves, never divided.

# %% isolation_mobility
def isolation_mobility(state, player):
    """(state, player) -> float."""
    mine = isolation.mobility(state, player)  # noqa: F821 (a notebook global)
    theirs = isolation.mobility(state, isolation.opponent(player))  # noqa: F821 (a notebook global)
    return mine - theirs
