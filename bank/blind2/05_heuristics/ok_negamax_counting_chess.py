# Entry ok_negamax_counting_chess (05_heuristics), cell(s): none
# Mistake: none
# First wrong step: none

# %% depth_limited_value
def depth_limited_value(game, state, depth, evaluate):
    """Negamax form of depth-limited alpha-beta: each node maximises for the player to move there."""
    root = game.to_move(state)

    def negamax(s, alpha, beta, depth):
        me = game.to_move(s)
        sign = 1 if me == root else -1           # the root player's guesses and utilities, seen by `me`
        if game.is_terminal(s):
            return sign * game.utility(s, root)
        if depth == 0:
            return sign * evaluate(s, root)
        v = -math.inf
        for a in game.actions(s):
            child = game.result(s, a)
            if game.to_move(child) == me:
                w = negamax(child, alpha, beta, depth - 1)
            else:
                w = -negamax(child, -beta, -alpha, depth - 1)
            v = max(v, w)
            if v >= beta:
                break
            alpha = max(alpha, v)
        return v

    return negamax(state, -math.inf, math.inf, depth)

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

    position = off_centre(other) - off_centre(player)      # in [-1, 1]
    return 0.8 * mobility + 0.15 * position

# %% connect_four_windows
def connect_four_windows(state, player):
    """Open windows weighted 3 ** (discs - 1), as a difference over 9 * windows + 1."""
    cols = len(state.heights)
    windows = windows_of(len(state.board) // cols, cols)
    score = 0
    for window in windows:
        text = "".join(state.board[i] for i in window)
        discs = 4 - text.count(".")
        if discs == 0:
            continue
        if text.count(player) == discs:
            score += 3 ** (discs - 1) if discs < 4 else 0
        elif text.count(player) == 0:
            score -= 3 ** (discs - 1) if discs < 4 else 0
    return score / (9 * len(windows) + 1)

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
def chess_material(fen, player):
    """Material balance from the placement field, counted with str.count."""
    board = fen.strip().split(" ")[0]
    values = {"P": 1, "N": 3, "B": 3, "R": 5, "Q": 9}
    white = sum(v * board.count(k) for k, v in values.items())
    black = sum(v * board.count(k.lower()) for k, v in values.items())
    return int(white - black) if player == "w" else int(black - white)

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
