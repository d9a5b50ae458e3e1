# fix: the message says the formula is (mine - theirs) / (mine + theirs + 1); I add the missing + 1 to the denominator.
# clear: yes

# %% isolation_mobility
def isolation_mobility(state, player):
    """(state, player) -> float in (-1, 1): player's moves minus the opponent's, scaled.

    Positive when `player` has more moves than the opponent, 0 when equal, negative when fewer.
    """
    opponent = "P2" if player == "P1" else "P1"
    mine = isolation.mobility(state, player)
    theirs = isolation.mobility(state, opponent)
    return (mine - theirs) / (mine + theirs + 1)
