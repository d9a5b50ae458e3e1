# fix: the message said mine must be game.mobility(state, player) (I counted the actions of the player to move, wrong for P2); I now use isolation.mobility(state, player)
# clear: yes

# %% isolation_mobility
def isolation_mobility(state, player):
    """(state, player) -> float in (-1, 1): player's moves minus the opponent's, scaled.

    Positive when `player` has more moves than the opponent, 0 when equal, negative when fewer.
    """
    other = "P2" if player == "P1" else "P1"
    mine, theirs = isolation.mobility(state, player), isolation.mobility(state, other)
    return (mine - theirs) / (mine + theirs + 1)
