# Entry ok_stack_walks (01_game_trees), cell(s): none
# Mistake: none
# First wrong step: none

# %% Nim
class Nim(Game):
    """Nim, with the legality check written out by hand."""

    players = ("P1", "P2")

    def __init__(self, heaps):
        self.initial = NimState(tuple(heaps), "P1")

    def to_move(self, state):
        return state.to_move

    def actions(self, state):
        return [(h, c) for h in range(len(state.heaps)) for c in range(1, state.heaps[h] + 1)]

    def result(self, state, action):
        try:
            heap, count = action
        except (TypeError, ValueError):
            raise IllegalMoveError(action, self.actions(state), str(state)) from None
        if not (isinstance(heap, int) and 0 <= heap < len(state.heaps)) or not (1 <= count <= state.heaps[heap]):
            raise IllegalMoveError(action, self.actions(state), str(state))
        new = state.heaps[:heap] + (state.heaps[heap] - count,) + state.heaps[heap + 1:]
        return NimState(new, "P2" if state.to_move == "P1" else "P1")

    def is_terminal(self, state):
        return sum(state.heaps) == 0

    def utility(self, state, player):
        if not self.is_terminal(state):
            raise ValueError("utility of a game that is not over")
        winner = self.opponent(state.to_move)
        return 1 if player == winner else -1

# %% count_nodes
def count_nodes(game, state):
    """The number of nodes of the full game tree below `state`, `state` itself included."""
    total = 0
    stack = [state]
    while stack:
        s = stack.pop()
        total += 1
        if not game.is_terminal(s):
            for a in game.actions(s):
                stack.append(game.result(s, a))
    return total

# %% tree_stats
def tree_stats(game, state):
    """TreeStats(depth, leaves, branching) of the full game tree below `state`."""
    depth = leaves = children = internal = 0
    frontier = [(state, 0)]
    while frontier:
        s, d = frontier.pop()
        depth = max(depth, d)
        if game.is_terminal(s):
            leaves += 1
            continue
        internal += 1
        for a in game.actions(s):
            children += 1
            frontier.append((game.result(s, a), d + 1))
    return TreeStats(depth, leaves, children / internal if internal else 0.0)
