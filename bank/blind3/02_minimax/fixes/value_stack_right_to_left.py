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
