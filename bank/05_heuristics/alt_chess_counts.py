# Correct: material with str.count on the placement field, White's pieces upper case.

# %% chess_material
def chess_material(fen, player):
    """(fen, player) -> int."""
    placement = fen.split(" ")[0]
    worth = {"P": 1, "N": 3, "B": 3, "R": 5, "Q": 9}
    white = sum(placement.count(p) * v for p, v in worth.items())
    black = sum(placement.count(p.lower()) * v for p, v in worth.items())
    return white - black if player == "w" else black - white
