"""Lab 05's cases as data: each public case is one row with a stable id; seeded cases follow.

Adding a hidden case is one row in one of these tables (or one more seeded case in a group's
count). A case's id names it in golden files and reports; its name is what a student reads.
Seeded cases come from `seeded` / `rngs`: the public ones are fixed; the secret ones (and the
tournaments' openings) are drawn from the grader's secret seed and the id of the student being
graded (`common.student_rng`), so the hidden positions a feedback shows differ from student to student.
"""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from course_lib.games import ConnectFour, ExchangeTree, FoodGrid, GameTree, Isolation, RaceTo, TicTacToe
from course_lib.games.race import RaceState

from .. import common, kit, trees
from ..kit import Case

LAB = "05_heuristics"


def rngs(group: str, public: int, secret: int) -> list[tuple[str, random.Random, int]]:
    """(id prefix, generator, how many): the public cases, then (with a secret seed) the student's own
    secret cases, drawn from the secret seed and the id of the student being graded."""
    out = [("random", common.rng(LAB, group), public)]
    if common.has_secret():
        out.append(("secret", common.student_rng(LAB, group), secret))
    return out


def seeded(group: str, public: int, secret: int, make: Callable[[random.Random, str, str], Case]) -> list[Case]:
    """Cases drawn by ``make(rng, id, name)``: ids ``random-1, ...`` then ``secret-1, ...``."""
    out = []
    for prefix, rng, count in rngs(group, public, secret):
        label = "random case" if prefix == "random" else "secret random case"
        out += [make(rng, f"{prefix}-{i + 1}", f"{label} #{i + 1}") for i in range(count)]
    return out


# -- evaluations handed to the student's search ----------------------------------------------------

@dataclass(frozen=True)
class Estimates:
    """evaluate(node, player) on an explicit tree: the node's estimate for MAX, its negation for MIN.

    A leaf's estimate is 100 + its value on purpose: a correct search never asks for it.
    """

    first: str
    players: tuple
    values: tuple  # (node, estimate for `first`) pairs

    def __call__(self, state: Any, player: Any) -> float:
        if player not in self.players:
            raise ValueError(f"evaluate(state, player): player must be one of {list(self.players)}, not {player!r}")
        v = dict(self.values)[state]
        return v if player == self.first else -v

    def __repr__(self) -> str:
        return "estimates(" + ", ".join(f"{n}={v}" for n, v in self.values if v < 50) + ")"


def estimates(tree: GameTree, rng: random.Random) -> Estimates:
    """An estimate (MAX's view) for every node of `tree`, drawn from `rng`."""
    values = tuple((n, 100 + tree.value(n) if tree.is_terminal(n) else rng.randint(-9, 9)) for n in tree.nodes())
    return Estimates(tree.players[0], tuple(tree.players), values)


@dataclass(frozen=True)
class Hashed:
    """A fixed, symmetric evaluation of any state with ties: one of `levels` values in (-0.5, 0.5)."""

    first: Any
    players: tuple
    levels: int = 7

    def __call__(self, state: Any, player: Any) -> float:
        if player not in self.players:
            raise ValueError(f"evaluate(state, player): player must be one of {list(self.players)}, not {player!r}")
        v = (zlib.crc32(repr(state).encode()) % self.levels - self.levels // 2) / (self.levels + 1)
        return v if player == self.first else -v

    def __repr__(self) -> str:
        return f"hashed({self.levels} levels, for {self.first!r})"


def hashed(game: Any) -> Hashed:
    return Hashed(game.players[0], tuple(game.players))


def _nested(spec: Any, root: str = "MAX") -> GameTree:
    return GameTree.from_nested(spec, root=root)


def tree_case(id: str, name: str, tree: GameTree, depth: int, group: str) -> Case:
    est = estimates(tree, random.Random(f"{LAB}/{group}/{name}"))
    return Case(id, f"{name} with depth={depth}", tree, tree.initial, (depth, est))


def game_case(id: str, name: str, game: Any, state: Any, depth: int) -> Case:
    return Case(id, f"{name} with depth={depth}", game, state, (depth, hashed(game)))


# -- the search groups -------------------------------------------------------------------------------

AT_CUT = _nested([[3, [1, 2]], [[4, 5], 7], [[8, [9, 1]], 2]])

VALUE_TREES = [  # (shared tree id or a tree, name, depths)
    ("sixteen", None, (2, 0, 1, 3, 4)),
    ("aima", None, (1, 2)),
    ("aima-min", None, (1,)),
    ("mixed-depths", None, (2, 3, 1)),
    ("terminal-at-cut", ("a terminal at the cut-off depth", AT_CUT), (2,)),
    ("unbalanced", None, (2,)),
    ("tie-cut", None, (1, 2)),
    ("deep-cut", None, (3, 2)),
    ("chain", None, (3,)),
    ("terminal-root", None, (0, 2)),
    ("negative", None, (2,)),
]


def _random_tree_case(group: str, depths: tuple[int, int]):
    def make(rng: random.Random, id: str, name: str) -> Case:
        tree = trees.random_tree(rng, max_depth=rng.randint(2, 5), max_branching=rng.randint(2, 4))
        depth = rng.randint(*depths)
        return Case(id, f"{name} (a random tree) with depth={depth}", tree, tree.initial, (depth, estimates(tree, rng)))
    return make


def value_trees(group: str = "value_cutoff") -> list[Case]:
    """Public trees at chosen depths (terminals inside the horizon, depth 0, ties at a cut)."""
    out = []
    for id, own, depths in VALUE_TREES:
        name, tree = own if own else (trees.name(id), None)
        for d in depths:
            out.append(tree_case(f"{id}-d{d}", name, tree if tree else trees.tree(id), d, group))
    return out


def value_cutoff_cases() -> list[Case]:
    return value_trees() + seeded("value_cutoff", 8, 10, _random_tree_case("value_cutoff", (0, 4)))


SMALL_FOOD = "5 5\n#####\n##* #\n##A*#\n# B##\n#####"
MEDIUM_FOOD = "7 6\n#######\n#A  * #\n# # # #\n#* * *#\n#  # B#\n#######"


def value_games() -> list[Case]:
    """Positions of real games, either player to move, with terminal states inside the horizon."""
    ttt, c4, race = TicTacToe(), ConnectFour(4, 4), RaceTo(10, 3)
    iso4 = Isolation(4, start=((0, 0), (3, 3)))
    small, medium = FoodGrid(SMALL_FOOD), FoodGrid(MEDIUM_FOOD)
    return [
        game_case("ttt-x-wins", "TicTacToe, X to move (X can win at once)", ttt,
                  ttt.state_from(["XO.", "XO.", "..."], "X"), 2),
        game_case("ttt-o", "TicTacToe, O to move", ttt, ttt.state_from(["X..", ".O.", "X.X"], "O"), 3),
        game_case("ttt-one-move", "TicTacToe after one move, O to move", ttt,
                  ttt.state_from(["...", ".X.", "..."], "O"), 2),
        game_case("race-p2", "RaceTo(10, 3) at total 4, P2 to move", race, RaceState(4, "P2"), 3),
        game_case("c4-o", "ConnectFour 4x4, O to move", c4, c4.play([1, 2, 1, 2, 0, 3, 2]), 3),
        game_case("c4-x", "ConnectFour 4x4, X to move", c4, c4.play([0, 1, 1, 2]), 2),
        game_case("iso4-corners", "Isolation 4x4 from opposite corners", iso4, iso4.initial, 2),
        game_case("food-small", "the small food board, A to move", small, small.initial, 3),
        game_case("food-medium-b", "the medium food board, B to move", medium,
                  medium.result(medium.initial, "right"), 2),
        game_case("c4-depth0", "ConnectFour 4x4 at depth 0", c4, c4.play([0, 1]), 0),
    ]


def _random_position(rng: random.Random, id: str, name: str) -> Case:
    ttt, c4, iso4 = TicTacToe(), ConnectFour(4, 4), Isolation(4, start=((0, 0), (3, 3)))
    game, title, plies = rng.choice([(ttt, "TicTacToe", (2, 5)), (c4, "ConnectFour 4x4", (3, 8)),
                                     (iso4, "Isolation 4x4", (1, 4))])
    s = kit.playout(game, rng, rng.randint(*plies))
    return game_case(id, f"{name}: {title}, {s.to_move} to move", game, s, rng.randint(1, 3))


def value_games_cases() -> list[Case]:
    return value_games() + seeded("value_games", 3, 6, _random_position)


def decision_public() -> list[Case]:
    """The no-cut-off trap first, then trees (ties between root moves) and game positions."""
    iso5 = Isolation(5, start=((0, 0), (4, 4)))
    out = [game_case("iso5-corners", "Isolation 5x5 from opposite corners", iso5, iso5.initial, 2)]
    specs = [
        ("sixteen-d2", trees.name("sixteen"), trees.tree("sixteen"), 2),
        ("sixteen-d1", trees.name("sixteen"), trees.tree("sixteen"), 1),
        ("sixteen-d4", trees.name("sixteen"), trees.tree("sixteen"), 4),
        ("root-tie", "a tie between root moves", _nested([[2, 7], [5, 3], [1, 9], [5, 8]]), 2),
        ("ternary-min", "a ternary tree with MIN at the root", _nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]], "MIN"), 1),
        ("mixed-depths-d2", trees.name("mixed-depths"), trees.tree("mixed-depths"), 2),
        ("deep-cut-d3", trees.name("deep-cut"), trees.tree("deep-cut"), 3),
        ("single-root-move", "a single root move", _nested([[[4, 1], [2, 8]]]), 2),
    ]
    out += [tree_case(id, name, tree, d, "decision") for id, name, tree, d in specs]
    tie = _nested([[1, 2], [3, 4], [5, 6]])
    flat = Estimates("MAX", ("MAX", "MIN"), tuple((n, 100 if tie.is_terminal(n) else 5) for n in tie.nodes()))
    out.append(Case("all-tie-d1", "a tree where every root move ties, with depth=1", tie, tie.initial, (1, flat)))
    out += [c for c in value_games() if c.args[0] >= 1]
    return out


def decision_cases() -> list[Case]:
    return decision_public() + seeded("decision", 6, 6, _random_tree_case("decision", (1, 5)))


# -- quiescence: exchange trees ------------------------------------------------------------------------

#: The notebook's exchange: White's queen can take a pawn that a black pawn defends.
EXCHANGE = {
    "start": ("MAX", {"QxP": "taken", "Nf3": "calm"}, 0),
    "taken": ("MIN", {"PxQ": "lost", "a6": "ahead"}, 1),
    "lost": ("MAX", {"Nc3": -8, "h3": -7}, -8),
    "ahead": ("MAX", {"Qd5": 2, "Qh5": 1}, 1),
    "calm": ("MIN", {"d5": "even", "Bg4": "pin"}, 0),
    "even": ("MAX", {"c4": 0, "e3": 1}, 0),
    "pin": ("MAX", {"h3": 0, "Ne5": 1}, 0),
}
EXCHANGE_NOISY = ("taken", "pin")

#: A longer exchange: three captures in a row before the position is quiet again.
LONG_EXCHANGE = {
    "root": ("MAX", {"RxN": "r1", "Kh1": "k1"}, 0),
    "r1": ("MIN", {"BxR": "r2", "g6": "g1"}, 3),
    "r2": ("MAX", {"QxB": "r3", "h3": 4}, -2),
    "r3": ("MIN", {"QxQ": "r4", "Kg7": 1}, 1),
    "r4": ("MAX", {"a3": -9, "b3": -8}, -8),
    "g1": ("MAX", {"Rd1": 3, "Re1": 2}, 3),
    "k1": ("MIN", {"d5": 0, "e5": 1}, 0),
}
LONG_NOISY = ("r1", "r2", "r3")


def exchange_tree(nodes: dict, noisy: Sequence[str], root: str) -> ExchangeTree:
    return ExchangeTree.from_nodes(nodes, root, noisy=noisy)


def own_estimates(tree: ExchangeTree) -> Estimates:
    """The evaluations written in the tree (MAX's view), as the evaluation the search is given."""
    values = tuple((n, tree.evaluation(n, tree.players[0])) for n in tree.nodes() if not tree.is_terminal(n))
    return Estimates(tree.players[0], tuple(tree.players), values)


def _exchange_case(id: str, name: str, tree: ExchangeTree, depth: int, state: Any = None) -> Case:
    return Case(id, f"{name} with depth={depth}", tree, tree.initial if state is None else state,
                (depth, own_estimates(tree)))


def random_exchange_tree(rng: random.Random) -> ExchangeTree:
    """A random tree with random estimates; about a third of its internal nodes noisy."""
    base = trees.random_tree(rng, max_depth=rng.randint(3, 5), max_branching=rng.randint(2, 3))
    inner = [n for n in base.nodes() if not base.is_terminal(n)]
    evals = {n: rng.randint(-9, 9) for n in inner}
    noisy = [n for n in inner if rng.random() < 0.35]
    return ExchangeTree(base._kind, base._children, base._value, base.initial, moves=base._moves,
                        evaluations=evals, noisy=noisy)


def _random_exchange_case(rng: random.Random, id: str, name: str) -> Case:
    tree = random_exchange_tree(rng)
    return _exchange_case(id, f"{name} (a random exchange tree)", tree, rng.randint(0, 3))


def quiescence_public() -> list[Case]:
    """The notebook's exchange at every depth, a long exchange, a noisy root, a search from inside."""
    ex = exchange_tree(EXCHANGE, EXCHANGE_NOISY, "start")
    long = exchange_tree(LONG_EXCHANGE, LONG_NOISY, "root")
    return [
        *[_exchange_case(f"exchange-d{d}", "the queen's exchange", ex, d) for d in (1, 0, 2, 3)],
        *[_exchange_case(f"long-d{d}", "a three-capture exchange", long, d) for d in (1, 2, 0)],
        _exchange_case("from-taken-d0", "the queen's exchange from the noisy node 'taken'", ex, 0, "taken"),
        _exchange_case("from-calm-d1", "the queen's exchange from 'calm' (MIN to move)", ex, 1, "calm"),
    ]


def quiescence_cases() -> list[Case]:
    return quiescence_public() + seeded("quiescence", 10, 10, _random_exchange_case)
