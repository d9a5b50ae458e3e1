# Entry ok_dispatch_and_stack (06_beyond_two_players), cell(s): none
# Mistake: none
# First wrong step: none

# %% expectimax_value
def expectimax_value(game, state):
    """Expectimax written as three small functions dispatched on the kind of node."""
    root = game.to_move(state)

    def chance_value(s):
        total = 0.0
        for face, p in game.outcomes(s):
            total += p * node_value(game.result(s, face))
        return total

    def player_value(s):
        children = (node_value(game.result(s, a)) for a in game.actions(s))
        return max(children) if game.to_move(s) == root else min(children)

    def node_value(s):
        if game.is_terminal(s):
            return game.utility(s, root)
        return chance_value(s) if game.to_move(s) == CHANCE else player_value(s)

    return node_value(state)

# %% maxn_value
def maxn_value(game, state):
    """max^n with an explicit stack of frames instead of recursion."""
    stack = [[state, list(game.actions(state)) if not game.is_terminal(state) else [], None]]
    result = None
    while stack:
        frame = stack[-1]
        s, todo, best = frame
        if game.is_terminal(s):
            result = tuple(game.utilities(s))
            stack.pop()
        elif result is not None:
            i = game.players.index(game.to_move(s))
            if best is None or result[i] > best[i]:
                frame[2] = best = result
            result = None
            continue
        elif todo:
            child = game.result(s, todo.pop(0))
            stack.append([child, [] if game.is_terminal(child) else list(game.actions(child)), None])
            continue
        else:
            result = best
            stack.pop()
        if not stack:
            return result
    return result

# %% maxn_shallow_value
def maxn_shallow_value(game, state, max_sum):
    """max^n with shallow pruning, for nonnegative utilities that sum to at most `max_sum`."""

    def search(s, bound, parent_player):
        if game.is_terminal(s):
            return tuple(game.utilities(s))
        me = game.to_move(s)
        j = game.players.index(me)
        best = None
        for a in game.actions(s):
            v = search(game.result(s, a), None if best is None else best[j], me)
            if best is None or v[j] > best[j]:
                best = v
            if bound is not None and parent_player != me and best[j] >= max_sum - bound:
                return best
        return best

    return search(state, None, None)
