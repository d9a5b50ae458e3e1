# fix: the message says the value for P2 must be the opposite of P1's but I used the player to move; I count the moves of the `player` argument instead of state.to_move.
# clear: yes

# %% isolation_mobility
def isolation_mobility(state, player):
    """(state, player) -> float in (-1, 1): player's moves minus the opponent's, scaled.

    Positive when `player` has more moves than the opponent, 0 when equal, negative when fewer.
    """
    me = player
    opponent = "P2" if me == "P1" else "P1"
    mine = isolation.mobility(state, me)
    theirs = isolation.mobility(state, opponent)
    return (mine - theirs) / (mine + theirs + 1)
