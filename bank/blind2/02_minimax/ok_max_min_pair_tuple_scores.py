# Entry ok_max_min_pair_tuple_scores (02_minimax), cell(s): none
# Mistake: none
# First wrong step: none

# %% minimax_value
def minimax_value(game, state):
    """AIMA's MAX-VALUE / MIN-VALUE pair."""
    player = game.to_move(state)

    def max_value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        v = -math.inf
        for a in game.actions(s):
            c = game.result(s, a)
            v = max(v, max_value(c) if game.to_move(c) == player else min_value(c))
        return v

    def min_value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        v = math.inf
        for a in game.actions(s):
            c = game.result(s, a)
            v = min(v, max_value(c) if game.to_move(c) == player else min_value(c))
        return v

    return max_value(state)

# %% minimax_decision
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

# %% quick_win_decision
def quick_win_decision(game, state):
    """Scores a win 'win sooner > win later > draw > lose later > lose sooner' as (utility, -d or +d)."""
    player = game.to_move(state)

    def score(s, d):
        if game.is_terminal(s):
            u = game.utility(s, player)
            return (u, -d if u > 0 else (d if u < 0 else 0))
        scores = [score(game.result(s, a), d + 1) for a in game.actions(s)]
        return max(scores) if game.to_move(s) == player else min(scores)

    actions = game.actions(state)
    scores = [score(game.result(state, a), 1) for a in actions]
    return actions[scores.index(max(scores))]
