# Entry ok_aima_max_min_value (03_alphabeta), cell(s): none
# Mistake: none
# First wrong step: none

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
    '''AIMA's MAX-VALUE and MIN-VALUE, each child dispatched on who moves there.'''
    player = game.to_move(state)

    def value(s, a, b):
        if game.is_terminal(s):
            return game.utility(s, player)
        return max_value(s, a, b) if game.to_move(s) == player else min_value(s, a, b)

    def max_value(s, a, b):
        v = -math.inf
        for move in game.actions(s):
            v = max(v, value(game.result(s, move), a, b))
            if v >= b:
                break
            a = max(a, v)
        return v

    def min_value(s, a, b):
        v = math.inf
        for move in game.actions(s):
            v = min(v, value(game.result(s, move), a, b))
            if v <= a:
                break
            b = min(b, v)
        return v

    return value(state, alpha, beta)

# %% alphabeta_decision
def alphabeta_decision(game, state):
    '''The root is a MAX node that remembers which move raised alpha.'''
    player = game.to_move(state)
    alpha, best_action = -math.inf, None
    for a in game.actions(state):
        child = game.result(state, a)
        if game.is_terminal(child):
            v = game.utility(child, player)
        elif game.to_move(child) == player:
            v = alphabeta_value(game, child, alpha, math.inf)
        else:
            v = -alphabeta_value(game, child, -math.inf, -alpha)
        if v > alpha or best_action is None:
            alpha, best_action = max(alpha, v), a
    return best_action
