# Breaks "When it answers True, stop at once: generate nothing more": below the root an expired clock is only noted,
# and the search finishes the root action it is on before stopping (the depth is still thrown away).
# %% iterative_deepening_decision
def iterative_deepening_decision(game, state, max_depth, evaluate, clock=None):
    """The best action at `state` after depths 1..max_depth, previous best first; stops when `clock` expires."""
    player = game.to_move(state)

    class OutOfTime(Exception):
        pass

    late = [False]

    def child(s, a, root=False):
        if clock is not None and clock.expired():
            late[0] = True
        if late[0] and root:
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
                v = search(child(state, a, root=True), alpha, math.inf, depth - 1)
                if best is None or v > alpha:
                    best, alpha = a, v
            if late[0]:
                raise OutOfTime
        except OutOfTime:
            break
        previous = answer = best
    return answer
