# ruff: noqa
# Bug: the actions are listed count by count (every heap's take of 1, then of 2, ...), not heap by heap.
# Heaps (1, 2) give the same list in either order; heaps (2, 1) do not.
# %% Nim
class Nim(Game):
    players = ("P1", "P2")

    def __init__(self, heaps):
        self.initial = NimState(tuple(heaps), "P1")

    def to_move(self, state):
        return state.to_move

    def actions(self, state):
        moves = []
        for count in range(1, max(state.heaps, default=0) + 1):
            for heap, size in enumerate(state.heaps):
                if count <= size:
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
