# ruff: noqa
# Correct, another style: small separate recursive functions, one per statistic, and Nim
# rules checked one by one with explicit messages through self.illegal.
# %% Nim
class Nim(Game):
    players = ("P1", "P2")

    def __init__(self, heaps):
        self.initial = NimState(tuple(heaps), "P1")

    def to_move(self, state):
        return state.to_move

    def actions(self, state):
        out = []
        for heap, size in enumerate(state.heaps):
            out.extend((heap, count) for count in range(1, size + 1))
        return out

    def result(self, state, action):
        heap, count = action
        if not 0 <= heap < len(state.heaps):
            raise self.illegal(state, action)
        if count < 1 or count > state.heaps[heap]:
            raise self.illegal(state, action)
        heaps = list(state.heaps)
        heaps[heap] -= count
        other = "P2" if state.to_move == "P1" else "P1"
        return NimState(tuple(heaps), other)

    def is_terminal(self, state):
        return max(state.heaps, default=0) == 0

    def utility(self, state, player):
        winner = "P2" if state.to_move == "P1" else "P1"
        return 1 if player == winner else -1

# %% count_nodes
def count_nodes(game, state):
    children = [] if game.is_terminal(state) else [game.result(state, a) for a in game.actions(state)]
    return 1 + sum(count_nodes(game, child) for child in children)

# %% tree_stats
def _children(game, state):
    return [] if game.is_terminal(state) else [game.result(state, a) for a in game.actions(state)]


def _depth(game, state):
    kids = _children(game, state)
    return 0 if not kids else 1 + max(_depth(game, k) for k in kids)


def _leaves(game, state):
    kids = _children(game, state)
    return 1 if not kids else sum(_leaves(game, k) for k in kids)


def tree_stats(game, state):
    nodes = count_nodes(game, state)
    leaves = _leaves(game, state)
    internal = nodes - leaves
    return TreeStats(_depth(game, state), leaves, (nodes - 1) / internal if internal else 0.0)
