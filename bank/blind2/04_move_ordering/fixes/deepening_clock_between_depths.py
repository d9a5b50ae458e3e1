# fix: The message said I only asked the clock between depths and must ask clock.expired() before every call of game.result; I moved the clock check from the depth loop into child(), which makes every state.
# clear: yes

# %% iterative_deepening_decision
class OutOfTime(Exception):
    """Raised deep inside the search when the clock has run out."""

def iterative_deepening_decision(game, state, max_depth, evaluate, clock=None):
    """The best action at `state` after depths 1..max_depth, previous best first; stops when `clock` expires."""
    player = game.to_move(state)
    actions = game.actions(state)

    def child(s, a):
        if clock is not None and clock.expired():
            raise OutOfTime
        return game.result(s, a)

    def search(s, alpha, beta, depth):
        if game.is_terminal(s):
            return game.utility(s, player)
        if depth == 0:
            return evaluate(s, player)
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, search(child(s, a), alpha, beta, depth - 1))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, search(child(s, a), alpha, beta, depth - 1))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    best = actions[0] if actions else None
    previous = None
    for depth in range(1, max_depth + 1):
        order = list(actions) if previous is None else [previous] + [a for a in actions if a != previous]
        try:
            depth_best, depth_value = None, -math.inf
            for a in order:
                v = search(child(state, a), depth_value, math.inf, depth - 1)
                if depth_best is None or v > depth_value:
                    depth_best, depth_value = a, v
        except OutOfTime:
            break
        best = previous = depth_best
    return best
