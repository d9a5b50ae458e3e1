# The "improved" Isolation evaluation counts only the player's own moves (and its distance
# to the centre): it ignores the opponent, so it is not opposite for the two players.

# %% isolation_improved
def isolation_improved(state, player):
    """(state, player) -> float in (-1, 1)."""
    mine = isolation.mobility(state, player)  # noqa: F821 (a notebook global)
    row, col = divmod(state.positions[isolation.players.index(player)], state.size)  # noqa: F821 (a notebook global)
    middle = (state.size - 1) / 2
    off_centre = abs(row - middle) + abs(col - middle)
    return (mine - 0.1 * off_centre) / 17
