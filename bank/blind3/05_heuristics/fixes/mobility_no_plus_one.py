# fix: the message showed the formula divides by mine + theirs + 1; I added the missing + 1 to the denominator
# clear: yes

# %% isolation_mobility
def isolation_mobility(state, player):
    """(state, player) -> float in (-1, 1): player's moves minus the opponent's, scaled.

    Positive when `player` has more moves than the opponent, 0 when equal, negative when fewer.
    """
    other = "P2" if player == "P1" else "P1"
    mine, theirs = isolation.mobility(state, player), isolation.mobility(state, other)
    return (mine - theirs) / (mine + theirs + 1)
