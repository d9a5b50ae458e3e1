# fix: the message says my evaluation is not exactly opposite for the two players (it weighs the opponent twice); I count the opponent's moves with the same weight as mine, (mine - theirs) / (mine + theirs + 1).
# clear: partly

# %% isolation_improved
def isolation_improved(state, player):
    """(state, player) -> float in (-1, 1): your better Isolation evaluation for `player`."""
    opponent = "P2" if player == "P1" else "P1"
    mine = isolation.mobility(state, player)
    theirs = isolation.mobility(state, opponent)

    return (mine - theirs) / (mine + theirs + 1)
