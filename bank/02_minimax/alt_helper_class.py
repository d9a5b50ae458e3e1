# ruff: noqa
# Correct, another style: a small searcher class that remembers the root player and scores
# leaves with a method; the depth-aware decision is a subclass that only changes the score.
# %% minimax_value
class Searcher:
    def __init__(self, game, state):
        self.game, self.root = game, state
        self.player = game.to_move(state)

    def leaf_score(self, s, depth):
        return self.game.utility(s, self.player)

    def value(self, s, depth=0):
        if self.game.is_terminal(s):
            return self.leaf_score(s, depth)
        children = [self.value(self.game.result(s, a), depth + 1) for a in self.game.actions(s)]
        return max(children) if self.game.to_move(s) == self.player else min(children)

    def decision(self):
        scored = [(a, self.value(self.game.result(self.root, a), 1)) for a in self.game.actions(self.root)]
        best = max(v for _, v in scored)
        return next(a for a, v in scored if v == best)


def minimax_value(game, state):
    return Searcher(game, state).value(state)

# %% minimax_decision
class DecisionSearcher:
    def __init__(self, game, state):
        self.game, self.root = game, state
        self.player = game.to_move(state)

    def value(self, s):
        if self.game.is_terminal(s):
            return self.game.utility(s, self.player)
        children = [self.value(self.game.result(s, a)) for a in self.game.actions(s)]
        return max(children) if self.game.to_move(s) == self.player else min(children)

    def best(self):
        scored = [(a, self.value(self.game.result(self.root, a))) for a in self.game.actions(self.root)]
        top = max(v for _, v in scored)
        return next(a for a, v in scored if v == top)


def minimax_decision(game, state):
    return DecisionSearcher(game, state).best()

# %% quick_win_decision
class QuickSearcher:
    def __init__(self, game, state):
        self.game, self.root = game, state
        self.player = game.to_move(state)

    def score(self, s, depth):
        if self.game.is_terminal(s):
            return self.game.utility(s, self.player) * (10 - depth)
        children = [self.score(self.game.result(s, a), depth + 1) for a in self.game.actions(s)]
        return max(children) if self.game.to_move(s) == self.player else min(children)


def quick_win_decision(game, state):
    q = QuickSearcher(game, state)
    scored = [(a, q.score(game.result(state, a), 1)) for a in game.actions(state)]
    top = max(v for _, v in scored)
    return next(a for a, v in scored if v == top)
