# Breaks "A depth whose last state was generated just as the time ran out did finish": after a depth the clock is
# asked again, and if it has run out the depth is thrown away as if unfinished.
# %% iterative_deepening_decision
def iterative_deepening_decision(game, state, max_depth, evaluate, clock=None):
    """The best action at `state` after depths 1..max_depth, previous best first; stops when `clock` expires."""
    player = game.to_move(state)

    class OutOfTime(Exception):
        pass

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

    actions = list(game.actions(state))
    answer = actions[0] if actions else None
    previous = None
    for depth in range(1, max_depth + 1):
        order = actions if previous is None else [previous] + [a for a in actions if a != previous]
        best, alpha = None, -math.inf
        try:
            for a in order:
                v = search(child(state, a), alpha, math.inf, depth - 1)
                if best is None or v > alpha:
                    best, alpha = a, v
        except OutOfTime:
            break
        if clock is not None and clock.expired():
            break
        previous = answer = best
    return answer
