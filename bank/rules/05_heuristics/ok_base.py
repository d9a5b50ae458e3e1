# %% depth_limited_value
def depth_limited_value(game, state, depth, evaluate):
    """Alpha-beta value of `state` for the player to move there, searched `depth` plies deep.

    Terminal states are valued by game.utility (at any depth); a non-terminal state at
    depth 0 by evaluate(state, player), with the root player.
    """
    player = game.to_move(state)

    def value(s, d, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        if d == 0:
            return evaluate(s, player)
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, value(game.result(s, a), d - 1, alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, value(game.result(s, a), d - 1, alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    return value(state, depth, -math.inf, math.inf)


# %% depth_limited_decision
def depth_limited_decision(game, state, depth, evaluate):
    """The first best action in `state` for the player to move, with a search `depth` plies deep (depth >= 1)."""
    player = game.to_move(state)

    def value(s, d, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        if d == 0:
            return evaluate(s, player)
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, value(game.result(s, a), d - 1, alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, value(game.result(s, a), d - 1, alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    best_action, best_value = None, -math.inf
    for a in game.actions(state):
        v = value(game.result(state, a), depth - 1, best_value, math.inf)
        if v > best_value:
            best_action, best_value = a, v
    return best_action


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
    return (mine - theirs) / (mine + theirs + 1)


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
    return (mine - theirs + centre) / (mine + theirs + 1)


# %% connect_four_windows
def connect_four_windows(state, player):
    """(state, player) -> float in (-1, 1): player's open windows minus the opponent's, weighted by discs."""
    cols = len(state.heights)
    rows = len(state.board) // cols
    windows = windows_of(rows, cols)
    other = "O" if player == "X" else "X"
    weight = (0, 1, 3, 9, 9)
    mine = theirs = 0
    for w in windows:
        cells = [state.board[i] for i in w]
        p, o = cells.count(player), cells.count(other)
        if p and not o:
            mine += weight[p]
        elif o and not p:
            theirs += weight[o]
    return (mine - theirs) / (9 * len(windows) + 1)


# %% food_grid_evaluate
def food_grid_evaluate(state, player):
    """(state, player) -> float in (-1, 1): score difference, then who is nearer to food, for `player`."""
    me = 0 if player == "A" else 1
    width, height = state.width, state.height

    def nearest_food(start):
        # Breadth-first search around the walls; None when no food can be reached.
        seen = {start}
        frontier = [start]
        d = 0
        while frontier:
            nxt = []
            for i in frontier:
                if state.food >> i & 1:
                    return d
                r, c = divmod(i, width)
                for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    if 0 <= rr < height and 0 <= cc < width:
                        j = rr * width + cc
                        if j not in seen and not state.walls >> j & 1:
                            seen.add(j)
                            nxt.append(j)
            frontier = nxt
            d += 1
        return None

    def closeness(p):
        d = nearest_food(state.positions[p])
        return 0.0 if d is None else 1 / (d + 1)

    food_total = bin(state.food).count("1") + state.scores[0] + state.scores[1]
    diff = state.scores[me] - state.scores[1 - me]
    near = 0.4 * (closeness(me) - closeness(1 - me))
    return (diff + near) / (food_total + 1)


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


# %% quiescence_value
def quiescence_value(game, state, depth, evaluate):
    """Alpha-beta value of `state` for the player to move there, `depth` plies deep, never cut off at a noisy state."""
    player = game.to_move(state)

    def value(s, d, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        if d <= 0 and not game.is_noisy(s):
            return evaluate(s, player)
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, value(game.result(s, a), d - 1, alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, value(game.result(s, a), d - 1, alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    return value(state, depth, -math.inf, math.inf)
