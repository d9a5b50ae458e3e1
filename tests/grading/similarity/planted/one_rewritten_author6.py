# %% minimax_value
import operator


def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    owner = game.to_move(state)
    chooser = {True: operator.gt, False: operator.lt}

    def walk(here):
        """Back the leaves' utilities up to `here`."""
        if game.is_terminal(here):
            return game.utility(here, owner)
        better = chooser[game.to_move(here) == owner]
        result = None
        for step in game.actions(here):
            below = walk(game.result(here, step))
            result = below if result is None or better(below, result) else result
        return result

    return walk(state)
# %% minimax_decision
def minimax_decision(game, state):
    """The first action, in actions() order, with the best minimax value for the player to move."""
    owner = game.to_move(state)

    def walk(here):
        if game.is_terminal(here):
            return game.utility(here, owner)
        outcomes = map(lambda step: walk(game.result(here, step)), game.actions(here))
        return (max if game.to_move(here) == owner else min)(outcomes)

    ranked = sorted(enumerate(game.actions(state)),
                    key=lambda pair: (-walk(game.result(state, pair[1])), pair[0]))
    return ranked[0][1]
# %% quick_win_decision
def quick_win_decision(game, state):
    """Like minimax_decision, but a terminal state d plies below scores utility * (10 - d)."""
    me = game.to_move(state)
    best, best_score = None, None
    for action in game.actions(state):
        frontier = [(game.result(state, action), 1)]
        score = _fast_value(game, me, *frontier[0])
        if best_score is None or score > best_score:
            best, best_score = action, score
    return best


def _fast_value(game, me, node, depth):
    if game.is_terminal(node):
        return game.utility(node, me) * (10 - depth)
    values = [_fast_value(game, me, game.result(node, a), depth + 1) for a in game.actions(node)]
    if game.to_move(node) == me:
        return max(values)
    return min(values)
