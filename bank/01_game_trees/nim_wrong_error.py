# ruff: noqa
# Bug: illegal moves raise a bare ValueError that does not name the move.
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
        if action not in self.actions(state):
            raise ValueError("that move is not allowed")
        heap, count = action
        heaps = state.heaps[:heap] + (state.heaps[heap] - count,) + state.heaps[heap + 1:]
        return NimState(heaps, self.opponent(state.to_move))

    def is_terminal(self, state):
        return not any(state.heaps)

    def utility(self, state, player):
        return -1 if player == state.to_move else 1
