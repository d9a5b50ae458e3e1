# fix: the message says the game is over only when every heap is empty, but mine ended when any heap was empty; is_terminal now checks all heaps are 0.
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
            raise IllegalMoveError(action, legal)
        heap, count = action
        heaps = list(state.heaps)
        heaps[heap] -= count
        return NimState(tuple(heaps), self.opponent(state.to_move))

    def is_terminal(self, state):
        return all(h == 0 for h in state.heaps)

    def utility(self, state, player):

        if state.to_move == player:
            return -1
        return 1

# %% count_nodes
def count_nodes(game, state):
    """The number of nodes of the full game tree below `state`, `state` itself included."""
    if game.is_terminal(state):
        return 1
    total = 1
    for action in game.actions(state):
        total += count_nodes(game, game.result(state, action))
    return total

# %% tree_stats
def tree_stats(game, state):
    """TreeStats(depth, leaves, branching) of the full game tree below `state`."""
    nodes = 0
    internal = 0
    leaves = 0
    max_depth = 0
    stack = [(state, 0)]
    while stack:
        s, d = stack.pop()
        nodes += 1
        if game.is_terminal(s):
            leaves += 1
            max_depth = max(max_depth, d)
            continue
        internal += 1
        for a in game.actions(s):
            stack.append((game.result(s, a), d + 1))
    branching = (nodes - 1) / internal if internal else 0.0
    return TreeStats(max_depth, leaves, float(branching))
