"""Correct, another style: the root order comes from a stable sort that puts the previous best
first, and the depth-limited search is a pair of MAX/MIN functions."""
import math

# %% iterative_deepening_decision
def iterative_deepening_decision(game, state, max_depth, evaluate):
    me = game.to_move(state)

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
            v = max(v, pick(game.result(s, a), alpha, beta, depth - 1))
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
            v = min(v, pick(game.result(s, a), alpha, beta, depth - 1))
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
            v = pick(game.result(state, a), best_value, math.inf, depth - 1)
            if best_action is None or v > best_value:
                best_action, best_value = a, v
        previous = best_action
    return previous
