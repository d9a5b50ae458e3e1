# Entry count_nodes_distinct_states (01_game_trees), cell(s): count_nodes
# Mistake: keeps a set of the states already seen and counts each one once: it counts distinct positions, not the nodes of the tree (two move orders reaching the same position are two nodes)
# First wrong step: RaceTo(4, 2): the leaf total 4 with P2 to move, reached by the moves 1, 2, 1, was already counted via 1, 1, 2, so it counts 0 instead of 1 (the subtree after 1, 2 gets 1 instead of 2); the whole tree comes out 8 instead of 12
# Checked: count_nodes on RaceTo(4, 2) and on the tiny tree with this function and with my correct one (12 vs 8, 5 vs 5), printing the first state met a second time

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
        return all(size == 0 for size in state.heaps)

    def utility(self, state, player):
        # the player to move in a finished game did not take the last object
        return -1 if player == state.to_move else 1

# %% count_nodes
def count_nodes(game, state):
    """The number of nodes of the full game tree below `state`, `state` itself included."""
    seen = set()

    def visit(s):
        if s in seen:
            return 0
        seen.add(s)
        if game.is_terminal(s):
            return 1
        return 1 + sum(visit(game.result(s, a)) for a in game.actions(s))

    return visit(state)

# %% tree_stats
def tree_stats(game, state):
    """TreeStats(depth, leaves, branching) of the full game tree below `state`."""
    nodes = leaves = internal = 0

    def walk(s):
        nonlocal nodes, leaves, internal
        nodes += 1
        if game.is_terminal(s):
            leaves += 1
            return 0
        internal += 1
        return 1 + max(walk(game.result(s, a)) for a in game.actions(s))

    depth = walk(state)
    branching = (nodes - 1) / internal if internal else 0.0
    return TreeStats(depth, leaves, branching)
