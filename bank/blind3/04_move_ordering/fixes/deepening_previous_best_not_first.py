# fix: the message says every depth searched the root's actions in actions() order; the order is now the previous depth's best action first, then the others in actions() order.
# clear: yes

# %% iterative_deepening_decision
class OutOfTime(Exception):
    """Raised inside the search when the clock has run out."""

def iterative_deepening_decision(game, state, max_depth, evaluate, clock=None):
    """The best action at `state` after depths 1..max_depth, previous best first; stops when `clock` expires."""
    player = game.to_move(state)

    def child(s, a):
        if clock is not None and clock.expired():
            raise OutOfTime()
        return game.result(s, a)

    def value(s, alpha, beta, depth):
        if game.is_terminal(s):
            return game.utility(s, player)
        if depth == 0:
            return evaluate(s, player)
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, value(child(s, a), alpha, beta, depth - 1))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, value(child(s, a), alpha, beta, depth - 1))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    actions = game.actions(state)
    best = None
    try:
        for depth in range(1, max_depth + 1):
            order = actions if best is None else [best] + [a for a in actions if a != best]
            depth_best, alpha = None, -math.inf
            for a in order:
                v = value(child(state, a), alpha, math.inf, depth - 1)
                if depth_best is None or v > alpha:
                    depth_best, alpha = a, max(alpha, v)
            best = depth_best
    except OutOfTime:
        pass
    return actions[0] if best is None else best
