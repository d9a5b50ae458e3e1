# fix: the message said my values count letters of the whole FEN string and only the placement field (before the first space) holds pieces; I now loop over fen.split()[0] instead of fen
# clear: yes

# %% chess_material
def chess_material(fen, player):
    """(fen, player) -> int: player's material minus the opponent's, in pawns; player is "w" or "b".

    Pawn 1, knight 3, bishop 3, rook 5, queen 9, king 0. Bounds: -103 to 103 (not inside (-1, 1)).
    """
    worth = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 9, "k": 0}
    white = black = 0
    for ch in fen.split()[0]:
        if ch.lower() in worth:
            if ch.isupper():
                white += worth[ch.lower()]
            else:
                black += worth[ch]
    return white - black if player == "w" else black - white
