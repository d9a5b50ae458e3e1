# fix: The message says the clock must be asked before every call of game.result, not only between depths, and the unfinished depth thrown away; I made child() ask clock.expired() and raise OutOfTime before calling game.result.
# clear: yes

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
        if clock is not None and clock.expired():
            break
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
