# Entry ok_three_recursions (01_game_trees), cell(s): none
# Mistake: none
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
            raise IllegalMoveError(action, legal, str(state))
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
    n = 1
    if not game.is_terminal(state):
        for action in game.actions(state):
            child = game.result(state, action)
            n += count_nodes(game, child)
    return n

# %% tree_stats
def _depth(game, s):
    if game.is_terminal(s):
        return 0
    return 1 + max(_depth(game, game.result(s, a)) for a in game.actions(s))


def _leaves(game, s):
    if game.is_terminal(s):
        return 1
    return sum(_leaves(game, game.result(s, a)) for a in game.actions(s))


def _internal(game, s):
    if game.is_terminal(s):
        return 0
    return 1 + sum(_internal(game, game.result(s, a)) for a in game.actions(s))


def tree_stats(game, state):
    """TreeStats(depth, leaves, branching), in three separate walks."""
    internal = _internal(game, state)
    if internal == 0:
        return TreeStats(0, 1, 0.0)
    nodes = count_nodes(game, state)
    return TreeStats(_depth(game, state), _leaves(game, state), (nodes - 1) / internal)
