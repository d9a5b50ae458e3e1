"""Example figures for the README and the docs, each drawn from the trace of a real search.

``python -m coursetools figures docs/figures`` (or ``make figures``) writes them. The
searches are the grader's reference searches (`coursetools.checks.reference`) plus a
depth-limited variant kept here; `course_lib` itself ships no search.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Callable

from course_lib import learning
from course_lib.ascii import ascii_tree
from course_lib.charts import nodes_by_depth, ordering_bars
from course_lib.draw import draw_tree
from course_lib.games import GameTree, TicTacToe
from course_lib.trace import Traced

from coursetools.checks.reference import alphabeta_value

SIXTEEN_LEAVES = [7, 6, 2, 8, 8, 7, 1, 3, 0, 7, 7, 8, 8, 8, 2, 3]
EIGHT_LEAVES = [3, 5, 2, 9, 12, 5, 23, 24]


class CentreFirst:
    """TicTacToe with its actions ordered centre, then corners, then edges (row-major within each group)."""

    def __init__(self, game: TicTacToe):
        self.game = game
        self.initial, self.players = game.initial, game.players
        mid_r, mid_c = (game.rows - 1) / 2, (game.cols - 1) / 2
        corners = {(0, 0), (0, game.cols - 1), (game.rows - 1, 0), (game.rows - 1, game.cols - 1)}
        self._rank = {(r, c): (0 if (r, c) == (mid_r, mid_c) else 1 if (r, c) in corners else 2, r, c)
                      for r in range(game.rows) for c in range(game.cols)}

    def actions(self, state: Any) -> list:
        return sorted(self.game.actions(state), key=self._rank.__getitem__)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)


def cut_off_search(game: Any, state: Any, depth: int, pruning: bool) -> float:
    """Depth-limited minimax (or fail-soft alpha-beta with `pruning`); a cut-off position is worth 0."""
    player = game.to_move(state)

    def value(s: Any, d: int, alpha: float, beta: float) -> float:
        if game.is_terminal(s):
            return game.utility(s, player)
        if d == 0:
            return 0
        maximise = game.to_move(s) == player
        v = -math.inf if maximise else math.inf
        for a in game.actions(s):
            w = value(game.result(s, a), d - 1, alpha, beta)
            if maximise:
                v = max(v, w)
                if pruning and v >= beta:
                    return v
                alpha = max(alpha, v)
            else:
                v = min(v, w)
                if pruning and v <= alpha:
                    return v
                beta = min(beta, v)
        return v

    return value(state, depth, -math.inf, math.inf)


def tictactoe_counts(depths: range = range(1, 10)) -> dict[str, list[int]]:
    """Nodes visited from the empty board per depth limit: minimax, alpha-beta, alpha-beta centre first."""
    searches: dict[str, tuple[Callable[[], Any], bool]] = {
        "minimax": (TicTacToe, False),
        "alpha-beta (row-major)": (TicTacToe, True),
        "alpha-beta (centre, corners, edges)": (lambda: CentreFirst(TicTacToe()), True),
    }
    counts: dict[str, list[int]] = {name: [] for name in searches}
    for name, (make, pruning) in searches.items():
        for d in depths:
            game = Traced(make(), keep_events=False)
            cut_off_search(game, game.initial, d, pruning)
            counts[name].append(game.trace.nodes_visited())
    return counts


def write_figures(folder: Path) -> list[Path]:
    """Write every example figure into `folder`; return the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def save(picture: Any, name: str) -> None:
        path = folder / name
        picture.savefig(path, dpi=100, metadata={"Software": None})
        written.append(path)

    tree = GameTree.from_leaves(SIXTEEN_LEAVES, branching=2)
    save(draw_tree(tree, title="The 16-leaf tree before any search"), "sixteen-leaf-tree.png")
    game = Traced(tree)
    value = alphabeta_value(game, game.initial)
    save(draw_tree(game, title=f"What alpha-beta did: value {value}, {game.trace.nodes_visited()} nodes visited"),
         "sixteen-leaf-alphabeta.png")
    save(draw_tree(game, window=True, title="The same search with the window each node was given"),
         "sixteen-leaf-alphabeta-windows.png")
    (folder / "sixteen-leaf-alphabeta.txt").write_text(ascii_tree(tree, game.trace) + "\n")
    written.append(folder / "sixteen-leaf-alphabeta.txt")

    eight = Traced(GameTree.from_leaves(EIGHT_LEAVES, branching=2))
    value = alphabeta_value(eight, eight.initial)
    save(draw_tree(eight, title=f"The 8-leaf list after alpha-beta: value {value}"), "eight-leaf-alphabeta.png")

    ttt = Traced(TicTacToe())
    position = ttt.state_from(["XOX", "OXO", "..."])
    alphabeta_value(ttt, position)
    save(draw_tree(ttt, title="Alpha-beta from a TicTacToe position (X to move)"), "tictactoe-position-alphabeta.png")

    counts = tictactoe_counts()
    save(nodes_by_depth(counts, depths=list(range(1, 10)),
                        title="TicTacToe from the empty board: nodes visited per depth limit"),
         "tictactoe-nodes-by-depth.png")
    bars = {name: values[-1] for name, values in counts.items()}  # depth 9: the whole game
    save(ordering_bars(bars, baseline="minimax", log=True, title="Full TicTacToe search: nodes visited"),
         "tictactoe-orderings.png")
    curve = td_learning_curve()
    save(learning.learning_curve(curve, title="Lab 08's reference learner: 1000 games of self-play, tested every 100"),
         "td-learning-curve.png")
    return written


def td_learning_curve(games: int = 1000, every: int = 100, seed: int = 0, alpha: float = 0.2,
                      epsilon: float = 0.1, test_games: int = 100) -> list:
    """Lab 08's training run with the reference learner: every `every` games of self-play from zero weights, the
    greedy learner's (wins, draws, losses) against a random player and against the hand-made evaluation."""
    import random

    from coursetools.checks.lab08 import reference as td

    def greedy(weights: list) -> Any:
        return lambda s: max(td.move_values(game, s, weights), key=lambda move: move[1])[0]  # the first best

    game = TicTacToe()
    rng, test_rng = random.Random(seed), random.Random(seed + 1)
    weights = [0.0] * len(learning.FEATURE_NAMES)
    curve = []
    for g in range(games + 1):
        if g % every == 0:
            me = greedy(weights)
            curve.append((g, {
                "random": learning.match(game, me, learning.random_player(game, test_rng), test_games, test_rng),
                "hand-made": learning.match(game, me, greedy(list(learning.HAND_WEIGHTS)), test_games, test_rng,
                                            epsilon=0.1),
            }))
        if g < games:
            weights, _ = td.self_play_episode(game, weights, rng, alpha, epsilon)
    return curve


def cmd_figures(args: Any) -> int:
    """Write example figures drawn from real search traces into a folder (default docs/figures)."""
    for path in write_figures(Path(args.folder)):
        print(f"wrote {path}")
    return 0
