# fix: the message says White's pieces are upper case and my sign came out reversed; I count upper-case letters for White and lower-case for Black.
# clear: yes
# %% depth_limited_value
def depth_limited_value(game, state, depth, evaluate):
    """Alpha-beta value of `state` for the player to move there, searched `depth` plies deep.

    Terminal states are valued by game.utility (at any depth); a non-terminal state at
    depth 0 by evaluate(state, player), with the root player.
    """
    player = game.to_move(state)

    def search(s, d, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        if d == 0:
            return evaluate(s, player)
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, search(game.result(s, a), d - 1, alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, search(game.result(s, a), d - 1, alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    return search(state, depth, -math.inf, math.inf)

# %% depth_limited_decision
def depth_limited_decision(game, state, depth, evaluate):
    """The first best action in `state` for the player to move, with a search `depth` plies deep (depth >= 1)."""
    player = game.to_move(state)

    def search(s, d, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        if d == 0:
            return evaluate(s, player)
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, search(game.result(s, a), d - 1, alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, search(game.result(s, a), d - 1, alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    best_action, alpha = None, -math.inf
    for a in game.actions(state):
        v = search(game.result(state, a), depth - 1, alpha, math.inf)
        if best_action is None or v > alpha:
            best_action, alpha = a, v
    return best_action

# %% isolation_mobility
def isolation_mobility(state, player):
    """(state, player) -> float in (-1, 1): player's moves minus the opponent's, scaled.

    Positive when `player` has more moves than the opponent, 0 when equal, negative when fewer.
    """
    opponent = "P2" if player == "P1" else "P1"
    mine = isolation.mobility(state, player)
    theirs = isolation.mobility(state, opponent)
    return (mine - theirs) / (mine + theirs + 1)

# %% isolation_improved
def isolation_improved(state, player):
    """(state, player) -> float in (-1, 1): your better Isolation evaluation for `player`."""
    opponent = "P2" if player == "P1" else "P1"
    mine = isolation.mobility(state, player)
    theirs = isolation.mobility(state, opponent)
    mobility = (mine - theirs) / (mine + theirs + 1)
    size = state.size
    centre = (size - 1) / 2

    def off_centre(p):
        if p is None:
            return 0.0
        r, c = divmod(p, size)
        return abs(r - centre) + abs(c - centre)

    me = 0 if player == "P1" else 1
    centrality = (off_centre(state.positions[1 - me]) - off_centre(state.positions[me])) / (2 * size)
    return 0.8 * mobility + 0.15 * centrality

# %% connect_four_windows
def connect_four_windows(state, player):
    """(state, player) -> float in (-1, 1): player's open windows minus the opponent's, weighted by discs."""
    cols = len(state.heights)
    rows = len(state.board) // cols
    opponent = "O" if player == "X" else "X"
    weights = {1: 1, 2: 3, 3: 9}
    windows = windows_of(rows, cols)
    total = 0
    for w in windows:
        cells = [state.board[i] for i in w]
        mine, theirs = cells.count(player), cells.count(opponent)
        if mine and not theirs:
            total += weights.get(mine, 0)
        elif theirs and not mine:
            total -= weights.get(theirs, 0)
    return total / (9 * len(windows) + 1)

# %% food_grid_evaluate
def food_grid_evaluate(state, player):
    """(state, player) -> float in (-1, 1): score difference, then who is nearer to food, for `player`."""
    me = 0 if player == "A" else 1
    food_total = bin(state.food).count("1") + state.scores[0] + state.scores[1]

    def nearest_food(start):

        seen = {start}
        queue = deque([(start, 0)])
        while queue:
            i, d = queue.popleft()
            if state.food >> i & 1:
                return d
            r, c = divmod(i, state.width)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < state.height and 0 <= cc < state.width:
                    j = rr * state.width + cc
                    if j not in seen and not state.walls >> j & 1:
                        seen.add(j)
                        queue.append((j, d + 1))
        return math.inf

    closeness = [1 / (1 + nearest_food(p)) for p in state.positions]
    diff = state.scores[me] - state.scores[1 - me]
    near = 0.5 * (closeness[me] - closeness[1 - me])
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

    def search(s, d, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        if d <= 0 and not game.is_noisy(s):
            return evaluate(s, player)
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, search(game.result(s, a), d - 1, alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, search(game.result(s, a), d - 1, alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    return search(state, depth, -math.inf, math.inf)
