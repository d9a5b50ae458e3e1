# Entry ok_bfs_stats (01_game_trees), cell(s): tree_stats
# Mistake: none: correct, tree_stats walks the tree breadth-first with a deque and counts children directly
# First wrong step: none

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
        # the player to move did not take the last object, so they lost
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
from collections import deque


def tree_stats(game, state):
    """TreeStats(depth, leaves, branching) of the full game tree below `state`."""
    queue = deque([(state, 0)])
    depth = leaves = internal = children = 0
    while queue:
        s, d = queue.popleft()
        if game.is_terminal(s):
            leaves += 1
            depth = max(depth, d)
        else:
            internal += 1
            acts = game.actions(s)
            children += len(acts)
            queue.extend((game.result(s, a), d + 1) for a in acts)
    return TreeStats(depth, leaves, children / internal if internal else 0.0)
