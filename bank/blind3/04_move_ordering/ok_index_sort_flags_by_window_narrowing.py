# Entry ok_index_sort_flags_by_window_narrowing (04_move_ordering), cell(s): none
# Mistake: none
# First wrong step: none
# Alternative (ordered_alphabeta_value, perfect_ordering, alphabeta_tt_value, iterative_deepening_decision): ordered alpha-beta as MAX-VALUE/MIN-VALUE that sort (key, index) pairs; perfect_ordering ranks the children by (value, index) with the sign flipped at MAX nodes; the table search narrows its window with a stored bound before searching (allowed by the notebook) and decides the flag from the entry window; iterative deepening keeps the root's moves in a list it rotates and a flag for the finished depth instead of an exception
# Checked: the visible tests under nbconvert (all pass); against my base version: the same values and generate/utility/evaluate traces for the ordered search on the 16-leaf, 3x3 and tie trees with three keys; the same trees from perfect_ordering on 40 random uniform trees; for the table search the same values over depth sequences with shared tables on the 16-leaf tree (same states generated, 50), RaceTo(10, 3) (147 states against 149) and TicTacToe (4,993 against 5,119: the narrowed windows cut a little more); for iterative deepening the same moves and traces on the 16-leaf tree with budgets 0-60 and 1000, and the same columns and states used on Connect Four with budgets 5, 50, 500, 2000

# %% ordered_alphabeta_value
def ordered_alphabeta_value(game, state, key):
    """The alpha-beta value of `state`, searching each node's children by increasing key(state, action)."""
    me = game.to_move(state)

    def in_order(s):
        ranked = [(key(s, a), i, a) for i, a in enumerate(game.actions(s))]
        ranked.sort(key=lambda t: (t[0], t[1]))
        return [a for _, _, a in ranked]

    def node(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, me)
        return max_value(s, alpha, beta) if game.to_move(s) == me else min_value(s, alpha, beta)

    def max_value(s, alpha, beta):
        best = -math.inf
        for a in in_order(s):
            best = max(best, node(game.result(s, a), alpha, beta))
            if best >= beta:
                break
            alpha = max(alpha, best)
        return best

    def min_value(s, alpha, beta):
        best = math.inf
        for a in in_order(s):
            best = min(best, node(game.result(s, a), alpha, beta))
            if best <= alpha:
                break
            beta = min(beta, best)
        return best

    return node(state, -math.inf, math.inf)

# %% perfect_ordering
def perfect_ordering(tree):
    """A copy of the GameTree `tree` with each node's children sorted best first."""
    values = {}

    def minimax(node):
        if tree.is_terminal(node):
            values[node] = tree.value(node)
        else:
            vs = [minimax(c) for c in tree.children(node)]
            values[node] = max(vs) if tree.kind(node) == "MAX" else min(vs)
        return values[node]

    def spec(node):
        if tree.is_terminal(node):
            return tree.value(node)
        sign = -1 if tree.kind(node) == "MAX" else 1
        kids = tree.children(node)
        ranked = sorted(range(len(kids)), key=lambda i: (sign * values[kids[i]], i))
        return [spec(kids[i]) for i in ranked]

    minimax(tree.initial)
    return GameTree.from_nested(spec(tree.initial), root=tree.kind(tree.initial))

# %% alphabeta_tt_value
def alphabeta_tt_value(game, state, table, depth=math.inf, evaluate=None):
    """Alpha-beta value of `state` searched `depth` plies deep, using and filling `table`."""
    me = game.to_move(state)

    def search(s, lo, hi, left):
        entry_lo, entry_hi = lo, hi  # the window s was entered with decides the flag
        if s in table:
            v, flag, d = table[s]
            if d >= left:
                if flag == EXACT:
                    return v
                if flag == LOWER:
                    if v >= hi:
                        return v
                    lo = max(lo, v)  # narrow the window with the bound
                elif flag == UPPER:
                    if v <= lo:
                        return v
                    hi = min(hi, v)
        if game.is_terminal(s):
            v = game.utility(s, me)
            table[s] = (v, EXACT, math.inf)
            return v
        if left == 0:
            v = evaluate(s, me)
            table[s] = (v, EXACT, 0)
            return v
        maximising = game.to_move(s) == me
        v = -math.inf if maximising else math.inf
        for a in game.actions(s):
            w = search(game.result(s, a), lo, hi, left - 1)
            if maximising:
                v = max(v, w)
                if v >= hi:
                    break
                lo = max(lo, v)
            else:
                v = min(v, w)
                if v <= lo:
                    break
                hi = min(hi, v)
        if v <= entry_lo:
            table[s] = (v, UPPER, left)
        elif v >= entry_hi:
            table[s] = (v, LOWER, left)
        else:
            table[s] = (v, EXACT, left)
        return v

    return search(state, -math.inf, math.inf, depth)

# %% iterative_deepening_decision
def iterative_deepening_decision(game, state, max_depth, evaluate, clock=None):
    """The best action at `state` after depths 1..max_depth, previous best first; stops when `clock` expires."""
    me = game.to_move(state)
    stopped = False

    def make(s, a):
        nonlocal stopped
        if stopped or (clock is not None and clock.expired()):
            stopped = True
            return None
        return game.result(s, a)

    def ab(s, alpha, beta, left):
        # None when the clock stopped the search
        if game.is_terminal(s):
            return game.utility(s, me)
        if left == 0:
            return evaluate(s, me)
        maximising = game.to_move(s) == me
        v = -math.inf if maximising else math.inf
        for a in game.actions(s):
            child = make(s, a)
            if child is None:
                return None
            w = ab(child, alpha, beta, left - 1)
            if w is None:
                return None
            if maximising:
                v = max(v, w)
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            else:
                v = min(v, w)
                if v <= alpha:
                    return v
                beta = min(beta, v)
        return v

    moves = list(game.actions(state))
    answer = moves[0]
    for depth in range(1, max_depth + 1):
        best_move, best_value = None, -math.inf
        for a in moves:
            child = make(state, a)
            w = None if child is None else ab(child, best_value, math.inf, depth - 1)
            if w is None:
                return answer
            if best_move is None or w > best_value:
                best_move, best_value = a, w
        answer = best_move
        moves.remove(best_move)
        moves.insert(0, best_move)  # the others keep their actions() order
    return answer
