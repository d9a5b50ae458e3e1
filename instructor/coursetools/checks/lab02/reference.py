"""Lab 02's models (grader only): minimax's value and decision written with `Flags`, one flag per
classic mistake, the depth-aware decision of quick_win_decision, and each group's mistakes as
`kit.Mistake`s.

With every flag at its default a model is the course's minimax: values from the point of view of
the player to move at the root, children in actions() order, the first best action. A model
switched on for one of a group's own mistakes names that mistake in a hint, once `kit.explain`
has seen it reproduce what the submission did.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, fields, replace
from functools import partial
from typing import Any, Callable

from ..kit import Mistake


@dataclass(frozen=True)
class Flags:
    """A search with some classic mistakes; the defaults are the correct search."""

    alternate: bool = True      # False: the max at every level (players not alternating)
    view: str = "root"          # "first": values for the game's first player, whoever moves
    returns: str = "default"    # "move" (minimax_value) or "value" (minimax_decision) instead
    order: str = "actions"      # "reversed": children from last to first
    tie: str = "first"          # "last": a later move replaces an equally good one (>=)
    early: str = "none"         # "first": return inside the loop; "origin": the Tic-Tac-Toe rows bug
    turns: str = "to_move"      # "depth": MAX and MIN by depth below the root, whoever game.to_move says moves

    def changed(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) != f.default}

    def fixed(self, *names: str) -> "Flags":
        defaults = {f.name: f.default for f in fields(self)}
        return replace(self, **{n: defaults[n] for n in names})


CORRECT = Flags()


def search_model(game: Any, state: Any, f: Flags) -> tuple[Callable[[Any], Any], Callable[[Any], float]]:
    """The children order and the value function of the model with flags `f`."""
    view = game.to_move(state) if f.view == "root" else game.players[0]

    def kids(s: Any) -> list:
        acts = game.actions(s)
        return acts[::-1] if f.order == "reversed" else acts

    def value(s: Any, depth: int = 1) -> float:
        if game.is_terminal(s):
            return game.utility(s, view)
        vals = [value(game.result(s, a), depth + 1) for a in kids(s)]
        mine = depth % 2 == 0 if f.turns == "depth" else game.to_move(s) == view
        return max(vals) if (not f.alternate or mine) else min(vals)

    return kids, value


def model_value(game: Any, state: Any, f: Flags = CORRECT) -> Any:
    """minimax_value with the mistakes `f` (returns="move": the best move instead)."""
    kids, value = search_model(game, state, f)
    if f.returns == "move" and not game.is_terminal(state):
        best, best_value = None, -math.inf
        for a in kids(state):
            v = value(game.result(state, a))
            if v > best_value:
                best, best_value = a, v
        return best
    return value(state, 0)


def model_decision(game: Any, state: Any, f: Flags = CORRECT) -> Any:
    """minimax_decision with the mistakes `f`."""
    kids, value = search_model(game, state, f)
    best, best_value = None, -math.inf
    if f.early == "origin":
        legal = game.actions(state)
        for row in range(3):
            for col in range(3):
                if (row, col) not in legal:
                    continue
                v = value(game.result(state, (row, col)))
                if v > best_value:
                    best, best_value = (row, col), v
                if best_value == 1:
                    break
            break
    else:
        for a in kids(state):
            v = value(game.result(state, a))
            if v > best_value or (f.tie == "last" and v == best_value):
                best, best_value = a, v
            if f.early == "first":
                break
    return best_value if f.returns == "value" else best


def minimax_value(game: Any, state: Any) -> Any:
    return model_value(game, state)


VALUE_FLAGS = sorted((Flags(alternate=a, view=v, returns=r, order=o) for a, v, r, o in
                      itertools.product((True, False), ("root", "first"), ("default", "move"), ("actions", "reversed"))),
                     key=lambda f: len(f.changed()))
DECISION_FLAGS = sorted((Flags(alternate=a, view=v, returns=r, order=o, tie=t, early=e) for a, v, r, o, t, e in
                         itertools.product((True, False), ("root", "first"), ("default", "value"),
                                           ("actions", "reversed"), ("first", "last"), ("none", "first", "origin"))),
                        key=lambda f: len(f.changed()))


# -- faster wins ----------------------------------------------------------------------------------

def quick_score(u: float, d: int) -> float:
    """The depth-aware score of quick_win_decision: a win d plies away is worth 10 - d, a loss d - 10."""
    return u * (10 - d)


def quick_values(game: Any, state: Any, score: Callable[[float, int], float] = quick_score) -> list[tuple[Any, float]]:
    """(action, depth-aware minimax score) of each root move, in actions() order (a full search)."""
    player = game.to_move(state)

    def value(s: Any, d: int) -> float:
        if game.is_terminal(s):
            return score(game.utility(s, player), d)
        vals = [value(game.result(s, a), d + 1) for a in game.actions(s)]
        return max(vals) if game.to_move(s) == player else min(vals)

    return [(a, value(game.result(state, a), 1)) for a in game.actions(state)]


def quick_win(game: Any, state: Any, score: Callable[[float, int], float] = quick_score) -> Any:
    """The first action whose depth-aware minimax score is best."""
    best, best_value = None, -math.inf
    for a, v in quick_values(game, state, score):
        if v > best_value:
            best, best_value = a, v
    return best


# -- the mistakes each test group grades ----------------------------------------------------------

HINTS = {
    "alternate": "players not alternating: take the max where the player to move at the root moves and the min "
                 "where the opponent moves (ask game.to_move(s) at every node)",
    "view": "wrong perspective when the second player is to move: values are from the point of view of the "
            "player to move at the root (game.to_move(state)), not of the game's first player",
    "returns:move": "you returned the best move instead of its value: minimax_value returns a number",
    "returns:value": "you returned the value of the best move instead of the move itself: return the action "
                     "(one of game.actions(state))",
    "order": "children in another order: visit the children in actions() order (the order game.actions(state) "
             "gives them)",
    "tie": "first best action: several moves share the best value and you returned the last one; keep a new "
           "move only when it is strictly better (>, not >=)",
    "early:first": "a return inside the loop: the decision returned after looking at the first move only; "
                   "return after the loop over all the moves",
    "turns": "your search takes turns by depth (MAX, MIN, MAX, ...), but a player may move twice in a row: "
             "in Reversi without a pass move a player with no legal move is skipped; ask game.to_move(s) at "
             "every node to know who moves there",
    "early:origin": "a return inside the loop over the board's rows: only the top row's squares were tried, "
                    "and a break only leaves the inner loop; loop over "
                    "game.actions(state) and return after the loop",
}

#: The mistakes each group grades, as the flags that make them.
HOME: dict[str, dict[str, dict[str, Any]]] = {
    "value": {"alternate": {"alternate": False}, "returns:move": {"returns": "move"}, "turns": {"turns": "depth"}},
    "value_second_player": {"view": {"view": "first"}},
    "value_trace": {"order": {"order": "reversed"}},
    "decision": {"alternate": {"alternate": False}, "returns:value": {"returns": "value"},
                 "early:first": {"early": "first"}, "early:origin": {"early": "origin"}, "turns": {"turns": "depth"}},
    "decision_second_player": {"view": {"view": "first"}},
    "decision_ties": {"tie": {"tie": "last"}},
    "decision_trace": {"order": {"order": "reversed"}},
}


def model(group: str, flags: Flags) -> Callable[..., Any]:
    """The graded function of `group` written with `flags`."""
    return partial(model_value if group.startswith("value") else model_decision, f=flags)


def put_right(group: str, flags: Flags) -> Flags:
    """`flags` with the mistakes `group` grades put back to the conventions."""
    return flags.fixed(*{name for change in HOME[group].values() for name in change})


def group_mistakes(group: str, expected: Flags) -> list[Mistake]:
    """The mistakes `group` grades, each made on top of `expected` (the other groups' mistakes kept)."""
    return [Mistake(key, HINTS[key], model(group, replace(expected, **change)))
            for key, change in HOME[group].items()]


#: quick_win_decision's mistakes: a decision that scores the end of the game without its depth, or with it
#: the wrong way round (what the hint says depends on whether the player wins or loses here).
QUICK_MISTAKES = [
    Mistake("lazy", "", partial(quick_win, score=lambda u, d: u)),
    Mistake("slow", "your scoring prefers slower wins: a win d plies away should score 10 - d, less for larger d",
            partial(quick_win, score=lambda u, d: u * d)),
]
LAZY_WIN = ("lazy win: your move wins too, but later than it could; score a terminal state d plies below the root "
            "as utility * (10 - d) so that faster wins score higher")
FLAT_LOSS = ("every move loses here: choose the move that loses latest (with utility * (10 - d), a loss d plies away "
             "scores d - 10)")
