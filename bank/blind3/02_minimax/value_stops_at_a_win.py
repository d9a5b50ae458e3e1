# Entry value_stops_at_a_win (02_minimax), cell(s): minimax_value
# Mistake: a MAX node returns as soon as a child is worth 1 or more, and a MIN node as soon as one is worth -1 or less, as if no utility could pass 1 (true in Tic-Tac-Toe, false in trees with other leaf values): both the values and the leaves visited change
# First wrong step: 8-leaf tree [3 5 2 9 12 5 23 24]: the first MAX node P1.1 stops after its first leaf L.0 = 3 and returns 3 instead of max(3, 5) = 5 (leaf L.1 is never evaluated); P1.2 stops at L.2 = 2, and the root stops at its first child, worth 2: the value is 2 instead of 12, with 2 leaves evaluated instead of 8
# Checked: the 8-leaf tree with a Traced game, comparing the leaves evaluated and the value of P1.1 with my correct minimax_value

# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        if game.to_move(s) == player:
            best = -math.inf
            for a in game.actions(s):
                best = max(best, value(game.result(s, a)))
                if best >= 1:  # a win: nothing can beat it
                    return best
            return best
        worst = math.inf
        for a in game.actions(s):
            worst = min(worst, value(game.result(s, a)))
            if worst <= -1:  # a loss: nothing can be worse
                return worst
        return worst

    return value(state)

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
    """Like minimax_decision, but a terminal state d plies below scores utility * (10 - d)."""
    player = game.to_move(state)

    def value(s, d):
        if game.is_terminal(s):
            return game.utility(s, player) * (10 - d)
        values = [value(game.result(s, a), d + 1) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    best_action, best_value = None, -math.inf
    for a in game.actions(state):
        v = value(game.result(state, a), 1)
        if v > best_value:
            best_action, best_value = a, v
    return best_action
