# Entry ok_stack_walk_and_comprehensions (01_game_trees), cell(s): none
# Mistake: none
# First wrong step: none
# Alternative (Nim, count_nodes, tree_stats): Nim's actions as one comprehension and result checking the move by hand; count_nodes and tree_stats walk the tree with an explicit stack instead of recursion
# Checked: the visible tests of the release notebook (all pass); count_nodes on Tic-Tac-Toe from the empty board gives 549,946; tree_stats equal to my recursive version on RaceTo(10, 3), Nim((1, 2, 3)), Isolation 3x3 from corners and Tic-Tac-Toe after centre/corner

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
        return [(h, c) for h in range(len(state.heaps)) for c in range(1, state.heaps[h] + 1)]

    def result(self, state, action):
        try:
            heap, count = action
            ok = 0 <= heap < len(state.heaps) and 1 <= count <= state.heaps[heap]
        except (TypeError, ValueError):
            ok = False
        if not ok:
            raise IllegalMoveError(action, self.actions(state))
        heaps = state.heaps[:heap] + (state.heaps[heap] - count,) + state.heaps[heap + 1:]
        return NimState(heaps, "P2" if state.to_move == "P1" else "P1")

    def is_terminal(self, state):
        return sum(state.heaps) == 0

    def utility(self, state, player):
        winner = self.opponent(state.to_move)  # who took the last object
        return 1 if player == winner else -1

# %% count_nodes
def count_nodes(game, state):
    """The number of nodes of the full game tree below `state`, `state` itself included."""
    total, stack = 0, [state]
    while stack:
        s = stack.pop()
        total += 1
        if not game.is_terminal(s):
            stack.extend(game.result(s, a) for a in game.actions(s))
    return total

# %% tree_stats
def tree_stats(game, state):
    """TreeStats(depth, leaves, branching) of the full game tree below `state`."""
    depth = leaves = internal = children = 0
    stack = [(state, 0)]
    while stack:
        s, d = stack.pop()
        depth = max(depth, d)
        if game.is_terminal(s):
            leaves += 1
            continue
        kids = [game.result(s, a) for a in game.actions(s)]
        internal += 1
        children += len(kids)
        stack.extend((k, d + 1) for k in kids)
    return TreeStats(depth, leaves, children / internal if internal else 0.0)
