# Breaks "States are immutable and hashable": result copies the heaps into a new list and forgets to turn it
# back into a tuple, so every state after a move holds a list (the given state is not changed).
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
        if not (isinstance(heap, int) and 0 <= heap < len(state.heaps)):
            raise IllegalMoveError(action, self.actions(state), str(state))  # no such heap
        if state.heaps[heap] == 0:
            raise IllegalMoveError(action, self.actions(state), str(state))  # empty heap
        if count < 1:
            raise IllegalMoveError(action, self.actions(state), str(state))  # takes nothing
        if count > state.heaps[heap]:
            raise IllegalMoveError(action, self.actions(state), str(state))  # more than the heap holds
        heaps = list(state.heaps)
        heaps[heap] -= count
        return NimState(heaps, self.opponent(state.to_move))

    def is_terminal(self, state):
        return all(size == 0 for size in state.heaps)

    def utility(self, state, player):
        if not self.is_terminal(state):
            raise self.not_terminal(state)
        # the player to move did not take the last object: they lost
        return -1 if player == state.to_move else 1
