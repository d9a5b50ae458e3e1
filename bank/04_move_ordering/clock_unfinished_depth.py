"""Bug: the best move is updated as soon as a root move looks better, so when the clock runs out
in the middle of a depth the move of that unfinished depth is returned."""
import math

# %% iterative_deepening_decision
def iterative_deepening_decision(game, state, max_depth, evaluate, clock=None):
    player = game.to_move(state)

    class OutOfTime(Exception):
        """The clock expired."""

    def child(s, a):
        if clock is not None and clock.expired():
            raise OutOfTime
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

    best = None
    try:
        for depth in range(1, max_depth + 1):
            actions = game.actions(state)
            if best is not None:
                actions = [best] + [a for a in actions if a != best]
            alpha, first = -math.inf, True
            for a in actions:
                v = value(child(state, a), alpha, math.inf, depth - 1)
                if first or v > alpha:
                    best, alpha = a, v  # the best move so far, kept even if this depth never finishes
                first = False
    except OutOfTime:
        pass
    if best is None:  # not even depth 1 finished: any legal move beats none
        best = game.actions(state)[0]
    return best
