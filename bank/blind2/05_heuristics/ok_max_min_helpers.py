# Entry ok_max_min_helpers (05_heuristics), cell(s): none
# Mistake: none
# First wrong step: none

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
    """Root loop over depth_limited_value-style helpers written as MAX-VALUE / MIN-VALUE."""
    player = game.to_move(state)

    def value(s, alpha, beta, d):
        if game.is_terminal(s):
            return game.utility(s, player)
        if d == 0:
            return evaluate(s, player)
        maximise = game.to_move(s) == player
        v = -math.inf if maximise else math.inf
        for a in game.actions(s):
            w = value(game.result(s, a), alpha, beta, d - 1)
            if maximise:
                if w > v:
                    v = w
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            else:
                if w < v:
                    v = w
                if v <= alpha:
                    return v
                beta = min(beta, v)
        return v

    actions = game.actions(state)
    best, alpha = actions[0], -math.inf
    for i, a in enumerate(actions):
        v = value(game.result(state, a), alpha, math.inf, depth - 1)
        if i == 0 or v > alpha:
            best, alpha = a, v
    return best

# %% isolation_mobility
def isolation_mobility(state, player):
    """Mobility difference scaled by the total plus one, from a game built for the state's size."""
    game = Isolation(state.size)
    opponent = "P2" if player == "P1" else "P1"
    mine, theirs = game.mobility(state, player), game.mobility(state, opponent)
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

    position = off_centre(other) - off_centre(player)      # in [-1, 1]
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
    nearer = 0.5 * (theirs - mine) / (far + 1)            # in (-0.5, 0.5): less than one food
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
    """Two mutually recursive functions; the cut-off test waits for a quiet position."""
    player = game.to_move(state)

    def cutoff(s, d):
        return d <= 0 and not game.is_noisy(s)

    def max_value(s, alpha, beta, d):
        if game.is_terminal(s):
            return game.utility(s, player)
        if cutoff(s, d):
            return evaluate(s, player)
        v = -math.inf
        for a in game.actions(s):
            c = game.result(s, a)
            v = max(v, (max_value if game.to_move(c) == player else min_value)(c, alpha, beta, d - 1))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v

    def min_value(s, alpha, beta, d):
        if game.is_terminal(s):
            return game.utility(s, player)
        if cutoff(s, d):
            return evaluate(s, player)
        v = math.inf
        for a in game.actions(s):
            c = game.result(s, a)
            v = min(v, (max_value if game.to_move(c) == player else min_value)(c, alpha, beta, d - 1))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    return max_value(state, -math.inf, math.inf, depth)
