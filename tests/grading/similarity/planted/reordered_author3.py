# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    player = game.to_move(state)

    def v(node):
        # terminal: score it for the root player; otherwise the mover picks
        if game.is_terminal(node):
            return game.utility(node, player)
        pick = max if game.to_move(node) == player else min
        return pick(v(game.result(node, act)) for act in game.actions(node))

    return v(state)
# %% minimax_decision
def minimax_decision(game, state):
    """The first action, in actions() order, with the best minimax value for the player to move."""
    s = _Searcher(game, game.to_move(state))
    return max(game.actions(state), key=lambda act: s.worth(game.result(state, act)))


class _Searcher:
    def worth(self, node):
        g = self.game
        if g.is_terminal(node):
            return g.utility(node, self.player)
        kids = (self.worth(g.result(node, act)) for act in g.actions(node))
        return max(kids) if g.to_move(node) == self.player else min(kids)

    def __init__(self, game, player):
        self.game = game
        self.player = player
# %% quick_win_decision
def quick_win_decision(game, state):
    """Like minimax_decision, but a terminal state d plies below scores utility * (10 - d)."""
    player = game.to_move(state)

    def worth(node, depth):
        if game.is_terminal(node):
            return (10 - depth) * game.utility(node, player)
        kids = (worth(game.result(node, act), depth + 1) for act in game.actions(node))
        return max(kids) if game.to_move(node) == player else min(kids)

    return max(game.actions(state), key=lambda act: worth(game.result(state, act), 1))
