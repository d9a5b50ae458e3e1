# The whole FEN string is scanned: the castling rights (KQkq) and the side to move ("b")
# are counted as pieces.

# %% chess_material
def chess_material(fen, player):
    """(fen, player) -> int."""
    values = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 9, "k": 0}
    total = 0
    for ch in fen:
        if ch.lower() in values:
            total += values[ch.lower()] if ch.isupper() else -values[ch.lower()]
    return total if player == "w" else -total
