# ruff: noqa
# Bug: result() never hands the turn to the other player.
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
        legal = self.actions(state)
        if action not in legal:
            raise IllegalMoveError(action, legal)
        heap, count = action
        heaps = state.heaps[:heap] + (state.heaps[heap] - count,) + state.heaps[heap + 1:]
        return NimState(heaps, state.to_move)

    def is_terminal(self, state):
        return not any(state.heaps)

    def utility(self, state, player):
        return -1 if player == state.to_move else 1
