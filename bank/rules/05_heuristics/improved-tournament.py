# Breaks the tournament row ("depth-3 alpha-beta with your function ... against random moves (70% needed), a greedy
# one-ply player using mobility (50%) and depth 3 with evaluation 0 (70%)") through its time limit: adds the notebook's
# "look one step further" done the expensive way (for every move of each player, the mobility after making it, three
# of its own moves deep), so one call costs milliseconds and the tournament runs far past the 15-second limit. The term has a
# weight below 0.001, so the values keep the base's order (bounds, opposite, deterministic, ranking hold).
# Cannot be broken alone: it also breaks the "cheap" half of improved-deterministic ("deterministic and cheap").
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

    def further(s, p, plies):
        # The notebook's "look one step further", carried `plies` of p's own moves deep.
        s = s._replace(to_move=p)
        total = 0
        for a in game.actions(s):
            t = game.result(s, a)
            total += game.mobility(t, p)
            if plies > 1:
                total += further(t, p, plies - 1)
        return total

    me = 0 if player == "P1" else 1
    centre = 0.1 * (off_centre(state.positions[1 - me]) - off_centre(state.positions[me])) / max(1, state.size)
    look = (further(state, player, 3) - further(state, other, 3)) / 1e9
    return (mine - theirs + centre) / (mine + theirs + 1) + look
