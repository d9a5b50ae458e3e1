# Breaks "float in (-1, 1): player's moves minus the opponent's, scaled" (the exact formula (mine - theirs) / (mine + theirs + 1)):
# divides by mine + theirs (0 guarded) without the + 1, so values differ and reach +-1 when one side has no move.
# %% isolation_mobility
_MOBILITY_GAMES = {}


def isolation_mobility(state, player):
    """(state, player) -> float in (-1, 1): player's moves minus the opponent's, scaled.

    Positive when `player` has more moves than the opponent, 0 when equal, negative when fewer.
    """
    game = _MOBILITY_GAMES.get(state.size)
    if game is None:
        game = _MOBILITY_GAMES[state.size] = Isolation(size=state.size)
    other = "P2" if player == "P1" else "P1"
    mine = game.mobility(state, player)
    theirs = game.mobility(state, other)
    return (mine - theirs) / max(1, mine + theirs)
