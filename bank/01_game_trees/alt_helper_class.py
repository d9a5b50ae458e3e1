# ruff: noqa
# Correct, another style: a frozen dataclass for the state, validation written out, and one
# helper class that walks a tree once and keeps every statistic.
# %% Nim
from dataclasses import dataclass


@dataclass(frozen=True)
class Position:
    heaps: tuple
    to_move: str


class Nim(Game):
    players = ("P1", "P2")

    def __init__(self, heaps):
        self.initial = Position(tuple(heaps), "P1")

    def to_move(self, state):
        return state.to_move

    def actions(self, state):
        return [(i, k) for i in range(len(state.heaps)) for k in range(1, state.heaps[i] + 1)]

    def result(self, state, action):
        ok = (isinstance(action, tuple) and len(action) == 2 and 0 <= action[0] < len(state.heaps)
              and 1 <= action[1] <= state.heaps[action[0]])
        if not ok:
            raise IllegalMoveError(action, self.actions(state), state)
        i, k = action
        heaps = tuple(h - k if j == i else h for j, h in enumerate(state.heaps))
        return Position(heaps, self.opponent(state.to_move))

    def is_terminal(self, state):
        return sum(state.heaps) == 0

    def utility(self, state, player):
        if not self.is_terminal(state):
            raise ValueError("the game is not over")
        return 1 if player != state.to_move else -1

# %% count_nodes
class TreeWalk:
    """Walks the full tree below a state once and keeps what it saw."""

    def __init__(self, game, state):
        self.game = game
        self.nodes = self.leaves = self.internal = self.children = self.depth = 0
        self.visit(state, 0)

    def visit(self, state, depth):
        self.nodes += 1
        self.depth = max(self.depth, depth)
        if self.game.is_terminal(state):
            self.leaves += 1
            return
        self.internal += 1
        for action in self.game.actions(state):
            self.children += 1
            self.visit(self.game.result(state, action), depth + 1)


def count_nodes(game, state):
    return TreeWalk(game, state).nodes

# %% tree_stats
def tree_stats(game, state):
    walk = TreeWalk(game, state)
    branching = walk.children / walk.internal if walk.internal else 0.0
    return TreeStats(depth=walk.depth, leaves=walk.leaves, branching=branching)
