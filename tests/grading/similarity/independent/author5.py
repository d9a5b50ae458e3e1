# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    p = game.to_move(state)
    def mm(s, sgn):
        if game.is_terminal(s): return game.utility(s, p)
        best = None
        for a in game.actions(s):
            x = mm(game.result(s, a), -sgn)
            if best is None or sgn * x > sgn * best: best = x
        return best
    return mm(state, 1)
# %% minimax_decision
def minimax_decision(game, state):
    """The first action, in actions() order, with the best minimax value for the player to move."""
    p = game.to_move(state)
    def mm(s, sgn):
        if game.is_terminal(s): return game.utility(s, p)
        best = None
        for a in game.actions(s):
            x = mm(game.result(s, a), -sgn)
            if best is None or sgn * x > sgn * best: best = x
        return best
    pairs = [(mm(game.result(state, a), -1), i, a) for i, a in enumerate(game.actions(state))]
    top = max(v for v, _, _ in pairs)
    return next(a for v, _, a in pairs if v == top)
# %% quick_win_decision
def quick_win_decision(game, state):
    """Like minimax_decision, but a terminal state d plies below scores utility * (10 - d)."""
    p = game.to_move(state)
    def mm(s, sgn, d):
        if game.is_terminal(s): return game.utility(s, p) * (10 - d)
        vals = [mm(game.result(s, a), -sgn, d + 1) for a in game.actions(s)]
        return max(vals) if sgn > 0 else min(vals)
    acts = list(game.actions(state))
    sc = [mm(game.result(state, a), -1, 1) for a in acts]
    return acts[sc.index(max(sc))]
