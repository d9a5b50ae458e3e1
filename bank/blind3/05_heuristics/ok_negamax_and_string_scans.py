# Entry ok_negamax_and_string_scans (05_heuristics), cell(s): none
# Mistake: none
# First wrong step: none
# Alternative (depth_limited_value, depth_limited_decision, isolation_mobility, isolation_improved, connect_four_windows, chess_material, quiescence_value): depth_limited_value and quiescence_value as negamax (values for the node's mover, utilities and guesses read for the root player and negated at the opponent's nodes, window (-beta, -alpha)); the decision negates a child searched by a negamax helper that still reads for the root player; mobility through a small table of both counts; connect_four_windows counts each window's marks with str.count on a joined string; chess_material sums a dict over the placement field; isolation_improved weighs mobility 0.9 and the centre 0.09
# Checked: the visible tests under nbconvert (all pass); values, decisions and utility/evaluate traces (players included) equal to my base version on the example tree at depths 0-4, block_me at depths 0-4, the ties tree and the exchange tree at depths 0-3; connect_four_windows and depth 1-2 decisions on 40 random Connect Four positions, chess_material on 6 FENs for both sides, all equal; the notebook's tournaments: isolation_improved 100% against all three baselines

# %% depth_limited_value
def depth_limited_value(game, state, depth, evaluate):
    """Alpha-beta value of `state` for the player to move there, searched `depth` plies deep.

    Terminal states are valued by game.utility (at any depth); a non-terminal state at
    depth 0 by evaluate(state, player), with the root player.
    """

    root = game.to_move(state)

    def negamax(s, alpha, beta, left):
        # the value of s for the player to move at s, read from the root player's utility/evaluation
        me = game.to_move(s)
        sign = 1 if me == root else -1
        if game.is_terminal(s):
            return sign * game.utility(s, root)
        if left == 0:
            return sign * evaluate(s, root)
        best = -math.inf
        for a in game.actions(s):
            child = game.result(s, a)
            if game.to_move(child) == me:
                v = negamax(child, alpha, beta, left - 1)
            else:
                v = -negamax(child, -beta, -alpha, left - 1)
            best = max(best, v)
            if best >= beta:
                break
            alpha = max(alpha, best)
        return best

    return negamax(state, -math.inf, math.inf, depth)

# %% depth_limited_decision
def depth_limited_decision(game, state, depth, evaluate):
    """The first best action in `state` for the player to move, with a search `depth` plies deep (depth >= 1)."""
    me = game.to_move(state)
    choice, best = None, -math.inf
    for a in game.actions(state):
        child = game.result(state, a)
        # the child's value for its own mover (utilities and guesses still read for me), turned into mine
        if game.to_move(child) == me:
            v = negamax_from(game, child, depth - 1, evaluate, me, best, math.inf)
        else:
            v = -negamax_from(game, child, depth - 1, evaluate, me, -math.inf, -best)
        if choice is None or v > best:
            choice, best = a, v
    return choice


def negamax_from(game, state, depth, evaluate, root, alpha, beta):
    """The alpha-beta value of `state` for the player to move there, reading utilities and guesses for `root`."""

    def negamax(s, alpha, beta, left):
        # the value of s for the player to move at s, read from the root player's utility/evaluation
        me = game.to_move(s)
        sign = 1 if me == root else -1
        if game.is_terminal(s):
            return sign * game.utility(s, root)
        if left == 0:
            return sign * evaluate(s, root)
        best = -math.inf
        for a in game.actions(s):
            child = game.result(s, a)
            if game.to_move(child) == me:
                v = negamax(child, alpha, beta, left - 1)
            else:
                v = -negamax(child, -beta, -alpha, left - 1)
            best = max(best, v)
            if best >= beta:
                break
            alpha = max(alpha, best)
        return best

    return negamax(state, alpha, beta, depth)

# %% isolation_mobility
def isolation_mobility(state, player):
    """(state, player) -> float in (-1, 1): player's moves minus the opponent's, scaled.

    Positive when `player` has more moves than the opponent, 0 when equal, negative when fewer.
    """
    moves = {p: isolation.mobility(state, p) for p in ("P1", "P2")}
    mine = moves.pop(player)
    (theirs,) = moves.values()
    return (mine - theirs) / (mine + theirs + 1)

# %% isolation_improved
def isolation_improved(state, player):
    """(state, player) -> float in (-1, 1): your better Isolation evaluation for `player`."""
    players = ("P1", "P2")
    me = players.index(player)
    mine, theirs = isolation.mobility(state, player), isolation.mobility(state, players[1 - me])
    mid = (state.size - 1) / 2
    r1, c1 = divmod(state.positions[me], state.size)
    r2, c2 = divmod(state.positions[1 - me], state.size)
    centre = (max(abs(r2 - mid), abs(c2 - mid)) - max(abs(r1 - mid), abs(c1 - mid))) / (mid + 1)
    return 0.9 * (mine - theirs) / (mine + theirs + 1) + 0.09 * centre

# %% connect_four_windows
def connect_four_windows(state, player):
    """(state, player) -> float in (-1, 1): player's open windows minus the opponent's, weighted by discs."""
    cols = len(state.heights)
    windows = windows_of(len(state.board) // cols, cols)
    other = {"X": "O", "O": "X"}[player]
    score = {player: 0, other: 0}
    for window in windows:
        line = "".join(state.board[i] for i in window)
        for who, rival in ((player, other), (other, player)):
            n = line.count(who)
            if n and rival not in line:
                score[who] += 3 ** (n - 1) if n < 4 else 0
    return (score[player] - score[other]) / (9 * len(windows) + 1)

# %% food_grid_evaluate
def food_grid_evaluate(state, player):
    """(state, player) -> float in (-1, 1): score difference, then who is nearer to food, for `player`."""
    me = 0 if player == "A" else 1
    food_total = bin(state.food).count("1") + state.scores[0] + state.scores[1]
    cells = state.width * state.height

    def nearest_food(start):
        # breadth-first search around the walls; cells (a number larger than any walk) if no food is reachable
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
    # |nearer| < 1, so one piece of food always outweighs the distances
    return (lead + 0.5 * nearer) / (food_total + 1)

# %% chess_material
def chess_material(fen, player):
    """(fen, player) -> int: player's material minus the opponent's, in pawns; player is "w" or "b".

    Pawn 1, knight 3, bishop 3, rook 5, queen 9, king 0. Bounds: -103 to 103 (not inside (-1, 1)).
    """
    placement = fen.strip().split(" ")[0]
    values = {"P": 1, "N": 3, "B": 3, "R": 5, "Q": 9}
    white = sum(values.get(ch, 0) for ch in placement)
    black = sum(values.get(ch.upper(), 0) for ch in placement if ch.islower())
    return (white - black) * (1 if player == "w" else -1)

# %% quiescence_value
def quiescence_value(game, state, depth, evaluate):
    """Alpha-beta value of `state` for the player to move there, `depth` plies deep, never cut off at a noisy state."""

    root = game.to_move(state)

    def negamax(s, alpha, beta, left):
        # the value of s for the player to move at s, read from the root player's utility/evaluation
        me = game.to_move(s)
        sign = 1 if me == root else -1
        if game.is_terminal(s):
            return sign * game.utility(s, root)
        if left <= 0 and not game.is_noisy(s):
            return sign * evaluate(s, root)
        best = -math.inf
        for a in game.actions(s):
            child = game.result(s, a)
            if game.to_move(child) == me:
                v = negamax(child, alpha, beta, left - 1)
            else:
                v = -negamax(child, -beta, -alpha, left - 1)
            best = max(best, v)
            if best >= beta:
                break
            alpha = max(alpha, best)
        return best

    return negamax(state, -math.inf, math.inf, depth)
