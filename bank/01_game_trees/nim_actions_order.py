# ruff: noqa
# Bug: the biggest takes come first (counts in decreasing order), not the documented order.
# %% Nim
class Nim(Game):
    players = ("P1", "P2")

    def __init__(self, heaps):
        self.initial = NimState(tuple(heaps), "P1")

    def to_move(self, state):
        return state.to_move

    def actions(self, state):
        moves = []
        for heap, size in enumerate(state.heaps):
            for count in range(size, 0, -1):
                moves.append((heap, count))
        return moves

    def result(self, state, action):
        legal = self.actions(state)
        if action not in legal:
            raise IllegalMoveError(action, legal)
        heap, count = action
        heaps = state.heaps[:heap] + (state.heaps[heap] - count,) + state.heaps[heap + 1:]
        return NimState(heaps, self.opponent(state.to_move))

    def is_terminal(self, state):
        return not any(state.heaps)

    def utility(self, state, player):
        return -1 if player == state.to_move else 1
