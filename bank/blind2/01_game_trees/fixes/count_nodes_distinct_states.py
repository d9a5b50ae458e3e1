# fix: the message said a state reached by two move orders is two nodes of the tree and must be walked below each time; I dropped the seen-set check and count every node visited (seen is now a list).
# clear: yes
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
        moves = []
        for heap, size in enumerate(state.heaps):
            for count in range(1, size + 1):
                moves.append((heap, count))
        return moves

    def result(self, state, action):
        legal = self.actions(state)
        if action not in legal:
            raise IllegalMoveError(action, legal, str(state))
        heap, count = action
        heaps = list(state.heaps)
        heaps[heap] -= count
        return NimState(tuple(heaps), self.opponent(state.to_move))

    def is_terminal(self, state):
        return all(size == 0 for size in state.heaps)

    def utility(self, state, player):

        return -1 if player == state.to_move else 1

# %% count_nodes
def count_nodes(game, state):
    """The number of nodes of the full game tree below `state`, `state` itself included."""
    seen = []

    def visit(s):
        seen.append(s)
        if not game.is_terminal(s):
            for a in game.actions(s):
                visit(game.result(s, a))

    visit(state)
    return len(seen)

# %% tree_stats
def tree_stats(game, state):
    """TreeStats(depth, leaves, branching) of the full game tree below `state`."""

    def walk(s):

        if game.is_terminal(s):
            return 0, 1, 1, 0
        depth, leaves, nodes, internal = 0, 0, 1, 1
        for a in game.actions(s):
            d, l, n, i = walk(game.result(s, a))
            depth = max(depth, d + 1)
            leaves += l
            nodes += n
            internal += i
        return depth, leaves, nodes, internal

    depth, leaves, nodes, internal = walk(state)
    branching = (nodes - 1) / internal if internal else 0.0
    return TreeStats(depth, leaves, float(branching))
