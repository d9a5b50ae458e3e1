# fix: The message said mine must be game.mobility(state, player) (P2's value came out 0), so I compute mine with isolation.mobility(state, player) instead of the actions of the player to move.
# clear: yes

# %% isolation_mobility
def isolation_mobility(state, player):
    """(state, player) -> float in (-1, 1): player's moves minus the opponent's, scaled.

    Positive when `player` has more moves than the opponent, 0 when equal, negative when fewer.
    """
    mine = isolation.mobility(state, player)
    theirs = isolation.mobility(state, isolation.opponent(player))
    return (mine - theirs) / (mine + theirs + 1)
