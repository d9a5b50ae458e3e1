"""Bug: each depth searches the previous depth's best action first but keeps it in its own place too, so
that action is searched twice. The clock is consulted as it should be: only iterative_deepening may lose
points (the clock group compares with this same search run without a clock)."""
import math

# %% iterative_deepening_decision
def iterative_deepening_decision(game, state, max_depth, evaluate, clock=None):
    player = game.to_move(state)

    class OutOfTime(Exception):
        """The clock expired: the depth being searched is thrown away."""

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
                actions = [best] + actions  # the best move is kept in its own place too: searched twice
            alpha, choice = -math.inf, None
            for a in actions:
                v = value(child(state, a), alpha, math.inf, depth - 1)
                if choice is None or v > alpha:
                    choice, alpha = a, v
            best = choice
    except OutOfTime:
        pass  # the unfinished depth is thrown away: `best` is still the last finished depth's move
    if best is None:  # not even depth 1 finished: any legal move beats none
        best = game.actions(state)[0]
    return best
