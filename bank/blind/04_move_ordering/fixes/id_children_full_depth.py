# fix: The message says depth d searched each root child d plies deep (one ply too many); I search each root action's result to depth - 1.
# clear: yes
# %% ordered_alphabeta_value
def ordered_alphabeta_value(game, state, key):
    """The alpha-beta value of `state`, searching each node's children by increasing key(state, action)."""
    player = game.to_move(state)

    def search(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        ordered = sorted(game.actions(s), key=lambda a: key(s, a))
        if game.to_move(s) == player:
            v = -math.inf
            for a in ordered:
                v = max(v, search(game.result(s, a), alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
        else:
            v = math.inf
            for a in ordered:
                v = min(v, search(game.result(s, a), alpha, beta))
                if v <= alpha:
                    return v
                beta = min(beta, v)
        return v

    return search(state, -math.inf, math.inf)

# %% perfect_ordering
def perfect_ordering(tree):
    """A copy of the GameTree `tree` with each node's children sorted best first."""

    def build(node):

        if tree.is_terminal(node):
            v = tree.value(node)
            return v, v
        parts = [build(c) for c in tree.children(node)]
        if tree.kind(node) == "MAX":
            parts.sort(key=lambda p: -p[1])
            value = parts[0][1]
        else:
            parts.sort(key=lambda p: p[1])
            value = parts[0][1]
        return [spec for spec, _ in parts], value

    spec, _ = build(tree.initial)
    return GameTree.from_nested(spec, root=tree.kind(tree.initial))

# %% alphabeta_tt_value
def alphabeta_tt_value(game, state, table, depth=math.inf, evaluate=None):
    """Alpha-beta value of `state` searched `depth` plies deep, using and filling `table`."""
    player = game.to_move(state)

    def search(s, depth, alpha, beta):
        if s in table:
            v, flag, d = table[s]
            if d >= depth:
                if flag == EXACT:
                    return v
                if flag == LOWER and v >= beta:
                    return v
                if flag == UPPER and v <= alpha:
                    return v
        if game.is_terminal(s):
            v = game.utility(s, player)
            table[s] = (v, EXACT, math.inf)
            return v
        if depth == 0:
            v = evaluate(s, player)
            table[s] = (v, EXACT, 0)
            return v
        alpha0, beta0 = alpha, beta
        maximizing = game.to_move(s) == player
        v = -math.inf if maximizing else math.inf
        for a in game.actions(s):
            w = search(game.result(s, a), depth - 1, alpha, beta)
            if maximizing:
                v = max(v, w)
                if v >= beta:
                    break
                alpha = max(alpha, v)
            else:
                v = min(v, w)
                if v <= alpha:
                    break
                beta = min(beta, v)
        if v <= alpha0:
            flag = UPPER
        elif v >= beta0:
            flag = LOWER
        else:
            flag = EXACT
        table[s] = (v, flag, depth)
        return v

    return search(state, depth, -math.inf, math.inf)

# %% iterative_deepening_decision
class OutOfTime(Exception):
    """Raised deep in the search when the clock has expired."""

def iterative_deepening_decision(game, state, max_depth, evaluate, clock=None):
    """The best action at `state` after depths 1..max_depth, previous best first; stops when `clock` expires."""
    player = game.to_move(state)
    actions = game.actions(state)

    def child(s, a):
        if clock is not None and clock.expired():
            raise OutOfTime()
        return game.result(s, a)

    def ab(s, depth, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        if depth == 0:
            return evaluate(s, player)
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, ab(child(s, a), depth - 1, alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, ab(child(s, a), depth - 1, alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    best = actions[0]
    previous = None
    for depth in range(1, max_depth + 1):
        if previous is None:
            order = list(actions)
        else:
            order = [previous] + [a for a in actions if a != previous]
        try:
            best_here, alpha = None, -math.inf
            for a in order:
                v = ab(child(state, a), depth - 1, alpha, math.inf)
                if best_here is None or v > alpha:
                    best_here, alpha = a, v
        except OutOfTime:
            break
        best = previous = best_here
    return best
