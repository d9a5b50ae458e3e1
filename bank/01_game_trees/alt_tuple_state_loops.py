# ruff: noqa
# Correct, another style: plain (heaps, player) tuples as states, explicit loops, and
# count_nodes / tree_stats with a stack of their own instead of recursion; tree_stats
# returns a plain tuple.
# %% Nim
class Nim(Game):
    players = ("P1", "P2")

    def __init__(self, heaps):
        self.initial = (tuple(heaps), "P1")

    def to_move(self, state):
        heaps, player = state
        return player

    def actions(self, state):
        heaps, player = state
        moves = []
        for i in range(len(heaps)):
            count = 1
            while count <= heaps[i]:
                moves.append((i, count))
                count += 1
        return moves

    def result(self, state, action):
        heaps, player = state
        if action not in self.actions(state):
            raise self.illegal(state, action)
        i, count = action
        new = list(heaps)
        new[i] = new[i] - count
        return (tuple(new), "P2" if player == "P1" else "P1")

    def is_terminal(self, state):
        heaps, player = state
        for h in heaps:
            if h > 0:
                return False
        return True

    def utility(self, state, player):
        heaps, to_move = state
        if player == to_move:
            return -1
        return 1

# %% count_nodes
def count_nodes(game, state):
    count, stack = 0, [state]
    while stack:
        s = stack.pop()
        count += 1
        if not game.is_terminal(s):
            for a in game.actions(s):
                stack.append(game.result(s, a))
    return count

# %% tree_stats
def tree_stats(game, state):
    depth = leaves = internal = children = 0
    stack = [(state, 0)]
    while stack:
        s, d = stack.pop()
        if d > depth:
            depth = d
        if game.is_terminal(s):
            leaves += 1
            continue
        internal += 1
        for a in game.actions(s):
            children += 1
            stack.append((game.result(s, a), d + 1))
    if internal == 0:
        return (depth, leaves, 0.0)
    return (depth, leaves, children / internal)
