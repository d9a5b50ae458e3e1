# ruff: noqa
# Correct, another style: a generator of all the nodes (with their depth), used by both
# count_nodes and tree_stats; Nim's result builds the move's heaps with a comprehension.
# %% Nim
class Nim(Game):
    players = ("P1", "P2")

    def __init__(self, heaps):
        self.initial = NimState(tuple(heaps), "P1")

    def to_move(self, state):
        return state.to_move

    def actions(self, state):
        return [(i, k) for i, h in enumerate(state.heaps) for k in range(1, h + 1)]

    def result(self, state, action):
        legal = self.actions(state)
        if action not in legal:
            raise IllegalMoveError(action, legal, str(state))
        i, k = action
        return NimState(tuple(h - k * (j == i) for j, h in enumerate(state.heaps)),
                        self.players[1 - self.players.index(state.to_move)])

    def is_terminal(self, state):
        return all(h == 0 for h in state.heaps)

    def utility(self, state, player):
        return {True: -1, False: 1}[player == state.to_move]

# %% count_nodes
def all_nodes(game, state, depth=0):
    """Every node of the tree below `state` (itself first), with its depth."""
    yield state, depth
    if not game.is_terminal(state):
        for a in game.actions(state):
            yield from all_nodes(game, game.result(state, a), depth + 1)


def count_nodes(game, state):
    return sum(1 for _ in all_nodes(game, state))

# %% tree_stats
def tree_stats(game, state):
    depth = leaves = internal = children = 0
    for s, d in all_nodes(game, state):
        depth = max(depth, d)
        if game.is_terminal(s):
            leaves += 1
        else:
            internal += 1
            children += len(game.actions(s))
    return TreeStats(depth, leaves, children / internal if internal else 0.0)
