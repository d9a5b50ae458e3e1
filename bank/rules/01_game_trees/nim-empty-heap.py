# Breaks "An empty heap has no action": the inner loop is a do-while (append, then test), so an empty heap
# still offers (heap, 1). result() still rejects that move.
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
            count = 1
            while True:
                moves.append((heap, count))
                if count >= size:
                    break
                count += 1
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
        return NimState(tuple(heaps), self.opponent(state.to_move))

    def is_terminal(self, state):
        return all(size == 0 for size in state.heaps)

    def utility(self, state, player):
        if not self.is_terminal(state):
            raise self.not_terminal(state)
        # the player to move did not take the last object: they lost
        return -1 if player == state.to_move else 1
