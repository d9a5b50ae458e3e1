# Entry ok_recursive_everything (01_game_trees), cell(s): Nim, count_nodes, tree_stats
# Mistake: none: correct, in a different style (Nim with list comprehensions and an explicit legality test, recursive tree_stats returning a tuple)
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
        return [(i, k) for i, h in enumerate(state.heaps) for k in range(1, h + 1)]

    def result(self, state, action):
        i, k = action
        if not (0 <= i < len(state.heaps)) or not (1 <= k <= state.heaps[i]):
            raise IllegalMoveError(action, self.actions(state))
        new_heaps = state.heaps[:i] + (state.heaps[i] - k,) + state.heaps[i + 1:]
        return NimState(new_heaps, "P2" if state.to_move == "P1" else "P1")

    def is_terminal(self, state):
        return sum(state.heaps) == 0

    def utility(self, state, player):
        winner = self.opponent(state.to_move)  # the one who just moved took the last object
        return 1 if player == winner else -1

# %% count_nodes
def count_nodes(game, state):
    """The number of nodes of the full game tree below `state`, `state` itself included."""
    return 1 + sum(count_nodes(game, game.result(state, a)) for a in game.actions(state)) if not game.is_terminal(state) else 1

# %% tree_stats
def tree_stats(game, state):
    """TreeStats(depth, leaves, branching) of the full game tree below `state`."""
    def walk(s):
        # (depth, leaves, nodes, internal nodes)
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
    return TreeStats(depth, leaves, (nodes - 1) / internal if internal else 0.0)
