# %% ordered_alphabeta_value
def ordered_alphabeta_value(game, state, key):
    """The alpha-beta value of `state`, searching each node's children by increasing key(state, action)."""
    player = game.to_move(state)

    def value(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        actions = sorted(game.actions(s), key=lambda a: key(s, a))
        if game.to_move(s) == player:
            v = -math.inf
            for a in actions:
                v = max(v, value(game.result(s, a), alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in actions:
            v = min(v, value(game.result(s, a), alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    return value(state, -math.inf, math.inf)

# %% perfect_ordering
def perfect_ordering(tree):
    """A copy of the GameTree `tree` with each node's children sorted best first."""
    def build(node):
        """(nested spec of the subtree with the best child first, its minimax value)."""
        if tree.is_terminal(node):
            return tree.value(node), tree.value(node)
        built = [build(child) for child in tree.children(node)]
        if tree.kind(node) == "MAX":
            built.sort(key=lambda pair: -pair[1])
        else:
            built.sort(key=lambda pair: pair[1])
        return [spec for spec, _ in built], built[0][1]

    spec, _ = build(tree.initial)
    return GameTree.from_nested(spec, root=tree.kind(tree.initial))

# %% alphabeta_tt_value
def alphabeta_tt_value(game, state, table, depth=math.inf, evaluate=None):
    """Alpha-beta value of `state` searched `depth` plies deep, using and filling `table`."""
    player = game.to_move(state)

    def value(s, alpha, beta, depth):
        entry = table.get(s)
        if entry is not None and entry[2] >= depth:
            v, flag, _ = entry
            if flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha):
                return v
        if game.is_terminal(s):
            v = game.utility(s, player)
            table[s] = (v, EXACT, math.inf)
            return v
        if depth == 0:
            v = evaluate(s, player)
            table[s] = (v, EXACT, 0)
            return v
        entered = (alpha, beta)
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, value(game.result(s, a), alpha, beta, depth - 1))
                if v >= beta:
                    break
                alpha = max(alpha, v)
        else:
            v = math.inf
            for a in game.actions(s):
                v = min(v, value(game.result(s, a), alpha, beta, depth - 1))
                if v <= alpha:
                    break
                beta = min(beta, v)
        if v <= entered[0]:
            flag = UPPER
        elif v >= entered[1]:
            flag = LOWER
        else:
            flag = EXACT
        table[s] = (v, flag, depth)
        return v

    return value(state, -math.inf, math.inf, depth)

# %% iterative_deepening_decision
def iterative_deepening_decision(game, state, max_depth, evaluate):
    """The best action at `state` after searching depths 1..max_depth, previous best first."""
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

    best = None
    for depth in range(1, max_depth + 1):
        actions = game.actions(state)
        if best is not None:
            actions = [best] + [a for a in actions if a != best]
        alpha, choice = -math.inf, None
        for a in actions:
            v = value(game.result(state, a), alpha, math.inf, depth - 1)
            if choice is None or v > alpha:
                choice, alpha = a, v
        best = choice
    return best

while True:
    pass

