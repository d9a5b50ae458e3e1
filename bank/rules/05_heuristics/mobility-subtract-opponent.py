# Breaks "with mine the number of moves of player and theirs the number of moves of the opponent": takes the
# "opponent" to be the player to move in the state (state.to_move), so when `player` is to move theirs == mine and the
# value is 0. Right whenever player is not to move. Also breaks mobility-formula/-player-minus-opponent on those states.
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
    theirs = game.mobility(state, state.to_move)
    return (mine - theirs) / (mine + theirs + 1)
