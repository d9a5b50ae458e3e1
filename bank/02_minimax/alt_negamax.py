# ruff: noqa
# Correct, another style: negamax. Each node is valued for the player to move there, and a
# child's value changes sign when the turn passes to the other player.
# %% minimax_value
def negamax(game, s):
    if game.is_terminal(s):
        return game.utility(s, game.to_move(s))
    me = game.to_move(s)
    best = -math.inf
    for a in game.actions(s):
        child = game.result(s, a)
        v = negamax(game, child)
        best = max(best, v if game.to_move(child) == me else -v)
    return best


def minimax_value(game, state):
    return negamax(game, state)

# %% minimax_decision
def _negamax(game, s):
    if game.is_terminal(s):
        return game.utility(s, game.to_move(s))
    me = game.to_move(s)
    best = -math.inf
    for a in game.actions(s):
        child = game.result(s, a)
        v = _negamax(game, child)
        best = max(best, v if game.to_move(child) == me else -v)
    return best


def minimax_decision(game, state):
    me = game.to_move(state)
    best_action, best = None, -math.inf
    for a in game.actions(state):
        child = game.result(state, a)
        v = _negamax(game, child)
        v = v if game.to_move(child) == me else -v
        if v > best:
            best_action, best = a, v
    return best_action

# %% quick_win_decision
def quick_win_decision(game, state):
    def negamax_depth(s, depth):
        if game.is_terminal(s):
            return game.utility(s, game.to_move(s)) * (10 - depth)
        me = game.to_move(s)
        best = -math.inf
        for a in game.actions(s):
            child = game.result(s, a)
            v = negamax_depth(child, depth + 1)
            best = max(best, v if game.to_move(child) == me else -v)
        return best

    me = game.to_move(state)
    best_action, best = None, -math.inf
    for a in game.actions(state):
        child = game.result(state, a)
        v = negamax_depth(child, 1)
        v = v if game.to_move(child) == me else -v
        if v > best:
            best_action, best = a, v
    return best_action
