# Entry value_own_bound_only (03_alphabeta), cell(s): alphabeta_value
# Mistake: each node passes down only the bound it updates itself: a MAX node gives its children (alpha, +inf), a MIN node (-inf, beta), so a bound set two or more levels up never reaches the node it should cut
# First wrong step: deep tree [[10], [[[5, 99, 5], 20]], [10]]: P2.3 is entered with (-inf, +inf) instead of (10, +inf) (its MAX parent P1.1 got (-inf, +inf) from the MIN node P2.1), so after L.1 = 5 it does not stop and evaluates 99 and 5 too: leaves 10 5 99 5 20 10 instead of 10 5 20 10
# Checked: the deep and shallow trees traced with this function and with mine, comparing the leaves evaluated and the window at P2.3

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
                v = max(v, value(game.result(s, a), alpha, math.inf))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, value(game.result(s, a), -math.inf, beta))
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
        v = value(game.result(state, a), best_value, math.inf)
        if v > best_value:
            best_action, best_value = a, v
    return best_action
