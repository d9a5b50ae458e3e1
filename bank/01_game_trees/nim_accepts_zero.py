# ruff: noqa
# Bug: result() only checks that the heap holds enough objects, so taking 0 (or a negative
# number, or heap -1) goes through.
# %% Nim
class Nim(Game):
    players = ("P1", "P2")

    def __init__(self, heaps):
        self.initial = NimState(tuple(heaps), "P1")

    def to_move(self, state):
        return state.to_move

    def actions(self, state):
        return [(heap, count) for heap, size in enumerate(state.heaps) for count in range(1, size + 1)]

    def result(self, state, action):
        heap, count = action
        if heap >= len(state.heaps) or count > state.heaps[heap]:
            raise IllegalMoveError(action, self.actions(state))
        heaps = list(state.heaps)
        heaps[heap] -= count
        return NimState(tuple(heaps), self.opponent(state.to_move))

    def is_terminal(self, state):
        return not any(state.heaps)

    def utility(self, state, player):
        return -1 if player == state.to_move else 1
