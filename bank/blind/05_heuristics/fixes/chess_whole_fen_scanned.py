# fix: the message says I counted letters of the whole FEN; I count only the placement field, fen.split()[0].
# clear: yes

# %% chess_material
def chess_material(fen, player):
    """(fen, player) -> int: player's material minus the opponent's, in pawns; player is "w" or "b".

    Pawn 1, knight 3, bishop 3, rook 5, queen 9, king 0. Bounds: -103 to 103 (not inside (-1, 1)).
    """
    values = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 9, "k": 0}
    placement = fen.split()[0]
    white = black = 0
    for ch in placement:
        if ch.lower() in values:
            if ch.isupper():
                white += values[ch.lower()]
            else:
                black += values[ch]
    return white - black if player == "w" else black - white
