# fix: The message said every root action was searched with the full window, so I pass the best value so far as alpha to each root action's search.
# clear: yes
# %% depth_limited_value
def depth_limited_value(game, state, depth, evaluate):
    """Alpha-beta value of `state` for the player to move there, searched `depth` plies deep.

    Terminal states are valued by game.utility (at any depth); a non-terminal state at
    depth 0 by evaluate(state, player), with the root player.
    """
    player = game.to_move(state)

    def search(s, alpha, beta, depth):
        if game.is_terminal(s):
            return game.utility(s, player)
        if depth == 0:
            return evaluate(s, player)
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, search(game.result(s, a), alpha, beta, depth - 1))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, search(game.result(s, a), alpha, beta, depth - 1))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    return search(state, -math.inf, math.inf, depth)

# %% depth_limited_decision
def depth_limited_decision(game, state, depth, evaluate):
    """The first best action in `state` for the player to move, with a search `depth` plies deep (depth >= 1)."""
    player = game.to_move(state)

    def search(s, alpha, beta, depth):
        if game.is_terminal(s):
            return game.utility(s, player)
        if depth == 0:
            return evaluate(s, player)
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, search(game.result(s, a), alpha, beta, depth - 1))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, search(game.result(s, a), alpha, beta, depth - 1))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    best_action, best_value = None, -math.inf
    for a in game.actions(state):
        v = search(game.result(state, a), best_value, math.inf, depth - 1)
        if best_action is None or v > best_value:
            best_action, best_value = a, v
    return best_action

# %% isolation_mobility
def isolation_mobility(state, player):
    """(state, player) -> float in (-1, 1): player's moves minus the opponent's, scaled.

    Positive when `player` has more moves than the opponent, 0 when equal, negative when fewer.
    """
    mine = isolation.mobility(state, player)
    theirs = isolation.mobility(state, isolation.opponent(player))
    return (mine - theirs) / (mine + theirs + 1)

# %% isolation_improved
_iso_games = {}

def isolation_improved(state, player):
    """(state, player) -> float in (-1, 1): your better Isolation evaluation for `player`."""
    game = _iso_games.get(state.size)
    if game is None:
        game = _iso_games[state.size] = Isolation(state.size)
    other = game.opponent(player)
    mine, theirs = game.mobility(state, player), game.mobility(state, other)
    mobility = (mine - theirs) / (mine + theirs + 1)
    centre = (state.size - 1) / 2

    def off_centre(p):
        where = state.positions[0 if p == "P1" else 1]
        if where is None:
            return 0.0
        r, c = divmod(where, state.size)
        return max(abs(r - centre), abs(c - centre)) / max(centre, 1)

    position = off_centre(other) - off_centre(player)
    return 0.8 * mobility + 0.15 * position

# %% connect_four_windows
def connect_four_windows(state, player):
    """(state, player) -> float in (-1, 1): player's open windows minus the opponent's, weighted by discs."""
    cols = len(state.heights)
    rows = len(state.board) // cols
    windows = windows_of(rows, cols)
    other = "O" if player == "X" else "X"
    weight = {1: 1, 2: 3, 3: 9}
    mine = theirs = 0
    for window in windows:
        cells = [state.board[i] for i in window]
        n_mine, n_theirs = cells.count(player), cells.count(other)
        if n_mine and not n_theirs:
            mine += weight.get(n_mine, 0)
        elif n_theirs and not n_mine:
            theirs += weight.get(n_theirs, 0)
    return (mine - theirs) / (9 * len(windows) + 1)

# %% food_grid_evaluate
def _food_distance(state, start, other):
    """Steps from `start` to the nearest food, around walls and the other piece (None if unreachable)."""
    if state.food >> start & 1:
        return 0
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        i, d = queue.popleft()
        r, c = divmod(i, state.width)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            rr, cc = r + dr, c + dc
            if not (0 <= rr < state.height and 0 <= cc < state.width):
                continue
            j = rr * state.width + cc
            if j in seen or state.walls >> j & 1 or j == other:
                continue
            if state.food >> j & 1:
                return d + 1
            seen.add(j)
            queue.append((j, d + 1))
    return None

def food_grid_evaluate(state, player):
    """(state, player) -> float in (-1, 1): score difference, then who is nearer to food, for `player`."""
    me = 0 if player == "A" else 1
    total = bin(state.food).count("1") + state.scores[0] + state.scores[1]
    far = state.width * state.height
    mine = _food_distance(state, state.positions[me], state.positions[1 - me])
    theirs = _food_distance(state, state.positions[1 - me], state.positions[me])
    mine = far if mine is None else mine
    theirs = far if theirs is None else theirs
    nearer = 0.5 * (theirs - mine) / (far + 1)
    return (state.scores[me] - state.scores[1 - me] + nearer) / (total + 1)

# %% chess_material
PIECE_VALUES = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 9, "k": 0}

def chess_material(fen, player):
    """(fen, player) -> int: player's material minus the opponent's, in pawns; player is "w" or "b".

    Pawn 1, knight 3, bishop 3, rook 5, queen 9, king 0. Bounds: -103 to 103 (not inside (-1, 1)).
    """
    placement = fen.split()[0]
    white = black = 0
    for ch in placement:
        if ch.lower() in PIECE_VALUES:
            if ch.isupper():
                white += PIECE_VALUES[ch.lower()]
            else:
                black += PIECE_VALUES[ch]
    return white - black if player == "w" else black - white

# %% quiescence_value
def quiescence_value(game, state, depth, evaluate):
    """Alpha-beta value of `state` for the player to move there, `depth` plies deep, never cut off at a noisy state."""
    player = game.to_move(state)

    def search(s, alpha, beta, depth):
        if game.is_terminal(s):
            return game.utility(s, player)
        if depth <= 0 and not game.is_noisy(s):
            return evaluate(s, player)
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, search(game.result(s, a), alpha, beta, depth - 1))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, search(game.result(s, a), alpha, beta, depth - 1))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    return search(state, -math.inf, math.inf, depth)
