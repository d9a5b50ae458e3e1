"""Engine benchmark: student-style minimax over course_lib games vs bare strings.

The floor is the same recursive minimax written over plain 9-character strings, the
fastest thing a student would write. Both run in this process, interleaved, and the
best of several runs of each is compared.
"""

from __future__ import annotations

import time

from course_lib.games import ConnectFour, FoodGrid, Isolation, TicTacToe

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def floor_minimax(board: str, player: str, me: str) -> int:
    """Minimax over a bare board string: the floor."""
    for i, j, k in LINES:
        if board[i] != "." and board[i] == board[j] == board[k]:
            return 1 if board[i] == me else -1
    if "." not in board:
        return 0
    other = "O" if player == "X" else "X"
    values = [floor_minimax(board[:i] + player + board[i + 1:], other, me) for i in range(9) if board[i] == "."]
    return max(values) if player == me else min(values)


def game_minimax(game, state) -> int:
    """The same minimax through the Game interface, as a student writes it."""
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    return value(state)


def depth_limited_nodes(game, state, depth: int) -> int:
    """Nodes visited by a plain depth-limited minimax (value 0 at the cut-off)."""
    count = 0
    player = game.to_move(state)

    def value(s, d):
        nonlocal count
        count += 1
        if game.is_terminal(s):
            return game.utility(s, player)
        if d == 0:
            return 0
        values = [value(game.result(s, a), d - 1) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    value(state, depth)
    return count


def best_time(fn, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def run(repeats: int = 3) -> dict:
    """Measure and print; returns the numbers."""
    game = TicTacToe()
    floor = ours = float("inf")
    for _ in range(repeats):  # interleaved, so load on the machine hits both alike
        floor = min(floor, best_time(lambda: floor_minimax("." * 9, "X", "X"), 1))
        ours = min(ours, best_time(lambda: game_minimax(game, game.initial), 1))
    ratio = ours / floor
    print("Full minimax of Tic-Tac-Toe from the empty board (549,946 nodes), best of", repeats)
    print(f"  bare strings (floor)        {floor:6.2f} s")
    print(f"  course_lib.games.TicTacToe  {ours:6.2f} s")
    print(f"  ratio                       {ratio:6.2f}x   (target <= 1.5x)")
    rates = {}
    print("Nodes per second, plain depth-limited minimax:")
    board = "5 5\n#####\n##* #\n##A*#\n# B##\n#####"
    cases = [
        ("ConnectFour 4x4, depth 7", ConnectFour(4, 4), None, 7),
        ("Isolation 5x5 (corners), depth 4", Isolation(start=((0, 0), (4, 4))), None, 4),
        ("FoodGrid 5x5, depth 9", FoodGrid(board), None, 9),
    ]
    for name, g, state, depth in cases:
        state = g.initial if state is None else state
        start = time.perf_counter()
        nodes = depth_limited_nodes(g, state, depth)
        seconds = time.perf_counter() - start
        rates[name] = nodes / seconds
        print(f"  {name:34s} {nodes:9,d} nodes  {rates[name]:10,.0f} nodes/s")
    return {"floor": floor, "ours": ours, "ratio": ratio, "rates": rates}


if __name__ == "__main__":
    run()
