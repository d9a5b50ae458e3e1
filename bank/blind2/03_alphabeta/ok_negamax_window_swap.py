# Entry ok_negamax_window_swap (03_alphabeta), cell(s): none
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
    '''Negamax form: every node maximises its own value; the window is negated and swapped for the opponent.'''
    if game.is_terminal(state):
        return game.utility(state, game.to_move(state))
    me = game.to_move(state)
    v = -math.inf
    for a in game.actions(state):
        child = game.result(state, a)
        if game.to_move(child) == me:
            w = alphabeta_value(game, child, alpha, beta)
        else:
            w = -alphabeta_value(game, child, -beta, -alpha)
        if w > v:
            v = w
        if v >= beta:
            break
        if v > alpha:
            alpha = v
    return v

# %% alphabeta_decision
def alphabeta_decision(game, state):
    '''The root loop, calling alphabeta_value on each child with the window negated for the opponent.'''
    me = game.to_move(state)
    best_action, best = None, -math.inf
    for a in game.actions(state):
        child = game.result(state, a)
        if game.to_move(child) == me:
            v = alphabeta_value(game, child, best, math.inf)
        else:
            v = -alphabeta_value(game, child, -math.inf, -best)
        if best_action is None or v > best:
            best_action, best = a, v
    return best_action
