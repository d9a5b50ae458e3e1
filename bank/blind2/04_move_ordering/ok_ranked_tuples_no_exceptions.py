# Entry ok_ranked_tuples_no_exceptions (04_move_ordering), cell(s): none
# Mistake: none
# First wrong step: none

# %% ordered_alphabeta_value
def ordered_alphabeta_value(game, state, key):
    """MAX-VALUE / MIN-VALUE with the children ranked by (key, position in actions())."""
    player = game.to_move(state)

    def ranked(s):
        acts = game.actions(s)
        return [a for _, _, a in sorted((key(s, a), i, a) for i, a in enumerate(acts))] if acts else []

    def value(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        return max_value(s, alpha, beta) if game.to_move(s) == player else min_value(s, alpha, beta)

    def max_value(s, alpha, beta):
        v = -math.inf
        for a in ranked(s):
            v = max(v, value(game.result(s, a), alpha, beta))
            if v >= beta:
                break
            alpha = max(alpha, v)
        return v

    def min_value(s, alpha, beta):
        v = math.inf
        for a in ranked(s):
            v = min(v, value(game.result(s, a), alpha, beta))
            if v <= alpha:
                break
            beta = min(beta, v)
        return v

    return value(state, -math.inf, math.inf)

# %% perfect_ordering
def _minimax_of(tree, node):
    if tree.is_terminal(node):
        return tree.value(node)
    values = [_minimax_of(tree, c) for c in tree.children(node)]
    return max(values) if tree.kind(node) == "MAX" else min(values)


def _reordered_spec(tree, node):
    if tree.is_terminal(node):
        return tree.value(node)
    kids = tree.children(node)
    sign = -1 if tree.kind(node) == "MAX" else 1
    kids = sorted(kids, key=lambda c: sign * _minimax_of(tree, c))
    return [_reordered_spec(tree, c) for c in kids]


def perfect_ordering(tree):
    """A copy of the GameTree `tree` with each node's children sorted best first (values recomputed per node)."""
    return GameTree.from_nested(_reordered_spec(tree, tree.initial), root=tree.kind(tree.initial))

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
def iterative_deepening_decision(game, state, max_depth, evaluate, clock=None):
    """Iterative deepening without exceptions: the search returns None once the clock has run out."""
    player = game.to_move(state)
    actions = game.actions(state)
    stopped = [False]

    def make(s, a):
        if clock is not None and clock.expired():
            stopped[0] = True
            return None
        return game.result(s, a)

    def ab(s, alpha, beta, depth):
        if game.is_terminal(s):
            return game.utility(s, player)
        if depth == 0:
            return evaluate(s, player)
        maximise = game.to_move(s) == player
        v = -math.inf if maximise else math.inf
        for a in game.actions(s):
            c = make(s, a)
            if c is None:
                return None
            w = ab(c, alpha, beta, depth - 1)
            if w is None:
                return None
            if maximise:
                v = max(v, w)
                if v >= beta:
                    break
                alpha = max(alpha, v)
            else:
                v = min(v, w)
                if v <= alpha:
                    break
                beta = min(beta, v)
        return v

    answer = actions[0] if actions else None
    for depth in range(1, max_depth + 1):
        order = sorted(actions, key=lambda a: 0 if a == answer and depth > 1 else 1)
        best_a, best_v = None, -math.inf
        for a in order:
            c = make(state, a)
            w = None if c is None else ab(c, best_v, math.inf, depth - 1)
            if w is None:
                break
            if best_a is None or w > best_v:
                best_a, best_v = a, w
        if stopped[0]:
            break
        answer = best_a
    return answer
