# Entry ok_negamax_with_swapped_window (03_alphabeta), cell(s): none
# Mistake: none
# First wrong step: none
# Alternative (alphabeta_value, alphabeta_decision): alphabeta_value as negamax: each node's value is for its own player to move, a child moved by the other player is searched with the window (-beta, -alpha) and its value negated (one moved by the same player keeps the window and the sign); alphabeta_decision calls alphabeta_value on each child with the window (-inf, -best) and keeps the first strictly larger -value
# Checked: the visible tests of the release notebook under nbconvert (all pass); on the 16-leaf, 8-leaf, deep, shallow, tie, strict and mirror trees and on Tic-Tac-Toe after X corner/O centre, the same values, decisions and leaf traces (order included) as my MAX/MIN version, with the windows (13, 20), (4, 10), (0, 2) and the full one

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
    root = game.to_move(state)

    def negamax(s, alpha, beta):
        # the value of s for the player to move at s; utilities are read for the root player
        me = game.to_move(s)
        if game.is_terminal(s):
            u = game.utility(s, root)
            return u if me == root else -u
        best = -math.inf
        for a in game.actions(s):
            child = game.result(s, a)
            if game.to_move(child) == me:
                v = negamax(child, alpha, beta)
            else:
                v = -negamax(child, -beta, -alpha)
            best = max(best, v)
            if best >= beta:
                break
            alpha = max(alpha, best)
        return best

    return negamax(state, alpha, beta)

# %% alphabeta_decision
def alphabeta_decision(game, state):
    '''The first best action in `state` for the player to move, by alpha-beta search.'''
    me = game.to_move(state)
    choice, best = None, -math.inf
    for a in game.actions(state):
        child = game.result(state, a)
        if game.to_move(child) == me:
            v = alphabeta_value(game, child, best, math.inf)
        else:
            v = -alphabeta_value(game, child, -math.inf, -best)
        if choice is None or v > best:
            choice, best = a, v
    return choice
