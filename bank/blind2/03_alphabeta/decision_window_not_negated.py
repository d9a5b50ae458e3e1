# Entry decision_window_not_negated (03_alphabeta), cell(s): alphabeta_decision
# Mistake: calls alphabeta_value on each child and negates the result, but passes the root's window (best, +inf) unchanged instead of (-inf, -best) for the opponent
# First wrong step: 16-leaf tree: move 1 leads to P2.1, searched for MIN (who moves there) with the window (6, +inf) instead of (-inf, -6); its child P1.3 stops after P2.6 = 0 for MIN (0 <= alpha = 6), P2.1 returns 0, negated 0 < 6, and the decision keeps move 0 instead of 1

# %% minimax_from_lab_02
def minimax_value(game, state):
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    return value(state)


def minimax_decision(game, state):
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    best_action, best_value = None, -math.inf
    for a in game.actions(state):
        v = value(game.result(state, a))
        if v > best_value:
            best_action, best_value = a, v
    return best_action

# %% alphabeta_value
def alphabeta_value(game, state, alpha=-math.inf, beta=math.inf):
    '''The value of `state` for the player to move there, by fail-soft alpha-beta search.'''
    player = game.to_move(state)

    def search(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, search(game.result(s, a), alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, search(game.result(s, a), alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    return search(state, alpha, beta)

# %% alphabeta_decision
def alphabeta_decision(game, state):
    '''The first best action in `state` for the player to move, by alpha-beta search.'''
    best_action, best_value = None, -math.inf
    for a in game.actions(state):
        v = -alphabeta_value(game, game.result(state, a), best_value, math.inf)
        if v > best_value:
            best_action, best_value = a, v
    return best_action
