# ruff: noqa
# Correct, another shape: generator expressions, decisions with max(..., key=...) (which keeps
# the first of equal keys), and the depth-aware score as a tuple compared in order:
# (utility, -depth) for a win, (utility, depth) for a loss.
# %% minimax_value
def minimax_value(game, state):
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        pick = max if game.to_move(s) == player else min
        return pick(value(game.result(s, a)) for a in game.actions(s))

    return value(state)

# %% minimax_decision
def minimax_decision(game, state):
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        pick = max if game.to_move(s) == player else min
        return pick(value(game.result(s, a)) for a in game.actions(s))

    return max(game.actions(state), key=lambda a: value(game.result(state, a)))

# %% quick_win_decision
def quick_win_decision(game, state):
    player = game.to_move(state)

    def score(s, depth):
        if game.is_terminal(s):
            u = game.utility(s, player)
            return (u, -depth) if u > 0 else (u, depth) if u < 0 else (0, 0)
        pick = max if game.to_move(s) == player else min
        return pick(score(game.result(s, a), depth + 1) for a in game.actions(s))

    return max(game.actions(state), key=lambda a: score(game.result(state, a), 1))
