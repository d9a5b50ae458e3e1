# %% Nim
class Nim(Game):
    """Nim: take any positive number of objects from one heap; taking the last object wins.

    Actions are (heap, count) pairs: heaps left to right, then count = 1, 2, ... up to the heap.
    """

    players = ("P1", "P2")

    def __init__(self, heaps):
        self.initial = NimState(tuple(heaps), "P1")

    def to_move(self, state):
        return state.to_move

    def actions(self, state):
        return [(heap, count) for heap, size in enumerate(state.heaps) for count in range(1, size + 1)]

    def result(self, state, action):
        legal = self.actions(state)
        if action not in legal:
            raise IllegalMoveError(action, legal)
        heap, count = action
        heaps = state.heaps[:heap] + (state.heaps[heap] - count,) + state.heaps[heap + 1:]
        return NimState(heaps, self.opponent(state.to_move))

    def is_terminal(self, state):
        return not any(state.heaps)

    def utility(self, state, player):
        if not self.is_terminal(state):
            raise self.not_terminal(state)
        return -1 if player == state.to_move else 1

# %% count_nodes
def count_nodes(game, state):
    """The number of nodes of the full game tree below `state`, `state` itself included."""
    if game.is_terminal(state):
        return 1
    return 1 + sum(count_nodes(game, game.result(state, action)) for action in game.actions(state))

# %% tree_stats
def tree_stats(game, state):
    """TreeStats(depth, leaves, branching) of the full game tree below `state`."""
    def walk(s):
        # (depth, leaves, internal nodes, children of internal nodes) of the tree below s
        if game.is_terminal(s):
            return 0, 1, 0, 0
        actions = game.actions(s)
        depth, leaves, internal, children = 0, 0, 1, len(actions)
        for action in actions:
            d, l, i, c = walk(game.result(s, action))
            depth, leaves, internal, children = max(depth, d + 1), leaves + l, internal + i, children + c
        return depth, leaves, internal, children

    depth, leaves, internal, children = walk(state)
    return TreeStats(depth, leaves, children / internal if internal else 0.0)

while True:
    pass

