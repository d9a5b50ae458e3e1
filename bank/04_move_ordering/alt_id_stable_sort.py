"""Correct, another style: the root order comes from a stable sort that puts the previous best
first, and the depth-limited search is a pair of MAX/MIN functions. The clock is asked in one helper
that makes children; once it has run out the helper makes none, every search returns at once, and the
root keeps the previous depth's move (no exception)."""
import math

# %% iterative_deepening_decision
def iterative_deepening_decision(game, state, max_depth, evaluate, clock=None):
    me = game.to_move(state)
    stopped = []

    def make(s, a):
        """The child, or None once the clock has run out."""
        if stopped or (clock is not None and clock.expired()):
            stopped.append(True)
            return None
        return game.result(s, a)

    def leaf(s, depth):
        if game.is_terminal(s):
            return True, game.utility(s, me)
        if depth == 0:
            return True, evaluate(s, me)
        return False, None

    def max_value(s, alpha, beta, depth):
        done, v = leaf(s, depth)
        if done:
            return v
        v = -math.inf
        for a in game.actions(s):
            kid = make(s, a)
            if kid is None:
                return v
            v = max(v, pick(kid, alpha, beta, depth - 1))
            if v >= beta:
                break
            alpha = max(alpha, v)
        return v

    def min_value(s, alpha, beta, depth):
        done, v = leaf(s, depth)
        if done:
            return v
        v = math.inf
        for a in game.actions(s):
            kid = make(s, a)
            if kid is None:
                return v
            v = min(v, pick(kid, alpha, beta, depth - 1))
            if v <= alpha:
                break
            beta = min(beta, v)
        return v

    def pick(s, alpha, beta, depth):
        if not game.is_terminal(s) and game.to_move(s) == me:
            return max_value(s, alpha, beta, depth)
        return min_value(s, alpha, beta, depth)

    previous = None
    for depth in range(1, max_depth + 1):
        order = sorted(game.actions(state), key=lambda a: a != previous)
        best_action, best_value = None, -math.inf
        for a in order:
            kid = make(state, a)
            if kid is None:
                break
            v = pick(kid, best_value, math.inf, depth - 1)
            if stopped:
                break
            if best_action is None or v > best_value:
                best_action, best_value = a, v
        if stopped:
            break
        previous = best_action
    return previous if previous is not None else game.actions(state)[0]
