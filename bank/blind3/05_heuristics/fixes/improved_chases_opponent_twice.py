# fix: the message said isolation_improved is not symmetric between the players (own minus the same thing for the opponent); I stopped weighting the opponent's moves twice, so the value is (mine - theirs) / (mine + theirs + 1)
# clear: yes

# %% isolation_improved
def isolation_improved(state, player):
    """(state, player) -> float in (-1, 1): your better Isolation evaluation for `player`."""
    other = "P2" if player == "P1" else "P1"
    mine, theirs = isolation.mobility(state, player), isolation.mobility(state, other)

    return (mine - theirs) / (mine + theirs + 1)
