# Entry ok_tt_single_loop (04_move_ordering), cell(s): none
# Mistake: none
# First wrong step: none

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
        # (nested spec of the reordered subtree, its minimax value)
        if tree.is_terminal(node):
            return tree.value(node), tree.value(node)
        kids = [build(child) for child in tree.children(node)]
        is_max = tree.kind(node) == "MAX"
        kids.sort(key=lambda kid: kid[1], reverse=is_max)   # stable: ties keep their order
        return [spec for spec, _ in kids], kids[0][1]

    spec, _ = build(tree.initial)
    return GameTree.from_nested(spec, root=tree.kind(tree.initial))

# %% alphabeta_tt_value
def alphabeta_tt_value(game, state, table, depth=math.inf, evaluate=None):
    """One function for both players; the window of entry is kept in lo, hi for the flag."""
    player = game.to_move(state)

    def tt(s, lo, hi, d):
        if s in table:
            v, flag, stored = table[s]
            if stored >= d:
                if flag == EXACT or (flag == LOWER and v >= hi) or (flag == UPPER and v <= lo):
                    return v
        if game.is_terminal(s):
            table[s] = (game.utility(s, player), EXACT, math.inf)
            return table[s][0]
        if d <= 0:
            table[s] = ((0 if evaluate is None else evaluate(s, player)), EXACT, 0)
            return table[s][0]
        mine = game.to_move(s) == player
        alpha, beta = lo, hi
        v = -math.inf if mine else math.inf
        for a in game.actions(s):
            w = tt(game.result(s, a), alpha, beta, d - 1)
            if mine:
                v = max(v, w)
                if v >= beta:
                    break
                alpha = max(alpha, v)
            else:
                v = min(v, w)
                if v <= alpha:
                    break
                beta = min(beta, v)
        flag = EXACT if lo < v < hi else (LOWER if v >= hi else UPPER)
        table[s] = (v, flag, d)
        return v

    return tt(state, -math.inf, math.inf, depth)

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
