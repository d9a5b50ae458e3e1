# fix: The message said children must be searched smaller keys first; I removed reverse=True from the sort.
# clear: yes
# %% ordered_alphabeta_value
def ordered_alphabeta_value(game, state, key):
    """The alpha-beta value of `state`, searching each node's children by increasing key(state, action)."""
    player = game.to_move(state)

    def search(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        order = sorted(game.actions(s), key=lambda a: key(s, a))
        if game.to_move(s) == player:
            v = -math.inf
            for a in order:
                v = max(v, search(game.result(s, a), alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in order:
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
            return tree.value(node), tree.value(node)
        kids = [build(child) for child in tree.children(node)]
        is_max = tree.kind(node) == "MAX"
        kids.sort(key=lambda kid: kid[1], reverse=is_max)
        return [spec for spec, _ in kids], kids[0][1]

    spec, _ = build(tree.initial)
    return GameTree.from_nested(spec, root=tree.kind(tree.initial))

# %% alphabeta_tt_value
def alphabeta_tt_value(game, state, table, depth=math.inf, evaluate=None):
    """Alpha-beta value of `state` searched `depth` plies deep, using and filling `table`."""
    player = game.to_move(state)

    def search(s, alpha, beta, depth):
        entry = table.get(s)
        if entry is not None:
            v, flag, d = entry
            if d >= depth and (flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha)):
                return v
        if game.is_terminal(s):
            v = game.utility(s, player)
            table[s] = (v, EXACT, math.inf)
            return v
        if depth == 0:
            v = evaluate(s, player) if evaluate is not None else 0
            table[s] = (v, EXACT, 0)
            return v
        alpha0, beta0 = alpha, beta
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, search(game.result(s, a), alpha, beta, depth - 1))
                if v >= beta:
                    break
                alpha = max(alpha, v)
        else:
            v = math.inf
            for a in game.actions(s):
                v = min(v, search(game.result(s, a), alpha, beta, depth - 1))
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

    return search(state, -math.inf, math.inf, depth)

# %% iterative_deepening_decision
class OutOfTime(Exception):
    """Raised deep inside the search when the clock has run out."""

def iterative_deepening_decision(game, state, max_depth, evaluate, clock=None):
    """The best action at `state` after depths 1..max_depth, previous best first; stops when `clock` expires."""
    player = game.to_move(state)
    actions = game.actions(state)

    def child(s, a):
        if clock is not None and clock.expired():
            raise OutOfTime
        return game.result(s, a)

    def search(s, alpha, beta, depth):
        if game.is_terminal(s):
            return game.utility(s, player)
        if depth == 0:
            return evaluate(s, player)
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, search(child(s, a), alpha, beta, depth - 1))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, search(child(s, a), alpha, beta, depth - 1))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    best = actions[0] if actions else None
    previous = None
    for depth in range(1, max_depth + 1):
        order = list(actions) if previous is None else [previous] + [a for a in actions if a != previous]
        try:
            depth_best, depth_value = None, -math.inf
            for a in order:
                v = search(child(state, a), depth_value, math.inf, depth - 1)
                if depth_best is None or v > depth_value:
                    depth_best, depth_value = a, v
        except OutOfTime:
            break
        best = previous = depth_best
    return best
