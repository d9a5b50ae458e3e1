# Breaks "exactly opposite for the two players": weighs the opponent's moves twice ("aggressive" mobility),
# (mine - 2*theirs + centre) / (mine + 2*theirs + 1), so evaluate(s, P2) != -evaluate(s, P1).
# %% isolation_improved
_IMPROVED_GAMES = {}


def isolation_improved(state, player):
    """(state, player) -> float in (-1, 1): your better Isolation evaluation for `player`."""
    game = _IMPROVED_GAMES.get(state.size)
    if game is None:
        game = _IMPROVED_GAMES[state.size] = Isolation(size=state.size)
    other = "P2" if player == "P1" else "P1"
    mine = game.mobility(state, player)
    theirs = game.mobility(state, other)
    # A small tie-break for the piece nearer the centre (|centre| < 0.1, so mobility stays first).
    half = (state.size - 1) / 2

    def off_centre(p):
        if p is None:
            return 0
        r, c = divmod(p, state.size)
        return max(abs(r - half), abs(c - half))

    me = 0 if player == "P1" else 1
    centre = 0.1 * (off_centre(state.positions[1 - me]) - off_centre(state.positions[me])) / max(1, state.size)
    return (mine - 2 * theirs + centre) / (mine + 2 * theirs + 1)
