# fix: the message says result(state, (-1, 1)) was accepted because a negative index reaches the last heap, so result() now also rejects heap < 0.
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
        heap, count = action
        if heap < 0 or heap >= len(state.heaps) or count < 1 or count > state.heaps[heap]:
            raise IllegalMoveError(action, self.actions(state))
        heaps = list(state.heaps)
        heaps[heap] -= count
        return NimState(tuple(heaps), self.opponent(state.to_move))

    def is_terminal(self, state):
        return all(size == 0 for size in state.heaps)

    def utility(self, state, player):

        return -1 if player == state.to_move else 1
