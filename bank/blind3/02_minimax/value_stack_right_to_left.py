# Entry value_stack_right_to_left (02_minimax), cell(s): minimax_value
# Mistake: an explicit stack instead of recursion: children are pushed in actions() order and popped last-first, so the tree is searched right to left (the values are right, the order of the leaves is reversed)
# First wrong step: 16-leaf tree: the first leaf evaluated is L.15 (3) instead of L.0 (7), then L.14, L.13...; the root value is still 7
# Checked: Traced(sixteen) with this function and with mine, comparing the first utility call (L.15 against L.0)

# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    player = game.to_move(state)
    values = {}
    stack = [(state, False)]
    while stack:
        s, expanded = stack.pop()
        if game.is_terminal(s):
            values[s] = game.utility(s, player)
        elif not expanded:
            stack.append((s, True))
            for a in game.actions(s):
                stack.append((game.result(s, a), False))
        else:
            kids = [values[game.result(s, a)] for a in game.actions(s)]
            values[s] = max(kids) if game.to_move(s) == player else min(kids)
    return values[state]

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
