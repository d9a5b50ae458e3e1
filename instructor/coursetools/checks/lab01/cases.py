"""Lab 01's cases as data: Nim heaps, and the games whose trees count_nodes and tree_stats measure.

Adding a hidden case is one row: a heaps tuple in `NIM_HEAPS`, or a `Case` in `GAMES`. Shared
trees are picked by id (`checks/trees.py`); each case's id names it in golden files.
"""

from __future__ import annotations

from typing import Any

from course_lib.games import Game, Isolation, RaceTo, TicTacToe

from .. import common, trees
from ..kit import Case
from ..nim import ReferenceNim, random_heaps

LAB = "01_game_trees"

#: Heaps of the public Nim games of each group (seeded ones follow).
NIM_HEAPS = {
    "nim_rules": [(1,), (3,), (1, 2), (2, 2), (3, 1), (0, 2, 1), (1, 2, 3), (1, 1, 1, 1), (2, 0, 3)],
    "nim_immutable": [(2, 3), (1, 2, 3), (2, 0, 2)],
    "nim_illegal": [],
}
#: Heaps whose illegal moves are tried before any seeded ones (group nim_illegal).
ILLEGAL_HEAPS = [(2, 0, 3), (1, 4), (3,)]
#: How many seeded heaps each group adds (public; a secret seed adds twice as many).
NIM_SEEDED = {"nim_rules": 3, "nim_immutable": 2, "nim_illegal": 2}

TREE_IDS = ["sixteen", "eight", "aima", "aima-min", "unbalanced", "tie-cut", "tie-min-cut", "deep-cut",
            "mixed-depths", "chain", "terminal-root", "negative"]
TIC_TAC_TOE = ["X.O/.X./O..", "XO./.O./..X", "X../.O./...", "OX./.X./..O", "X.O/OX./..."]


class ThreeQuestionGame(Game):
    """A game that answers only `actions`, `result` and `is_terminal`: the questions count_nodes may ask.

    Asking it whose turn it is, or for a utility, raises an `AttributeError` that says why."""

    def __init__(self, game: Game, name: str):
        self._game, self._name = game, name
        self.initial, self.players = game.initial, game.players

    def actions(self, state: Any) -> list:
        return self._game.actions(state)

    def result(self, state: Any, action: Any) -> Any:
        return self._game.result(state, action)

    def is_terminal(self, state: Any) -> bool:
        return self._game.is_terminal(state)

    def to_move(self, state: Any) -> Any:
        raise AttributeError(self._not_asked("to_move"))

    def utility(self, state: Any, player: Any) -> Any:
        raise AttributeError(self._not_asked("utility"))

    def _not_asked(self, name: str) -> str:
        return f"this game has no {name}() (count_nodes may use only actions(), result() and is_terminal())"

    def __repr__(self) -> str:
        return f"{self._name} (a game with only actions, result and is_terminal)"


def three_question_games() -> list[Case]:
    """count_nodes's last cases: games that answer only the three questions the notebook allows it."""
    return [Case(f"{id}-three-questions", f"{trees.name(id)}, given as a game with only actions, result and "
                 "is_terminal", ThreeQuestionGame(t, trees.name(id)), t.initial)
            for id, t in ((id, trees.tree(id)) for id in ("sixteen", "unbalanced"))]


def heaps(group: str) -> list[tuple]:
    """The heaps of `group`: public ones, then seeded ones (and secret ones with a seed)."""
    count = NIM_SEEDED[group]
    out = list(NIM_HEAPS[group])
    out += [random_heaps(common.rng(LAB, group)) for _ in range(count)]
    if common.has_secret():
        secret = common.rng(LAB, group, secret=True)
        out += [random_heaps(secret) for _ in range(2 * count)]
    return out


def illegal_moves(heaps: tuple) -> list[tuple[tuple, str]]:
    """Illegal moves in a position with `heaps`, each with why it is illegal."""
    k = len(heaps)
    full = next(i for i, h in enumerate(heaps) if h)
    moves = [((full, 0), "taking 0 is not a move"),
             ((full, -1), "a move takes a positive number of objects"),
             ((full, heaps[full] + 1), "taking more objects than the heap holds"),
             ((k, 1), f"there is no heap {k} (heaps are numbered 0 to {k - 1})"),
             ((-1, 1), "there is no heap -1 (careful: Python's negative index reaches the last heap)")]
    empty = [i for i, h in enumerate(heaps) if h == 0]
    if empty:
        moves.append(((empty[0], 1), f"heap {empty[0]} is empty"))
    return moves


def public_games() -> list[Case]:
    """The public games measured by count_nodes and tree_stats: shared trees, RaceTo, Tic-Tac-Toe, Nim, Isolation."""
    out = [Case(id, trees.name(id), t, t.initial) for id, t in ((id, trees.tree(id)) for id in TREE_IDS)]
    race = RaceTo()
    out += [Case("race-4-2", "RaceTo(4, 2)", RaceTo(4, 2), RaceTo(4, 2).initial),
            Case("race-7-3", "RaceTo(7, 3)", RaceTo(7, 3), RaceTo(7, 3).initial),
            Case("race-10-3-at-3", "RaceTo(10, 3) from total 3", race, race.result(race.result(race.initial, 1), 2))]
    ttt = TicTacToe()
    out += [Case(f"ttt-{p.replace('/', '-')}", f"TicTacToe {p.replace('/', ' ')}", ttt, ttt.state_from(p.split("/")))
            for p in TIC_TAC_TOE]
    out += [Case(f"nim-{''.join(map(str, h))}", f"Nim({h})", ReferenceNim(h), ReferenceNim(h).initial)
            for h in [(1, 2, 3), (2, 2, 2)]]
    iso = Isolation(3, start=((0, 0), (2, 2)))
    out.append(Case("isolation-3", "Isolation 3x3", iso, iso.initial))
    return out


def games(group: str) -> list[Case]:
    """Every game of `group`: five seeded trees after the public ones (and secret trees and Nim with a seed)."""
    out = public_games()
    seeded = trees.seeded_trees(common.rng(LAB, group), 5)
    out[len(TREE_IDS):len(TREE_IDS)] = [Case(f"random-{i + 1}", n, t, t.initial) for i, (n, t) in enumerate(seeded.items())]
    if common.has_secret():
        rng = common.rng(LAB, group, secret=True)
        out += [Case(f"secret-{i + 1}", f"secret {n}", t, t.initial)
                for i, (n, t) in enumerate(trees.seeded_trees(rng, 8).items())]
        out += [Case(f"secret-nim-{i + 1}", f"secret Nim({h})", ReferenceNim(h), ReferenceNim(h).initial)
                for i, h in enumerate(random_heaps(rng, 2000) for _ in range(3))]
    if group == "count_nodes":
        out += three_question_games()
    return out
