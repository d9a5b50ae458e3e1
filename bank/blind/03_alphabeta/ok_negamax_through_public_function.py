# Entry ok_negamax_through_public_function (03_alphabeta), cell(s): alphabeta_value, alphabeta_decision
# Mistake: none: correct negamax form; alphabeta_value recurses through itself, negating the child's value and flipping the window when the child's mover is the other player
# First wrong step: none

# %% minimax_from_lab_02
def minimax_value(game, state):
    me = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, me)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if game.to_move(s) == me else min(values)

    return value(state)


def minimax_decision(game, state):
    me = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, me)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if game.to_move(s) == me else min(values)

    best, best_v = None, -math.inf
    for a in game.actions(state):
        v = value(game.result(state, a))
        if v > best_v:
            best, best_v = a, v
    return best

# %% alphabeta_value
def alphabeta_value(game, state, alpha=-math.inf, beta=math.inf):
    '''The value of `state` for the player to move there, by fail-soft alpha-beta search.'''
    me = game.to_move(state)
    if game.is_terminal(state):
        return game.utility(state, me)
    best = -math.inf
    for a in game.actions(state):
        child = game.result(state, a)
        if game.to_move(child) == me:
            v = alphabeta_value(game, child, alpha, beta)
        else:
            v = -alphabeta_value(game, child, -beta, -alpha)
        if v > best:
            best = v
        if best >= beta:
            return best
        if best > alpha:
            alpha = best
    return best

# %% alphabeta_decision
def alphabeta_decision(game, state):
    '''The first best action in `state` for the player to move, by alpha-beta search.'''
    me = game.to_move(state)
    actions = game.actions(state)
    best_action, best = actions[0], -math.inf
    for a in actions:
        child = game.result(state, a)
        if game.to_move(child) == me:
            v = alphabeta_value(game, child, best, math.inf)
        else:
            v = -alphabeta_value(game, child, -math.inf, -best)
        if v > best:
            best_action, best = a, v
    return best_action
