# fix: The message gave the formula (mine - theirs) / (mine + theirs + 1), so I added the missing + 1 to the denominator.
# clear: yes

# %% isolation_mobility
def isolation_mobility(state, player):
    """(state, player) -> float in (-1, 1): player's moves minus the opponent's, scaled.

    Positive when `player` has more moves than the opponent, 0 when equal, negative when fewer.
    """
    mine = isolation.mobility(state, player)
    theirs = isolation.mobility(state, isolation.opponent(player))
    return (mine - theirs) / (mine + theirs + 1)
