# fix: the message said isolation_improved is not symmetric between the players (own minus the same thing for the opponent); I stopped weighting the opponent's moves twice, so the value is (mine - theirs) / (mine + theirs + 1)
# clear: yes
# %% depth_limited_value
def depth_limited_value(game, state, depth, evaluate):
    """Alpha-beta value of `state` for the player to move there, searched `depth` plies deep.

    Terminal states are valued by game.utility (at any depth); a non-terminal state at
    depth 0 by evaluate(state, player), with the root player.
    """
    player = game.to_move(state)

    def value(s, alpha, beta, depth):
        if game.is_terminal(s):
            return game.utility(s, player)
        if depth == 0:
            return evaluate(s, player)
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, value(game.result(s, a), alpha, beta, depth - 1))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, value(game.result(s, a), alpha, beta, depth - 1))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    return value(state, -math.inf, math.inf, depth)

# %% depth_limited_decision
def depth_limited_decision(game, state, depth, evaluate):
    """The first best action in `state` for the player to move, with a search `depth` plies deep (depth >= 1)."""
    player = game.to_move(state)

    def value(s, alpha, beta, depth):
        if game.is_terminal(s):
            return game.utility(s, player)
        if depth == 0:
            return evaluate(s, player)
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, value(game.result(s, a), alpha, beta, depth - 1))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, value(game.result(s, a), alpha, beta, depth - 1))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    best_action, best_value = None, -math.inf
    for a in game.actions(state):
        v = value(game.result(state, a), best_value, math.inf, depth - 1)
        if best_action is None or v > best_value:
            best_action, best_value = a, v
    return best_action

# %% isolation_mobility
def isolation_mobility(state, player):
    """(state, player) -> float in (-1, 1): player's moves minus the opponent's, scaled.

    Positive when `player` has more moves than the opponent, 0 when equal, negative when fewer.
    """
    other = "P2" if player == "P1" else "P1"
    mine, theirs = isolation.mobility(state, player), isolation.mobility(state, other)
    return (mine - theirs) / (mine + theirs + 1)

# %% isolation_improved
def isolation_improved(state, player):
    """(state, player) -> float in (-1, 1): your better Isolation evaluation for `player`."""
    other = "P2" if player == "P1" else "P1"
    mine, theirs = isolation.mobility(state, player), isolation.mobility(state, other)

    return (mine - theirs) / (mine + theirs + 1)

# %% connect_four_windows
def connect_four_windows(state, player):
    """(state, player) -> float in (-1, 1): player's open windows minus the opponent's, weighted by discs."""
    cols = len(state.heights)
    rows = len(state.board) // cols
    other = "O" if player == "X" else "X"
    weight = {1: 1, 2: 3, 3: 9}
    windows = windows_of(rows, cols)
    total = 0
    for w in windows:
        cells = [state.board[i] for i in w]
        mine, theirs = cells.count(player), cells.count(other)
        if mine and not theirs:
            total += weight.get(mine, 0)
        elif theirs and not mine:
            total -= weight.get(theirs, 0)
    return total / (9 * len(windows) + 1)

# %% food_grid_evaluate
def food_grid_evaluate(state, player):
    """(state, player) -> float in (-1, 1): score difference, then who is nearer to food, for `player`."""
    me = 0 if player == "A" else 1
    food_total = bin(state.food).count("1") + state.scores[0] + state.scores[1]
    cells = state.width * state.height

    def nearest_food(start):

        seen, frontier = {start}, deque([(start, 0)])
        while frontier:
            square, d = frontier.popleft()
            if state.food >> square & 1:
                return d
            r, c = divmod(square, state.width)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                nxt = rr * state.width + cc
                if 0 <= rr < state.height and 0 <= cc < state.width and not state.walls >> nxt & 1 and nxt not in seen:
                    seen.add(nxt)
                    frontier.append((nxt, d + 1))
        return cells

    lead = state.scores[me] - state.scores[1 - me]
    nearer = (nearest_food(state.positions[1 - me]) - nearest_food(state.positions[me])) / (cells + 1)

    return (lead + 0.5 * nearer) / (food_total + 1)

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

# %% quiescence_value
def quiescence_value(game, state, depth, evaluate):
    """Alpha-beta value of `state` for the player to move there, `depth` plies deep, never cut off at a noisy state."""
    player = game.to_move(state)

    def value(s, alpha, beta, depth):
        if game.is_terminal(s):
            return game.utility(s, player)
        if depth <= 0 and not game.is_noisy(s):
            return evaluate(s, player)
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, value(game.result(s, a), alpha, beta, depth - 1))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, value(game.result(s, a), alpha, beta, depth - 1))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    return value(state, -math.inf, math.inf, depth)
