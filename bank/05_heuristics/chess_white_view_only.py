# White's material minus Black's, whoever the player is.

# %% chess_material
def chess_material(fen, player):
    """(fen, player) -> int."""
    values = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 9, "k": 0}
    total = 0
    for ch in fen.split()[0]:
        if ch.lower() in values:
            total += values[ch.lower()] if ch.isupper() else -values[ch.lower()]
    return total
