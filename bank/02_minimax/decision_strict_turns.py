# ruff: noqa
# AIMA's MAX-VALUE and MIN-VALUE calling each other, explicit loops, no list comprehensions. The
# value asks to_move at every node (correct); the decision and quick_win_decision take turns by depth,
# which goes wrong where a player is skipped (Reversi(4, null_move=False) in test_decision).
# %% minimax_value
def max_value(game, state, player):
    if game.is_terminal(state):
        return game.utility(state, player)
    v = -math.inf
    for a in game.actions(state):
        s = game.result(state, a)
        v = max(v, min_value(game, s, player) if game.to_move(s) != player else max_value(game, s, player))
    return v


def min_value(game, state, player):
    if game.is_terminal(state):
        return game.utility(state, player)
    v = math.inf
    for a in game.actions(state):
        s = game.result(state, a)
        v = min(v, max_value(game, s, player) if game.to_move(s) == player else min_value(game, s, player))
    return v


def minimax_value(game, state):
    return max_value(game, state, game.to_move(state))

# %% minimax_decision
def minimax_decision(game, state):
    player = game.to_move(state)

    def max_v(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        v = -math.inf
        for a in game.actions(s):
            v = max(v, min_v(game.result(s, a)))
        return v

    def min_v(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        v = math.inf
        for a in game.actions(s):
            v = min(v, max_v(game.result(s, a)))
        return v

    best, best_value = None, -math.inf
    for a in game.actions(state):
        v = min_v(game.result(state, a))
        if best is None or v > best_value:
            best, best_value = a, v
    return best

# %% quick_win_decision
def quick_win_decision(game, state):
    player = game.to_move(state)

    def max_v(s, d):
        if game.is_terminal(s):
            return game.utility(s, player) * (10 - d)
        v = -math.inf
        for a in game.actions(s):
            v = max(v, min_v(game.result(s, a), d + 1))
        return v

    def min_v(s, d):
        if game.is_terminal(s):
            return game.utility(s, player) * (10 - d)
        v = math.inf
        for a in game.actions(s):
            v = min(v, max_v(game.result(s, a), d + 1))
        return v

    best, best_value = None, -math.inf
    for a in game.actions(state):
        v = min_v(game.result(state, a), 1)
        if best is None or v > best_value:
            best, best_value = a, v
    return best
