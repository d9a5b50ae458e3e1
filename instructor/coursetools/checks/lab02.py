"""Hidden tests of lab 02 (minimax): minimax_value, minimax_decision, quick_win_decision.

Groups of ``minimax_value``:

=======================  ======================================================================
``value``                the value on trees and game positions with the first player to move,
                         Nim against the xor rule: players not alternating, returning the move
``value_second_player``  the value when the second player is to move: the perspective
``value_trace``          how the search walks the tree: children in actions() order, each made
                         once from its own parent, each terminal state valued once, utility()
                         only on terminal states
=======================  ======================================================================

Groups of ``minimax_decision``: ``decision`` (trees and games, first player to move, one
best move: players not alternating, a value instead of the move, ``return`` inside the
loop over a Tic-Tac-Toe board's rows), ``decision_second_player`` (the perspective),
``decision_ties`` (the first best move) and ``decision_trace`` (the order of the search,
no double search). ``quick_win`` grades ``quick_win_decision`` (faster wins, slower losses).

Each mistake costs points once (see docs/lab-authoring.md): a group first finds the
submission's *profile*, the classic mistakes (`Flags`) that reproduce what it does on a
few probe cases, and compares it with the model that makes the same mistakes except those
the group grades. An unknown behaviour leaves the profile unknown, and every group then
compares with the reference. Expected answers and traces are computed here, from fresh
games and the grader's own searches.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from dataclasses import dataclass, fields, replace
from typing import Any, Callable, NamedTuple

from course_lib.games import ConnectFour, GameTree, RaceState, RaceTo, TicTacToe
from course_lib.trace import Traced

from . import common, reference, trees
from .nim import ReferenceNim, xor_value
from .searchcheck import picture

LAB = "02_minimax"


class Case(NamedTuple):
    name: str
    game: Any
    state: Any


# -- the classic mistakes, as flags of a model search ----------------------------------------

@dataclass(frozen=True)
class Flags:
    """A search with some classic mistakes; the defaults are the correct search."""

    alternate: bool = True      # False: the max at every level (players not alternating)
    view: str = "root"          # "first": values for the game's first player, whoever moves
    returns: str = "default"    # "move" (minimax_value) or "value" (minimax_decision) instead
    order: str = "actions"      # "reversed": children from last to first
    tie: str = "first"          # "last": a later move replaces an equally good one (>=)
    early: str = "none"         # "first": return inside the loop; "origin": the Tic-Tac-Toe rows bug

    def changed(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) != f.default}

    def fixed(self, *names: str) -> "Flags":
        defaults = {f.name: f.default for f in fields(self)}
        return replace(self, **{n: defaults[n] for n in names})


CORRECT = Flags()

#: The mistakes each group grades: it compares with the submission's profile minus these.
HOME: dict[str, tuple[str, ...]] = {
    "value": ("alternate", "returns"),
    "value_second_player": ("view",),
    "value_trace": ("order",),
    "decision": ("alternate", "returns", "early"),
    "decision_second_player": ("view",),
    "decision_ties": ("tie",),
    "decision_trace": ("order",),
}

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
    "early:origin": "a return inside the loop over the board's rows: only the top row's squares were tried, "
                    "and a break only leaves the inner loop; loop over "
                    "game.actions(state) and return after the loop",
}


def _hint_keys(flags: Flags | None, group: str) -> list[str]:
    if flags is None:
        return []
    out = []
    for name in HOME[group]:
        value = getattr(flags, name)
        if value != getattr(CORRECT, name):
            out.append(f"{name}:{value}" if f"{name}:{value}" in HINTS else name)
    return out


def _search(game: Any, state: Any, f: Flags) -> tuple[Callable[[Any], Any], Callable[[Any], float]]:
    """The children order and the value function of the model with flags `f`."""
    view = game.to_move(state) if f.view == "root" else game.players[0]

    def kids(s: Any) -> list:
        acts = game.actions(s)
        return acts[::-1] if f.order == "reversed" else acts

    def value(s: Any) -> float:
        if game.is_terminal(s):
            return game.utility(s, view)
        vals = [value(game.result(s, a)) for a in kids(s)]
        return max(vals) if (not f.alternate or game.to_move(s) == view) else min(vals)

    return kids, value


def model_value(game: Any, state: Any, f: Flags = CORRECT) -> Any:
    """minimax_value with the mistakes `f` (returns="move": the best move instead)."""
    kids, value = _search(game, state, f)
    if f.returns == "move" and not game.is_terminal(state):
        best, best_value = None, -math.inf
        for a in kids(state):
            v = value(game.result(state, a))
            if v > best_value:
                best, best_value = a, v
        return best
    return value(state)


def model_decision(game: Any, state: Any, f: Flags = CORRECT) -> Any:
    """minimax_decision with the mistakes `f`."""
    kids, value = _search(game, state, f)
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


VALUE_FLAGS = [Flags(alternate=a, view=v, returns=r, order=o) for a, v, r, o in
               itertools.product((True, False), ("root", "first"), ("default", "move"), ("actions", "reversed"))]
DECISION_FLAGS = [Flags(alternate=a, view=v, returns=r, order=o, tie=t, early=e) for a, v, r, o, t, e in
                  itertools.product((True, False), ("root", "first"), ("default", "value"), ("actions", "reversed"),
                                    ("first", "last"), ("none", "first", "origin"))]
VALUE_FLAGS.sort(key=lambda f: len(f.changed()))
DECISION_FLAGS.sort(key=lambda f: len(f.changed()))


class Run(NamedTuple):
    result: Any
    leaves: list
    generated: list


def run_model(model: Callable[..., Any], case: Case, f: Flags) -> Run:
    traced = Traced(case.game)
    result = model(traced, case.state, f)
    return Run(result, traced.trace.leaves(), traced.trace.generated())


def _probe_cases(kind: str) -> list[Case]:
    ttt = TicTacToe()
    aima = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
    probes = [Case("the 16-leaf tree", trees.public_trees()["the 16-leaf tree"],
                   trees.public_trees()["the 16-leaf tree"].initial),
              Case("AIMA's tree with MIN at the root", GameTree.from_nested(aima, root="MIN"), "P2.0"),
              Case("an unbalanced tree", GameTree.from_nested([[4, [6, 2], 9], 5, [[1, 8], [7], 3]]), "P1.0")]
    if kind == "value":
        probes += [Case("a tie at a MIN cut", GameTree.from_nested([[[3, 4], [3, 1]], [[2, 9], [3, 8]]], root="MIN"),
                        "P2.0"),
                   Case("RaceTo(5, 2) at total 1, P2 to move", RaceTo(5, 2), RaceState(1, "P2"))]
    else:
        probes += [Case("a tie between root moves", GameTree.from_nested([[5, 6], [5, 9], [4, 7], [5, 8]]), "P1.0"),
                   Case("a MIN-root tie", GameTree.from_nested([[1, 9], [2, 9], [3, 9]], root="MIN"), "P2.0"),
                   Case("a Tic-Tac-Toe position", ttt, ttt.state_from(["X.O", "OXX", "..O"])),
                   Case("a Tic-Tac-Toe position", ttt, ttt.state_from(["XO.", "OX.", "..."]))]
    return probes


def _profile(student: Callable[..., Any], kind: str) -> Flags | None:
    """The mistakes that reproduce what the student's function does on the probes, or None."""
    cases = _probe_cases(kind)
    observed = []
    for case in cases:
        traced = Traced(case.game)
        try:
            result = student(traced, case.state)
        except BaseException as exc:  # noqa: B036 - any failure of the student's code: profile unknown
            if isinstance(exc, (KeyboardInterrupt, SystemExit)) or type(exc).__name__ == "CheckTimeout":
                raise
            return None
        observed.append(Run(result, traced.trace.leaves(), traced.trace.generated()))
    model = model_value if kind == "value" else model_decision
    candidates = VALUE_FLAGS if kind == "value" else DECISION_FLAGS
    cache: dict = {}

    def model_run(i: int, f: Flags) -> Run | None:
        if (i, f) not in cache:
            try:
                cache[i, f] = run_model(model, cases[i], f)
            except Exception:
                cache[i, f] = None
        return cache[i, f]

    def covers(seen: list, wanted: list) -> bool:
        """`seen` holds every call of `wanted` (at least as often): the student did the model's work."""
        return not (Counter(map(repr, wanted)) - Counter(map(repr, seen)))

    # First the same answers by the same walk; then the same answers by a walk that does at least
    # the model's work (in another order or twice: graded by the trace groups alone).
    for exact in (True, False):
        for f in candidates:
            ok = True
            for i, seen in enumerate(observed):
                m = model_run(i, f)
                if m is None or not common.same(seen.result, m.result):
                    ok = False
                elif exact:
                    ok = seen.leaves == m.leaves and seen.generated == m.generated
                else:
                    ok = covers(seen.leaves, m.leaves) and covers(seen.generated, m.generated)
                if not ok:
                    break
            if ok:
                return f
    return None


def expected_flags(profile: Flags | None, group: str) -> Flags:
    return CORRECT if profile is None else profile.fixed(*HOME[group])


def _kept_note(expected: Flags) -> str:
    kept = expected.changed()
    if not kept:
        return ""
    words = {"alternate": "players not alternating", "view": "the first player's view", "returns": "what is returned",
             "order": "children right to left", "tie": "the last best move", "early": "a return inside the loop"}
    return ("\n(The expected answer keeps the other mistakes found in your code, graded in other tests: "
            + ", ".join(words[k] for k in kept) + ".)")


# -- cases ------------------------------------------------------------------------------------

TTT = {
    # X to move; the only best move is not in the top row (a return inside the loop over the rows misses it)
    "x_unique": [".X./O.O/..X", "O.X/..O/..X", "XOX/.../..O", "X../..X/O.O", "X../OO./.X.",
                 ".X./XO./..O", "OO./.X./X.."],
    # O to move, one best move
    "o_unique": [".XO/.../.X.", "X../.O./X..", "XX./.OX/O..", ".../.OX/..X"],
    # X to move, several best moves
    "x_ties": ["O../X.X/.O.", "OXX/.../.O.", ".XO/.O./X..", ".X./.OO/.X."],
    # a faster win (or a slower loss) exists beside the first best move of plain minimax
    "quick": ["O../X.X/.O.", "OOX/.X./...", "..X/.XO/..O", ".XO/.X./O..", "..X/X.X/O.O",
              "XXO/.O./..X", ".X./.OO/.X.", "..O/XOX/...", ".OX/.X./...", ".../O../XX."],
}
C4 = {  # ConnectFour 4x4 (four in a row), mid-game, as the columns played from the empty board
    "x_unique": [[3, 3, 3, 1, 1, 1, 3, 2], [0, 2, 3, 1, 2, 3, 2, 2, 3, 1]],
    "o_unique": [[3, 2, 3, 3, 2, 3, 2, 0, 1], [2, 2, 3, 0, 0, 0, 2, 2, 3]],
    "x_ties": [[3, 3, 3, 1, 2, 0, 0, 1, 3, 0], [0, 2, 2, 2, 1, 3, 3, 3, 3, 2]],
}


def ttt_case(picture_text: str) -> Case:
    g = TicTacToe()
    return Case(f"Tic-Tac-Toe {picture_text.replace('/', ' ')}", g, g.state_from(picture_text.split("/")))


def c4_case(moves: list[int]) -> Case:
    g = ConnectFour(4, 4)
    return Case(f"ConnectFour 4x4 after the columns {moves}", g, g.play(moves))


def race_case(n: int, k: int, total: int, player: str = "P1") -> Case:
    return Case(f"RaceTo({n}, {k}) at total {total}, {player} to move", RaceTo(n, k), RaceState(total, player))


def nim_case(heaps: tuple, first_move: tuple | None = None) -> Case:
    g = ReferenceNim(heaps)
    if first_move is None:
        return Case(f"Nim({heaps})", g, g.initial)
    s = g.result(g.initial, first_move)
    return Case(f"Nim({heaps}) after P1 took {first_move} (heaps {s.heaps}, P2 to move)", g, s)


def random_position(rng: random.Random, keep: Callable[[Any, Any], bool], plies: tuple = (3, 5),
                    tries: int = 400) -> Case | None:
    """A Tic-Tac-Toe position reached by random moves that `keep(game, state)` accepts."""
    g = TicTacToe()
    for _ in range(tries):
        s = g.initial
        for _ in range(rng.randint(*plies)):
            if g.is_terminal(s):
                break
            s = g.result(s, rng.choice(g.actions(s)))
        if not g.is_terminal(s) and keep(g, s):
            text = "/".join(s.board[i:i + 3] for i in range(0, 9, 3))
            return ttt_case(text)
    return None


def _kind(game: Any, state: Any) -> str:
    """'unique' when one root move has the best minimax value, 'tie' when several do."""
    _, value = _search(game, state, CORRECT)
    vals = [value(game.result(state, a)) for a in game.actions(state)]
    return "unique" if vals.count(max(vals)) == 1 else "tie"


def _seeded_positions(group: str, keep: Callable[[Any, Any], bool], count: int) -> list[Case]:
    out = []
    sources = [common.rng(LAB, group)] + ([common.rng(LAB, group, secret=True)] if common.has_secret() else [])
    for i, rng in enumerate(sources):
        for _ in range(count * (1 + 2 * i)):
            c = random_position(rng, keep)
            if c is not None:
                out.append(c._replace(name=("secret " if i else "") + c.name))
    return out


def tree_cases(group: str, root: str, count: int = 6, only: Callable[[GameTree], bool] | None = None) -> list[Case]:
    """Public trees whose root player is `root`, then seeded random ones (and secret ones)."""
    out = [Case(name, t, t.initial) for name, t in trees.public_trees().items() if t.to_move(t.initial) == root]
    sources = [(common.rng(LAB, group), count, "")]
    if common.has_secret():
        sources.append((common.rng(LAB, group, secret=True), 2 * count, "secret "))
    for rng, n, prefix in sources:
        made = 0
        for _ in range(60 * n):
            if made == n:
                break
            t = trees.random_tree(rng, max_depth=rng.randint(2, 5), max_branching=rng.randint(2, 4), root=root)
            if only is None or only(t):
                made += 1
                out.append(Case(f"{prefix}random tree #{made} ({root} at the root)", t, t.initial))
    if only is not None:
        out = [c for c in out if only(c.game)]
    return out


def _decidable(kind: str) -> Callable[[GameTree], bool]:
    return lambda t: not t.is_terminal(t.initial) and _kind(t, t.initial) == kind


# -- running the student's code and explaining failures --------------------------------------

INTERNAL_HINT = ("internal node evaluated: your search asked for the utility of a state that is not terminal; "
                 "call game.utility(state, player) only when game.is_terminal(state) is True (test it first, "
                 "with the parentheses, instead of trying utility() and catching the error)")
ILLEGAL_HINT = ("result() was called with an action that is not legal in that state: generate every child "
                "from the same parent state (do not overwrite the variable `state` inside the loop with "
                "state = game.result(state, a))")


def run(student: Callable[..., Any], game: Any, state: Any, case: Case) -> Any:
    """Call the student's function; errors become messages that name the likely bug."""
    try:
        return common.call(student, game, state, where=f"on {case.name}")
    except common.CheckFailed as failure:
        text = str(failure)
        if "only defined for terminal states" in text:
            text += f"\nHint: {INTERNAL_HINT}"
        elif "illegal move" in text:
            text += f"\nHint: {ILLEGAL_HINT}"
        raise common.CheckFailed(text) from None


def show(case: Case) -> str:
    """A tree drawing, or the position, for a message."""
    if isinstance(case.game, GameTree):
        return picture(case.game) if len(case.game.nodes()) <= 40 else ""
    return case.game.display(case.state)


def _fail(message: str, hint: str, case: Case) -> None:
    text = message + (f"\nHint: {hint}" if hint else "")
    shown = show(case)
    if shown:
        text += ("\nThe tree:\n" if isinstance(case.game, GameTree) else "\nThe position:\n") + shown
    raise common.CheckFailed(text)


def _value_hint(case: Case, got: Any, profile: Flags | None, group: str) -> str:
    keys = _hint_keys(profile, group)
    if keys:
        return " ".join(HINTS[k] for k in keys)
    game, state = case.game, case.state
    if not common.is_number(got):
        return "minimax_value returns a number: the value of the state"
    if common.same(got, model_value(game, state, Flags(alternate=False))):
        return HINTS["alternate"]
    if common.same(got, model_value(game, state, Flags(view="first"))):
        return HINTS["view"]
    if common.same(got, -model_value(game, state)):
        return "the sign is flipped: values are from the point of view of the player to move at the root"
    return ("the value of a terminal state is its utility for the root player; above it, the max where that "
            "player moves and the min where the opponent moves")


def _check_value(minimax_value: Any, case: Case, profile: Flags | None, group: str, extra: str = "") -> None:
    """minimax_value on one case: the model's answer for this group, exactly (a plain number)."""
    expected_f = expected_flags(profile, group)
    expected = model_value(case.game, case.state, expected_f)
    got = run(minimax_value, case.game, case.state, case)
    if common.same(got, expected) and (expected_f.returns == "move" or common.is_number(got)):
        return
    _fail(f"minimax_value on {case.name}: expected {expected!r}{extra}, yours returned {got!r:.80}."
          + _kept_note(expected_f), _value_hint(case, got, profile, group), case)


def nim_xor_cases() -> list[tuple]:
    """Every Nim start with two heaps of at most 4 or three heaps of at most 3 (sizes sorted)."""
    two = [(a, b) for a in range(5) for b in range(a, 5)]
    three = [(a, b, c) for a in range(4) for b in range(a, 4) for c in range(b, 4)]
    return two + three


def _value_cases_first_player(group: str) -> list[Case]:
    return (tree_cases(group, "MAX")
            + [race_case(10, 3, 0), race_case(7, 2, 0), race_case(10, 4, 1)]
            + [ttt_case(p) for p in TTT["x_unique"][:4] + TTT["x_ties"][:2]]
            + [c4_case(m) for m in C4["x_unique"] + C4["x_ties"][:1]]
            + _seeded_positions(group, lambda g, s: g.to_move(s) == "X", 2))


def _value_cases_second_player(group: str) -> list[Case]:
    return (tree_cases(group, "MIN")
            + [race_case(10, 3, 1, "P2"), race_case(10, 3, 2, "P2"), race_case(9, 2, 3, "P2")]
            + [ttt_case(p) for p in TTT["o_unique"]]
            + [c4_case(m) for m in C4["o_unique"]]
            + [nim_case((1, 2, 3), (2, 1)), nim_case((2, 2), (0, 2)), nim_case((1, 3), (1, 1))]
            + _seeded_positions(group, lambda g, s: g.to_move(s) == "O", 2))


def check_value(minimax_value: Any) -> int:
    """minimax_value with the first player to move: trees, games, and Nim against the xor rule."""
    profile = _profile(minimax_value, "value")
    cases = _value_cases_first_player("value")
    for case in cases:
        _check_value(minimax_value, case, profile, "value")
    for heaps in nim_xor_cases():
        nim = nim_case(heaps)  # as a tree: it crosses to the kernel by value, and only the value is checked
        _check_value(minimax_value, Case(nim.name, trees.as_tree(nim.game, nim.state, "P1"), "n0"), profile, "value",
                     f" (the xor of the heaps is {'not ' if xor_value(heaps) > 0 else ''}0)")
    return len(cases) + len(nim_xor_cases())


def check_value_second_player(minimax_value: Any) -> int:
    """minimax_value when the second player (MIN, O, P2) is to move at the root."""
    profile = _profile(minimax_value, "value")
    cases = _value_cases_second_player("value_second_player")
    for case in cases:
        _check_value(minimax_value, case, profile, "value_second_player")
    return len(cases)


# -- traces -------------------------------------------------------------------------------------

class _Watch:
    """A game that notes every utility() asked of a state that is not terminal."""

    def __init__(self, game: Any):
        self._game = game
        self.internal: list = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def utility(self, state: Any, player: Any) -> Any:
        if not self._game.is_terminal(state):
            self.internal.append(state)
        return self._game.utility(state, player)


def compare_trace(name: str, student: Callable[..., Any], model: Callable[..., Any], case: Case,
                  expected_f: Flags) -> None:
    """The student's search makes the model's calls: children generated and terminal states valued, in order.

    Only the trace is compared (the result is graded by the other tests).
    """
    game, state = case.game, case.state
    watch = _Watch(game)
    mine = Traced(watch)
    run(student, mine, state, case)
    if watch.internal:
        node = watch.internal[0]
        _fail(f"On {case.name} your {name} called utility() on {node if isinstance(game, GameTree) else 'a state'} "
              "that is not terminal.", INTERNAL_HINT, case)
    expected = run_model(model, case, expected_f)
    if isinstance(game, GameTree):
        twice = mine.trace.repeated("utility")
        if twice:
            _fail(f"On {case.name} your {name} evaluated {twice[0]} {mine.trace.calls(twice[0]).get('utility')} "
                  "times.", "a leaf evaluated twice: search each move once and keep the value it returns (in a "
                  "variable) instead of searching it again", case)
        again = mine.trace.repeated("generate")
        if again:
            _fail(f"On {case.name} your {name} generated {again[0]} {mine.trace.calls(again[0]).get('generate')} "
                  "times with result().", "a child generated twice: call game.result(state, action) once per "
                  "action and keep the child", case)
    got_edges, exp_edges = mine.trace.edges(), None
    for what, exp_seq, got_seq in [("children your {} generated with result()", expected.generated,
                                    mine.trace.generated()),
                                   ("terminal states your {} evaluated", expected.leaves, mine.trace.leaves())]:
        if got_seq == exp_seq:
            continue
        reversed_run = run_model(model, case, replace(expected_f, order="reversed"))
        hint = ("visit the children in actions() order, make each once with result(state, action) and take "
                "each terminal state's utility once")
        i = common.first_difference(exp_seq, got_seq)
        if exp_edges is None:
            traced = Traced(game)
            model(traced, state, expected_f)
            exp_edges = traced.trace.edges()
        if got_seq in (reversed_run.generated, reversed_run.leaves):
            hint = HINTS["order"]
        elif what.startswith("children") and i is not None and i < min(len(got_seq), len(exp_seq)) \
                and got_edges[i][0] != exp_edges[i][0]:
            hint = (f"that child was made from {got_edges[i][0]!r:.60} where its parent should be "
                    f"{exp_edges[i][0]!r:.60}: generate every child from the same parent state (do not "
                    "overwrite the variable `state` inside the loop)")
        elif sorted(map(repr, got_seq)) == sorted(map(repr, exp_seq)):
            hint = HINTS["order"]
        elif len(got_seq) > len(exp_seq):
            hint = ("your search did more than one search of the tree: search each move once and keep its value "
                    "in a variable")
        raise common.CheckFailed(common.sequence_message(
            f"The {what.format(name)} (in order)", exp_seq, got_seq, f"on {case.name}",
            show(case) if isinstance(game, GameTree) else "", hint) + _kept_note(expected_f))


def _trace_cases(group: str) -> list[Case]:
    cases = tree_cases(group, "MAX", 4) + tree_cases(group, "MIN", 2)
    cases += [race_case(7, 3, 0), race_case(10, 3, 3, "P2"), ttt_case(TTT["x_unique"][0]),
              ttt_case(TTT["o_unique"][1]), c4_case(C4["x_ties"][1]), nim_case((1, 2, 2)), nim_case((1, 2), (1, 1))]
    return cases


def check_value_trace(minimax_value: Any) -> int:
    """minimax_value's trace: children in actions() order, each made and valued once, utility() on terminals."""
    expected_f = expected_flags(_profile(minimax_value, "value"), "value_trace")
    cases = _trace_cases("value_trace")
    for case in cases:
        compare_trace("minimax_value", minimax_value, model_value, case, expected_f)
    return len(cases)


# -- decisions -----------------------------------------------------------------------------------

def _decision_hint(case: Case, got: Any, traced: Traced, profile: Flags | None, group: str) -> str:
    keys = _hint_keys(profile, group)
    if keys:
        return " ".join(HINTS[k] for k in keys)
    game, state = case.game, case.state
    actions = game.actions(state)
    tried = len({repr(c) for p, _, c in traced.trace.edges() if p == state})
    legal = any(common.same(got, a) for a in actions)
    if got is None:
        return ("your function returned None: does every path reach a return with the best action?"
                + (f" It tried only {tried} of the {len(actions)} moves." if tried < len(actions) else ""))
    if not legal and common.same(got, reference.minimax_value(game, state)):
        return HINTS["returns:value"]
    if not legal:
        return f"return one of the actions from game.actions(state): {actions}"
    if tried < len(actions):
        return f"your decision tried only {tried} of the {len(actions)} moves: " + HINTS["early:first"]
    for flags, key in [(Flags(tie="last"), "tie"), (Flags(alternate=False), "alternate"), (Flags(view="first"), "view")]:
        if common.same(got, model_decision(game, state, flags)):
            return HINTS[key]
    return "the decision is the first action, in actions() order, whose minimax value is the best"


def _check_decision(minimax_decision: Any, case: Case, profile: Flags | None, group: str) -> None:
    game, state = case.game, case.state
    expected_f = expected_flags(profile, group)
    expected = model_decision(game, state, expected_f)
    if type(game).__module__.startswith("course_lib."):  # the answer first, on a copy in the kernel (fast)
        if common.same(run(minimax_decision, game, state, case), expected):
            return
    traced = Traced(game)  # then traced, for the hint
    got = run(minimax_decision, traced, state, case)
    if common.same(got, expected):
        return
    values = ", ".join(f"{a!r}: {reference.minimax_value(game, game.result(state, a)) * (1 if game.to_move(game.result(state, a)) == game.to_move(state) else -1):g}"  # noqa: E501
                       if not game.is_terminal(game.result(state, a)) else
                       f"{a!r}: {game.utility(game.result(state, a), game.to_move(state)):g}"
                       for a in game.actions(state))
    _fail(f"minimax_decision on {case.name}: expected {expected!r}, yours returned {got!r:.80}.\n"
          f"  minimax values of the moves (for the player to move): {values}" + _kept_note(expected_f),
          _decision_hint(case, got, traced, profile, group), case)


def check_decision(minimax_decision: Any) -> int:
    """minimax_decision with the first player to move and one best move: trees, Tic-Tac-Toe, RaceTo, Nim."""
    profile = _profile(minimax_decision, "decision")
    cases = tree_cases("decision", "MAX", only=_decidable("unique"))
    cases += [ttt_case(p) for p in TTT["x_unique"]] + [c4_case(m) for m in C4["x_unique"]]
    cases += [race_case(10, 3, 0), race_case(10, 3, 5), race_case(10, 4, 1), nim_case((1, 3)), nim_case((2, 2, 1)),
              nim_case((1, 2, 4))]
    cases += _seeded_positions("decision", lambda g, s: g.to_move(s) == "X" and _kind(g, s) == "unique", 3)
    for case in cases:
        _check_decision(minimax_decision, case, profile, "decision")
    return len(cases)


def check_decision_second_player(minimax_decision: Any) -> int:
    """minimax_decision when the second player is to move (MIN root, O, P2)."""
    profile = _profile(minimax_decision, "decision")
    cases = tree_cases("decision_second_player", "MIN", only=_decidable("unique"))
    cases += [c for c in _value_cases_second_player("decision_second_player")
              if not isinstance(c.game, GameTree) and _kind(c.game, c.state) == "unique"]
    for case in cases:
        _check_decision(minimax_decision, case, profile, "decision_second_player")
    return len(cases)


def check_decision_ties(minimax_decision: Any) -> int:
    """minimax_decision returns the FIRST best action when several tie."""
    profile = _profile(minimax_decision, "decision")
    cases = tree_cases("decision_ties", "MAX", only=_decidable("tie"))
    cases += [ttt_case(p) for p in TTT["x_ties"]] + [c4_case(m) for m in C4["x_ties"]]
    cases += [race_case(10, 3, 2), race_case(10, 3, 6), nim_case((1, 2, 3)), nim_case((2, 2)), nim_case((1, 1, 1))]
    cases += _seeded_positions("decision_ties", lambda g, s: g.to_move(s) == "X" and _kind(g, s) == "tie", 2)
    for case in cases:
        _check_decision(minimax_decision, case, profile, "decision_ties")
    return len(cases)


def check_decision_trace(minimax_decision: Any) -> int:
    """minimax_decision's trace: every move tried, in actions() order, each searched once."""
    expected_f = expected_flags(_profile(minimax_decision, "decision"), "decision_trace")
    cases = [c for c in _trace_cases("decision_trace") if not c.game.is_terminal(c.state)]
    for case in cases:
        compare_trace("minimax_decision", minimax_decision, model_decision, case, expected_f)
    return len(cases)


# -- faster wins --------------------------------------------------------------------------------

def quick_score(u: float, d: int) -> float:
    """The depth-aware score of quick_win_decision: a win d plies away is worth 10 - d, a loss d - 10."""
    return u * (10 - d)


def reference_quick_win(game: Any, state: Any, score: Callable[[float, int], float] = quick_score) -> Any:
    """The first action whose depth-aware minimax score is best (a full search, like minimax_decision)."""
    player = game.to_move(state)

    def value(s: Any, d: int) -> float:
        if game.is_terminal(s):
            return score(game.utility(s, player), d)
        vals = [value(game.result(s, a), d + 1) for a in game.actions(s)]
        return max(vals) if game.to_move(s) == player else min(vals)

    best, best_value = None, -math.inf
    for a in game.actions(state):
        v = value(game.result(state, a), 1)
        if v > best_value:
            best, best_value = a, v
    return best


def _quick_scores(game: Any, state: Any) -> str:
    player = game.to_move(state)

    def value(s: Any, d: int) -> float:
        if game.is_terminal(s):
            return quick_score(game.utility(s, player), d)
        vals = [value(game.result(s, a), d + 1) for a in game.actions(s)]
        return max(vals) if game.to_move(s) == player else min(vals)

    return ", ".join(f"{a!r}: {value(game.result(state, a), 1):g}" for a in game.actions(state))


def check_quick_win(quick_win_decision: Any) -> int:
    """quick_win_decision: the fastest win (or slowest loss), first in actions() order; a full search."""
    cases = [ttt_case(p) for p in TTT["quick"]] + [ttt_case(TTT["x_unique"][0]), ttt_case(TTT["o_unique"][2])]
    cases += [race_case(10, 3, 5), race_case(10, 3, 6), nim_case((1, 2)), nim_case((1, 1, 2)), nim_case((2, 2))]
    cases += _seeded_positions("quick_win", lambda g, s: g.to_move(s) == "X" and len(g.actions(s)) <= 6, 3)
    for case in cases:
        game, state = case.game, case.state
        got = run(quick_win_decision, game, state, case)  # the answer only: the game crosses by value
        expected = reference_quick_win(game, state)
        if not common.same(got, expected):
            plain = reference.minimax_decision(game, state)
            value = reference.minimax_value(game, state)
            if common.same(got, plain) and value > 0:
                hint = ("lazy win: your move wins too, but later than it could; score a terminal state d plies "
                        "below the root as utility * (10 - d) so that faster wins score higher")
            elif common.same(got, plain) and value < 0:
                hint = ("every move loses here: choose the move that loses latest (with utility * (10 - d), a loss "
                        "d plies away scores d - 10)")
            elif common.same(got, reference_quick_win(game, state, lambda u, d: u * d)):
                hint = "your scoring prefers slower wins: a win d plies away should score 10 - d, less for larger d"
            else:
                hint = "choose the first action whose depth-aware score (utility * (10 - depth)) is the best"
            _fail(f"quick_win_decision on {case.name}: expected {expected!r}, yours returned {got!r:.80}.\n"
                  f"  depth-aware scores of the moves: {_quick_scores(game, state)}", hint, case)
        compare_trace("quick_win_decision", quick_win_decision, model_decision, case, CORRECT)
    return len(cases)
