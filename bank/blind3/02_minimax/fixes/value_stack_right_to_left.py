# fix: the message says a search makes one child at a time in actions() order and searches it before the next, and that mine made all children at once (popping them right to left) and then made them a second time with result(), so the stack now makes each child once, when it is about to be searched, and collects its value for the parent.
# clear: partly
# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    player = game.to_move(state)
    done = object()
    stack = [(state, None, [])]  # (state, its remaining actions, values of the children searched so far)
    while stack:
        s, todo, kids = stack[-1]
        if todo is None:
            if game.is_terminal(s):
                stack.pop()
                v = game.utility(s, player)
                if not stack:
                    return v
                stack[-1][2].append(v)
                continue
            todo = iter(game.actions(s))
            stack[-1] = (s, todo, kids)
        a = next(todo, done)
        if a is not done:
            stack.append((game.result(s, a), None, []))
            continue
        stack.pop()
        v = max(kids) if game.to_move(s) == player else min(kids)
        if not stack:
            return v
        stack[-1][2].append(v)

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
