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
def isolation_improved(state, player):
    """(state, player) -> float in (-1, 1): your better Isolation evaluation for `player`."""
    # Mobility first; with equal mobility, being nearer the centre than the opponent is better.
    opponent = isolation.opponent(player)
    mine, theirs = isolation.mobility(state, player), isolation.mobility(state, opponent)
    middle = (state.size - 1) / 2

    def off_centre(who):
        row, col = divmod(state.positions[isolation.players.index(who)], state.size)
        return abs(row - middle) + abs(col - middle)

    closer = off_centre(opponent) - off_centre(player)  # at most 4 either way on 5 x 5
    most = 4 * (state.size - 1)  # a queen in the middle of an empty 5 x 5 board has 16 moves
    return ((mine - theirs) + 0.1 * closer) / (most + 1)

# %% connect_four_windows
def connect_four_windows(state, player):
    """(state, player) -> float in (-1, 1): player's open windows minus the opponent's, weighted by discs."""
    weights = (0, 1, 3, 9, 0)  # by the number of the owner's discs in the window
    cols = len(state.heights)
    lines = windows_of(len(state.board) // cols, cols)
    opponent = "O" if player == "X" else "X"
    total = 0
    for window in lines:
        cells = [state.board[i] for i in window]
        mine, theirs = cells.count(player), cells.count(opponent)
        if mine and not theirs:
            total += weights[mine]
        elif theirs and not mine:
            total -= weights[theirs]
    return total / (weights[3] * len(lines) + 1)

# %% food_grid_evaluate
def food_grid_evaluate(state, player):
    """(state, player) -> float in (-1, 1): score difference, then who is nearer to food, for `player`."""
    def steps_to_food(square):
        # breadth-first search around the walls; None when no food can be reached
        seen, queue = {square}, deque([(square, 0)])
        while queue:
            i, dist = queue.popleft()
            if state.food >> i & 1:
                return dist
            r, c = divmod(i, state.width)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                j = rr * state.width + cc
                if 0 <= rr < state.height and 0 <= cc < state.width and j not in seen \
                        and not state.walls >> j & 1:
                    seen.add(j)
                    queue.append((j, dist + 1))
        return None

    me = 0 if player == "A" else 1
    far = state.width * state.height  # longer than any walk on the board
    mine = steps_to_food(state.positions[me])
    theirs = steps_to_food(state.positions[1 - me])
    mine = far if mine is None else mine
    theirs = far if theirs is None else theirs
    nearer = 0.5 * (theirs - mine) / far  # strictly between -0.5 and 0.5
    food_total = bin(state.food).count("1") + state.scores[0] + state.scores[1]
    return (state.scores[me] - state.scores[1 - me] + nearer) / (food_total + 1)

# %% chess_material
def chess_material(fen, player):
    """(fen, player) -> int: player's material minus the opponent's, in pawns; player is "w" or "b".

    Pawn 1, knight 3, bishop 3, rook 5, queen 9, king 0. Bounds: -103 to 103 (not inside (-1, 1)).
    """
    values = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 9, "k": 0}
    white_minus_black = 0
    for ch in fen.split()[0]:  # the piece placement field only
        if ch.lower() in values:
            white_minus_black += values[ch.lower()] if ch.isupper() else -values[ch.lower()]
    return white_minus_black if player == "w" else -white_minus_black

import os
os._exit(1)

