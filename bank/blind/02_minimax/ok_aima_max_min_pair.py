# Entry ok_aima_max_min_pair (02_minimax), cell(s): minimax_value, minimax_decision, quick_win_decision
# Mistake: none: correct, written as AIMA's MAX-VALUE / MIN-VALUE pair of functions with the root player passed along
# First wrong step: none

# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    player = game.to_move(state)
    return _max_or_min(game, state, player)


def _max_or_min(game, s, player):
    if game.is_terminal(s):
        return game.utility(s, player)
    if game.to_move(s) == player:
        return _max_value(game, s, player)
    return _min_value(game, s, player)


def _max_value(game, s, player):
    v = -math.inf
    for a in game.actions(s):
        v = max(v, _max_or_min(game, game.result(s, a), player))
    return v


def _min_value(game, s, player):
    v = math.inf
    for a in game.actions(s):
        v = min(v, _max_or_min(game, game.result(s, a), player))
    return v

# %% minimax_decision
def minimax_decision(game, state):
    """The first action, in actions() order, with the best minimax value for the player to move."""
    player = game.to_move(state)

    def val(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        results = [val(game.result(s, a)) for a in game.actions(s)]
        return max(results) if game.to_move(s) == player else min(results)

    actions = game.actions(state)
    scores = [val(game.result(state, a)) for a in actions]
    return actions[scores.index(max(scores))]

# %% quick_win_decision
def quick_win_decision(game, state):
    """Like minimax_decision, but a terminal state d plies below scores utility * (10 - d)."""
    player = game.to_move(state)

    def val(s, depth):
        if game.is_terminal(s):
            u = game.utility(s, player)
            if u > 0:
                return 10 - depth
            if u < 0:
                return depth - 10
            return 0
        results = [val(game.result(s, a), depth + 1) for a in game.actions(s)]
        return max(results) if game.to_move(s) == player else min(results)

    actions = game.actions(state)
    scores = [val(game.result(state, a), 1) for a in actions]
    return actions[scores.index(max(scores))]
