# Entry decision_window_upside_down (03_alphabeta), cell(s): alphabeta_decision
# Mistake: the best value so far is given to each root move as its BETA, (-inf, best), because the child is a MIN node, instead of as its alpha, (best, +inf): the first move is searched with (-inf, -inf), and a later move that is better than best can come back as a lower bound equal to best and is never chosen
# First wrong step: 16-leaf tree: the first move P2.0 is searched with beta -inf, so P1.1 stops after P2.2 = 6 (6 >= -inf) and L.2 = 2, L.3 = 8 are never evaluated (third leaf 8 instead of 2), though the choice 1 is right; tree [[5], [[5, 9]]]: the second move is searched with (-inf, 5), its MAX node stops at L.1 = 5 >= 5 and the move comes back 5 instead of 9, so the decision is 0 instead of 1
# Checked: the 16-leaf tree and GameTree.from_nested([[5], [[5, 9]]]) traced with this decision and with mine

# %% minimax_from_lab_02
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    return value(state)


def minimax_decision(game, state):
    """The first action, in actions() order, with the best minimax value for the player to move."""
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

    def value(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, value(game.result(s, a), alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, value(game.result(s, a), alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    return value(state, alpha, beta)

# %% alphabeta_decision
def alphabeta_decision(game, state):
    '''The first best action in `state` for the player to move, by alpha-beta search.'''
    player = game.to_move(state)

    def value(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, value(game.result(s, a), alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, value(game.result(s, a), alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    best_action, best_value = None, -math.inf
    for a in game.actions(state):
        v = value(game.result(state, a), -math.inf, best_value)
        if v > best_value:
            best_action, best_value = a, v
    return best_action
