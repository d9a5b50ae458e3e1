"""Hidden tests of lab 03 (alpha-beta): one test group per rule, partial credit per mistake.

Groups of ``alphabeta_value``:

=============  ===========================================================================
``value``      the value, with the full window, on trees and game positions (the player to
               move may be the second player): returning the move, the wrong perspective
``children``   how the search walks the tree: children made one at a time, in actions()
               order, each once; each leaf valued once; utility() only on terminal states
``pruning``    the leaves evaluated, in order, with the full window: a search that never
               prunes, or that does not pass the updated bounds down
``equality``   ties at the cut prune (the course prunes on equality: v >= beta, v <= alpha): strict pruning
``deep``       bounds from every ancestor, not only the parent: bounds reset at each level
``window``     alpha and beta given by the caller: fail-soft values, the window used at all
=============  ===========================================================================

Groups of ``alphabeta_decision``: ``decision`` (the first best action, an action and
not a value, no ``return`` inside the loop) and ``decision_pruning`` (the best value so
far is passed down as alpha, so later root moves are pruned).

How one mistake costs points once: every group first finds the submission's *profile*,
the combination of classic mistakes (`reference_alphabeta.Flags`) that reproduces what
it does on a few probe trees. A group then compares the submission, case by case, with
the model that makes the same mistakes *except those this group grades*. A mistake the
models do not know leaves the profile unknown, and every group then compares with the
reference itself. Expected values and traces are computed here, from the games and the
grader's own searches, never from anything a submission can replace.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass, replace
from typing import Any, Callable, Hashable

from course_lib.games import ConnectFour, Game, GameTree, RaceTo, TicTacToe
from course_lib.games.race import RaceState
from course_lib.trace import Traced

from . import common, trees
from . import reference_alphabeta as ref
from .reference_alphabeta import CORRECT, Flags
from .searchcheck import example_path, path_namer

LAB = "03_alphabeta"
INF = math.inf

#: The flags each group grades: a group compares with the submission's profile minus these.
HOME: dict[str, tuple[str, ...]] = {
    "value": ("perspective", "returns"),
    "children": ("order", "eager", "recompute"),
    "pruning": ("bounds:stale", "bounds:none"),
    "equality": ("strict",),
    "deep": ("bounds:reset",),
    "window": ("fail_hard", "window"),
    "decision": ("tie", "early_return", "decision_returns", "root_order", "perspective"),
    "decision_pruning": ("root_alpha",),
}

#: What each mistake is called in a hint, and what to do about it.
HINTS = {
    "strict": "strict pruning instead of pruning on equality. The course prunes on a tie: at a MAX node stop "
              "as soon as v >= beta, at a MIN node as soon as v <= alpha (not only when v > beta or v < alpha).",
    "bounds:stale": "the updated alpha/beta are not passed down. After each child, a MAX node raises alpha "
                    "(a MIN node lowers beta) and the NEXT child must be searched with the new bounds.",
    "bounds:none": "your alpha-beta never prunes: it visits every node, like minimax. Compare v with beta "
                   "(at MAX) or alpha (at MIN) after each child and return as soon as the cut condition holds.",
    "bounds:reset": "the bounds are reset at each level. A node must pass on BOTH bounds it received (updated), "
                    "not (alpha, +inf) or (-inf, beta): a bound set by a grandparent or higher still cuts "
                    "(a deep cut-off).",
    "fail_hard": "fail-hard instead of fail-soft. The course's alpha-beta is fail-soft: on a cut-off return v, "
                 "the value you found, not alpha or beta; and at the end return v, not the updated alpha/beta.",
    "window:ignore": "the alpha and beta given by the caller are ignored. Start the search from the window "
                     "passed in (they default to -inf and +inf only when the caller gives none).",
    "perspective": "wrong perspective when the second player is to move. Values are from the point of view of "
                   "the player to move in `state` (game.to_move(state)), not of the first player of the game.",
    "returns:move": "alphabeta_value returns a move instead of the value. It returns a number: the value of "
                    "`state`; alphabeta_decision returns the move.",
    "order": "children in another order. Search the children in the order game.actions(state) gives them.",
    "eager": "all children generated before searching. Make one child with game.result, search it, and only "
             "then make the next one: a child that alpha-beta prunes should never be generated.",
    "recompute": "a child searched twice (for example `if f(child) > v: v = f(child)`). Call the search once "
                 "per child and keep its value in a variable.",
    "twice": "a node generated or evaluated twice. Each child needs one call of game.result, each leaf one "
             "call of game.utility: keep values in variables instead of calling again.",
    "unsearched": "a child generated but never searched. Call game.result only for the child you are about "
                  "to search: after a cut-off, no further child should be made.",
    "internal": "internal nodes evaluated. Call game.utility only on states where game.is_terminal(state) is "
                "True; test is_terminal first instead of trying utility() and catching the error.",
    "tie:last": "the last best move instead of the first. Change the best move only when a child is strictly "
                "better (>) than the best so far, so that the first best action in actions() order is kept.",
    "early_return": "`return` inside the loop: the decision returned after looking at the first action "
                    "only. Return after the loop over all actions.",
    "decision_returns:value": "alphabeta_decision returns a value instead of the move. Return the action "
                              "(an element of game.actions(state)).",
    "root_order": "the root moves looked at in another order. Loop over game.actions(state) as it is, so that "
                  "the first best action in that order is the one returned.",
    "root_alpha:False": "the decision does not pass the best value so far down as alpha. Search each root move "
                        "with (alpha, +inf), where alpha is the best value found so far, so later moves are pruned.",
}


# -- a small Nim for the hidden positions (lab 01 has students write their own) -----------

class Nim(Game):
    """Heaps of objects; take any positive number from one heap; taking the last object wins.

    Actions ``(heap, count)``: heaps left to right, counts smallest first.
    """

    players = ("P1", "P2")

    def __init__(self, heaps: tuple[int, ...] = (1, 2, 3)):
        self.initial = (tuple(heaps), "P1")

    def to_move(self, state: tuple) -> str:
        return state[1]

    def actions(self, state: tuple) -> list[tuple[int, int]]:
        return [(i, k) for i, h in enumerate(state[0]) for k in range(1, h + 1)]

    def result(self, state: tuple, action: tuple[int, int]) -> tuple:
        if action not in self.actions(state):
            raise self.illegal(state, action)
        heaps = list(state[0])
        heaps[action[0]] -= action[1]
        return (tuple(heaps), self.opponent(state[1]))

    def is_terminal(self, state: tuple) -> bool:
        return not any(state[0])

    def utility(self, state: tuple, player: str) -> int:
        if not self.is_terminal(state):
            raise self.not_terminal(state)
        return -1 if player == state[1] else 1  # whoever took the last object has just moved

    def display(self, state: tuple) -> str:
        return f"Nim heaps {list(state[0])}, {state[1]} to move"

    def __repr__(self) -> str:
        return "Nim()"


# -- cases ---------------------------------------------------------------------------------

@dataclass
class Case:
    """One search to run: the game, the start state, the window (None: call without it)."""

    name: str
    game: Any
    state: Any
    window: tuple[float, float] | None = None

    @property
    def is_tree(self) -> bool:
        return isinstance(self.game, GameTree)

    def describe(self) -> str:
        where = self.name
        if self.window is not None:
            where += f" with alpha={_num(self.window[0])}, beta={_num(self.window[1])}"
        return where


def _num(x: float) -> str:
    if isinstance(x, float) and math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return repr(x)


def nested(spec: Any, root: str = "MAX") -> GameTree:
    return GameTree.from_nested(spec, root=root)


SIXTEEN = GameTree.from_leaves(trees.SIXTEEN, 2)
EIGHT = GameTree.from_leaves(trees.EIGHT, 2)

#: Ties at the cut point, each with its twin where the same cut is strict.
TIES = {
    "the tie tree [[5, 6], [5, 9]]": [[5, 6], [5, 9]],
    "a tie at MAX [[[4, 7], [4, 1]], [[2, 9], [4, 8]]] (MIN root)": ([[[4, 7], [4, 1]], [[2, 9], [4, 8]]], "MIN"),
    "a tie three levels down": [[6], [[[6, 9], 1], 2]],
    "ties at both kinds of node": [[3, [3, 8]], [[3, 4], 3, 9], [2, [3, 5]]],
}

#: Deep cut-offs: the bound that cuts comes from a grandparent or higher.
DEEP = {
    "a deep cut at a MIN node [[10], [[[5, 99, 5], 20]]]": [[10], [[[5, 99, 5], 20]]],
    "a deep cut at a MAX node (MIN root)": ([[2], [[[7, -4, 7], -1]]], "MIN"),
    "two deep cuts": [[8, 9], [[[4, 50], [60, 70]], [[3, 40], 12]]],
    "a cut four levels down": [[10], [[[[[5, 99], 2], 30]], 40]],
}


def public_trees() -> dict[str, GameTree]:
    return dict(trees.public_trees())


def _seeded(group: str, count: int, secret_count: int, **kw: Any) -> dict[str, GameTree]:
    out = {}
    for tag, rng, n in (("", common.rng(LAB, group), count),
                        ("secret ", common.rng(LAB, group, True) if common.has_secret() else None, secret_count)):
        if rng is None:
            continue
        for i in range(n):
            spec_kw = dict(kw)
            depth = spec_kw.pop("depth", None) or rng.randint(2, 4)
            width = spec_kw.pop("width", None) or rng.randint(2, 3)
            out[f"{tag}random tree #{i + 1}"] = trees.random_tree(rng, max_depth=depth, max_branching=width, **spec_kw)
    return out


def _playout(game: Any, rng: random.Random, moves: int) -> Any:
    """A non-terminal state after `moves` random moves (retrying when the game ends early)."""
    for _ in range(200):
        s = game.initial
        for _ in range(moves):
            if game.is_terminal(s):
                break
            s = game.result(s, rng.choice(game.actions(s)))
        if not game.is_terminal(s):
            return s
    raise RuntimeError("no non-terminal position found (a grader set-up problem)")


def positions(group: str, count: int = 1) -> list[Case]:
    """Game positions: TicTacToe, RaceTo, ConnectFour 4x4 mid-game and Nim, both players to move."""
    ttt, race, c4 = TicTacToe(), RaceTo(10, 3), ConnectFour(4, 4)
    cases = [
        Case("TicTacToe, X to move", ttt, ttt.state_from(["X.O", ".O.", "X.."], "X")),
        Case("TicTacToe, O to move", ttt, ttt.state_from(["X..", ".O.", "X.X"], "O")),
        Case("RaceTo(10, 3) at total 3, P2 to move", race, RaceState(3, "P2")),
        Case("RaceTo(10, 3) at total 4, P1 to move", race, RaceState(4, "P1")),
        Case("ConnectFour 4x4, O to move", c4, _c4([1, 2, 1, 2, 0, 3, 2, 0, 3])),
        Case("Nim heaps [1, 2, 2], P2 to move", Nim(), ((1, 2, 2), "P2")),
        Case("Nim heaps [3, 1, 1], P1 to move", Nim(), ((3, 1, 1), "P1")),
    ]
    rngs = [common.rng(LAB, group + "/positions")]
    if common.has_secret():
        rngs.append(common.rng(LAB, group + "/positions", True))
    for k, rng in enumerate(rngs):
        tag = "secret " if k else ""
        for i in range(count if not k else count + 1):
            s = _playout(ttt, rng, rng.randint(4, 5))
            cases.append(Case(f"{tag}a TicTacToe position #{i + 1} ({s.to_move} to move)", ttt, s))
            s = _playout(c4, rng, rng.randint(9, 10))
            cases.append(Case(f"{tag}a ConnectFour 4x4 position #{i + 1} ({s.to_move} to move)", c4, s))
            heaps = tuple(rng.randint(0, 2) for _ in range(3))
            heaps = heaps if any(heaps) else (1, 1, 2)
            who = rng.choice(["P1", "P2"])
            cases.append(Case(f"{tag}Nim heaps {list(heaps)}, {who} to move (#{i + 1})", Nim(), (heaps, who)))
    return cases


def _c4(columns: list[int]) -> Any:
    g = ConnectFour(4, 4)
    s = g.initial
    for c in columns:
        s = g.result(s, c)
    return s


def tree_cases(named: dict[str, GameTree], window: tuple[float, float] | None = None) -> list[Case]:
    return [Case(name, t, t.initial, window) for name, t in named.items()]


def _spec_tree(spec: Any) -> GameTree:
    if isinstance(spec, tuple):
        return nested(spec[0], root=spec[1])
    return nested(spec)


# -- running searches and reading what they did --------------------------------------------

@dataclass
class Run:
    """A search's result and what it did on a traced copy of the case's game."""

    result: Any
    game: Traced
    recorder: "Recorder | None" = None

    @property
    def trace(self) -> Any:
        return self.game.trace

    def leaves(self) -> list:
        return self.trace.leaves()

    def walk(self) -> list[tuple[str, Hashable]]:
        """Generations and evaluations in order: what the hidden tests compare strictly."""
        return [(e.kind, e.node) for e in self.trace.events("generate", "utility", "evaluate")]


class Recorder(Game):
    """A game that notes every utility() call, even one that raises (an internal node)."""

    def __init__(self, game: Any):
        self._inner = game
        self.attempts: list[Hashable] = []
        self.initial = game.initial
        self.players = game.players

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def to_move(self, state: Any) -> Any:
        return self._inner.to_move(state)

    def actions(self, state: Any) -> list:
        return self._inner.actions(state)

    def result(self, state: Any, action: Any) -> Any:
        return self._inner.result(state, action)

    def is_terminal(self, state: Any) -> bool:
        return self._inner.is_terminal(state)

    def utility(self, state: Any, player: Any) -> Any:
        self.attempts.append(state)
        return self._inner.utility(state, player)

    def display(self, state: Any) -> str:
        return self._inner.display(state)


def run_student(fn: Callable[..., Any], case: Case, record: bool = False, where: str = "") -> Run:
    """Call the student's function on a traced copy of the case (errors become messages)."""
    recorder = Recorder(case.game) if record else None
    game = Traced(recorder if record else case.game)
    args = (game, case.state) if case.window is None else (game, case.state, *case.window)
    try:
        result = common.call(fn, *args, where=where or f"on {case.describe()}")
    except common.CheckFailed as failure:
        if "utility() is only defined for terminal states" in str(failure):
            raise common.CheckFailed(f"{failure}\nHint: Looks like {HINTS['internal']}") from None
        raise
    return Run(result, game, recorder)


NO_ANSWER = object()


def answer(fn: Callable[..., Any], case: Case) -> Any:
    """The student's answer on the case's own, untraced game (`NO_ANSWER` when it raised).

    For the groups that grade only an answer: over the grader's channel a course game then
    crosses by value and the search runs in the kernel without a call coming back. A wrong
    answer is looked at again with `run_student`, whose traced run decides and explains.
    """
    args = (case.game, case.state) if case.window is None else (case.game, case.state, *case.window)
    try:
        return common.call(fn, *args)
    except common.CheckFailed:
        return NO_ANSWER


def run_value_model(case: Case, flags: Flags) -> Run:
    game = Traced(case.game)
    window = case.window or (-INF, INF)
    return Run(ref.value(game, case.state, window[0], window[1], flags), game)


def run_decision_model(case: Case, flags: Flags) -> Run:
    game = Traced(case.game)
    return Run(ref.decision(game, case.state, flags), game)


# -- naming nodes in messages -----------------------------------------------------------------

def namer(case: Case, run: Run) -> Callable[[Hashable], str]:
    """How a node of this run is written: ``L.3=8`` in a tree, the moves leading to it in a game."""
    if case.is_tree:
        tree = case.game

        def tree_name(n: Hashable) -> str:
            try:
                return f"{n}={tree.value(n)}" if tree.kind(n) == "TERMINAL" else str(n)
            except ValueError:
                return str(n)

        return tree_name
    return path_namer(case.state, [run.trace])


def picture(case: Case, run: Run | None = None) -> str:
    """An ASCII drawing of the case: the tree annotated with what the student's search did, or the position."""
    if case.is_tree:
        if len(case.game.nodes()) > 45:
            return ""
        from course_lib.ascii import ascii_tree

        root = None if case.state == case.game.initial else case.state
        try:
            return ascii_tree(case.game, run.trace if run is not None else None, max_lines=45, root=root)
        except Exception:  # a drawing must never hide the real message
            return ascii_tree(case.game, max_lines=45, root=root)
    text = str(case.state)
    return f"(paths below are the moves from this position, e.g. {example_path(case.game, case.state)})\n{text}"


# -- profiles -------------------------------------------------------------------------------

def _probe_cases() -> list[Case]:
    ties = {n: _spec_tree(s) for n, s in list(TIES.items())[:2]}
    deep = {n: _spec_tree(s) for n, s in list(DEEP.items())[:2]}
    ttt = TicTacToe()
    return [
        Case("the 16-leaf tree", SIXTEEN, SIXTEEN.initial),
        Case("the 16-leaf tree from P2.0", SIXTEEN, "P2.0"),
        *tree_cases(ties),
        *tree_cases(deep),
        Case("AIMA's tree with MIN at the root", nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]], "MIN"),
             nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]], "MIN").initial),
        Case("the 8-leaf list", EIGHT, EIGHT.initial, (4, 10)),
        Case("the 8-leaf list", EIGHT, EIGHT.initial, (13, 20)),
        Case("the 16-leaf tree", SIXTEEN, SIXTEEN.initial, (7, 8)),
        Case("a TicTacToe position", ttt, ttt.state_from(["X..", ".O.", "X.X"], "O")),
    ]


def _observe(fn: Callable[..., Any], cases: list[Case]) -> list[tuple[Any, list]] | None:
    out = []
    for case in cases:
        try:
            run = run_student(fn, case)
        except common.CheckFailed:
            return None
        out.append((run.result, run.walk()))
    return out


def _matches(observed: list[tuple[Any, list]], cases: list[Case], flags: Flags,
             model: Callable[[Case, Flags], Run]) -> bool:
    for (result, walk), case in zip(observed, cases):
        try:
            run = model(case, flags)
        except Exception:
            return False
        if run.walk() != walk or not common.same(result, run.result):
            return False
    return True


def _structure(observed: list[tuple[Any, list]], probe: Case) -> Flags:
    """Order, eager generation and double search, read from the walk on the first probe."""
    walk = observed[0][1]
    gens = [n for k, n in walk if k == "generate"]
    kids = probe.game.children(probe.state)
    order = "reversed" if gens and gens[0] == kids[-1] else "actions"
    eager = len(gens) >= 2 and gens[0] in kids and gens[1] in kids
    recompute = len(gens) != len(set(gens))
    return Flags(order=order, eager=eager, recompute=recompute)


def value_profile(alphabeta_value: Callable[..., Any]) -> Flags | None:
    """The mistakes that reproduce what `alphabeta_value` does on the probes, or None."""
    cases = _probe_cases()
    observed = _observe(alphabeta_value, cases)
    if observed is None:
        return None
    structures = [_structure(observed, cases[0]), Flags()]
    for structure in structures:
        for returns in ("value", "move"):
            for flags in ref.candidates(Flags(order=structure.order, eager=structure.eager,
                                              recompute=structure.recompute, returns=returns)):
                if _matches(observed, cases, flags, run_value_model):
                    return flags
    return None


def _decision_probe_cases() -> list[Case]:
    ttt = TicTacToe()
    return [
        Case("the 16-leaf tree", SIXTEEN, SIXTEEN.initial),
        Case("a tie between root moves", nested([[2, 7], [5, 3], [1, 9], [5, 8]]),
             nested([[2, 7], [5, 3], [1, 9], [5, 8]]).initial),
        Case("a tree where the first move is not the best", nested([[1, 2], [6, 7], [3, 9]]),
             nested([[1, 2], [6, 7], [3, 9]]).initial),
        Case("a TicTacToe position", ttt, ttt.state_from(["X..", ".O.", "X.X"], "O")),
    ]


def decision_profile(alphabeta_decision: Callable[..., Any], vprofile: Flags | None) -> Flags | None:
    """The mistakes that reproduce what `alphabeta_decision` does, its search being the value's or correct."""
    cases = _decision_probe_cases()
    observed = _observe(alphabeta_decision, cases)
    if observed is None:
        return None
    bases = [b for b in (vprofile, CORRECT) if b is not None]
    bases += [Flags(perspective=p) for p in ("initial", "first")]
    for base in bases:
        base = base.fixed("returns")
        for returns, root_alpha, tie, early, order in itertools.product(
                ("move", "value"), (True, False), ("first", "last"), (False, True), ("actions", "reversed")):
            flags = replace(base, decision_returns=returns, root_alpha=root_alpha, tie=tie, early_return=early,
                            root_order=order)
            if _matches(observed, cases, flags, run_decision_model):
                return flags
    return None


def expected_flags(profile: Flags | None, group: str, vprofile: Flags | None = None) -> Flags:
    """The profile with the mistakes graded by `group` put right (the reference for an unknown profile)."""
    if profile is None:
        return CORRECT
    names = []
    for home in HOME[group]:
        name, _, only = home.partition(":")
        if not only or str(getattr(profile, name)) == only:
            names.append(name)
    flags = profile.fixed(*names)
    if group == "decision" and vprofile is not None:
        # a perspective shared with alphabeta_value is graded there; the decision's own here
        flags = replace(flags, perspective=vprofile.perspective)
    return flags


def mistakes(profile: Flags | None, group: str) -> list[str]:
    """Hint keys of the mistakes in `profile` that `group` grades."""
    if profile is None:
        return []
    found = []
    for home in HOME[group]:
        name, _, only = home.partition(":")
        value = getattr(profile, name)
        if value == getattr(CORRECT, name):
            continue
        if only and str(value) != only:
            continue
        key = f"{name}:{value}" if f"{name}:{value}" in HINTS else name
        found.append(key)
    return found


def _hint(keys: list[str]) -> str:
    return " ".join(f"Looks like {HINTS[k]}" for k in keys if k in HINTS)


#: How each mistake is named in the note under an adjusted expectation.
WORDS = {
    ("strict", True): "strict pruning", ("bounds", "stale"): "updated bounds not passed down",
    ("bounds", "none"): "no pruning", ("bounds", "reset"): "bounds reset at each level",
    ("fail_hard", True): "fail-hard", ("window", "ignore"): "the caller's window ignored",
    ("perspective", "initial"): "values for the first mover", ("perspective", "first"): "values for the first player",
    ("order", "reversed"): "children right to left", ("eager", True): "all children generated first",
    ("recompute", True): "children searched twice", ("returns", "move"): "alphabeta_value returns a move",
    ("root_alpha", False): "no alpha passed at the root", ("tie", "last"): "the last best move",
    ("early_return", True): "return inside the loop", ("decision_returns", "value"): "the decision returns a value",
    ("root_order", "reversed"): "root moves right to left",
}


def _adjusted_note(profile: Flags | None, expected: Flags) -> str:
    """A line saying which other mistakes the expected trace keeps (graded in other tests)."""
    if profile is None:
        return ""
    other = expected.changed()
    if not other:
        return ""
    listed = ", ".join(WORDS.get((k, v), f"{k}={v}") for k, v in other.items())
    return (f"\n(The expected results above keep the other mistakes found in your search: {listed}. Other "
            "tests grade those, so each mistake costs points once.)")


# -- comparing ----------------------------------------------------------------------------

def compare_leaves(what: str, case: Case, mine: Run, expected: Run, hint: str, note: str = "") -> None:
    """Fail unless the leaves evaluated are the same, in the same order."""
    got, want = mine.leaves(), expected.leaves()
    if got == want:
        return
    name_got, name_want = namer(case, mine), namer(case, expected)
    message = common.sequence_message(
        f"The leaves {what} evaluated (in order)", [name_want(n) for n in want], [name_got(n) for n in got],
        f"on {case.describe()}", picture(case, mine), hint)
    raise common.CheckFailed(message + note)


def compare_result(what: str, case: Case, got: Any, expected: Any, hint: str, mine: Run | None = None,
                   note: str = "") -> None:
    if common.same(got, expected):
        return
    extra = ""
    try:
        if type(got) is not type(expected) and got == expected:
            extra = f" (yours is a {type(got).__name__}, not a {type(expected).__name__})"
    except Exception:  # a comparison that raises is no match either
        pass
    common.fail(f"{what} on {case.describe()}: expected {expected!r}, yours returned {got!r:.120}{extra}.{note}",
                hint, picture(case, mine))


def _diagnose(case: Case, mine: Run, names: list[str], model: Callable[[Case, Flags], Run],
              base: Flags) -> str:
    """For an unknown profile: the single mistake of this group that reproduces the run, if any."""
    tries = {
        "strict": {"strict": True}, "bounds:stale": {"bounds": "stale"}, "bounds:none": {"bounds": "none"},
        "bounds:reset": {"bounds": "reset"}, "fail_hard": {"fail_hard": True}, "window": {"window": "ignore"},
        "order": {"order": "reversed"}, "eager": {"eager": True}, "recompute": {"recompute": True},
        "root_alpha": {"root_alpha": False}, "tie": {"tie": "last"}, "early_return": {"early_return": True},
    }
    for key in names:
        change = tries.get(key)
        if not change:
            continue
        try:
            run = model(case, replace(base, **change))
        except Exception:
            continue
        if run.leaves() == mine.leaves() and common.same(run.result, mine.result):
            name, value = next(iter(change.items()))
            k = f"{name}:{value}" if f"{name}:{value}" in HINTS else name
            return _hint([k])
    return ""


@dataclass
class Group:
    """What a group knows about the submission when it compares.

    A group first compares with the correct search. Only when a case differs does it find the
    submission's profile (`settle`) and compare again, with the mistakes other groups grade kept
    in what it expects: a correct submission never pays for the probes.
    """

    name: str
    profiler: Callable[[], tuple[Flags | None, Flags, list[str]]]  # -> profile, expected, hint keys
    profile: Flags | None = None
    expected: Flags = CORRECT
    hint: str = ""
    note: str = ""
    settled: bool = False
    checked: int = 0

    def settle(self) -> None:
        self.profile, self.expected, keys = self.profiler()
        self.hint, self.note = _hint(keys), _adjusted_note(self.profile, self.expected)
        self.settled, self.checked = True, 0


def judged(group: Group, compare: Callable[[], None]) -> int:
    """Run `compare` (it raises CheckFailed at the first difference); on a difference, settle and run it again."""
    try:
        compare()
    except common.CheckFailed:
        if group.settled:
            raise
        group.settle()
        compare()
    return group.checked


def _value_group(name: str, alphabeta_value: Callable[..., Any]) -> Group:
    def profiler() -> tuple[Flags | None, Flags, list[str]]:
        profile = value_profile(alphabeta_value)
        return profile, expected_flags(profile, name), mistakes(profile, name)

    return Group(name, profiler)


def _search_hint(group: Group, case: Case, mine: Run, model: Callable[[Case, Flags], Run] = run_value_model,
                 default: str = "") -> str:
    if group.hint:
        return group.hint
    return _diagnose(case, mine, list(HOME[group.name]), model, group.expected) or default


def _compare_value_search(group: Group, fn: Callable[..., Any], cases: list[Case], *, values: bool,
                          leaves: bool, default_hint: str = "") -> int:
    def compare() -> None:
        for case in cases:
            mine = run_student(fn, case)
            want = run_value_model(case, group.expected)
            if values and group.expected.returns == "value":
                common.expect_number(mine.result, f"alphabeta_value on {case.describe()}")
                if not common.same(mine.result, want.result):
                    compare_result("alphabeta_value", case, mine.result, want.result,
                                   _search_hint(group, case, mine, default=default_hint), mine, group.note)
            if leaves and mine.leaves() != want.leaves():
                compare_leaves("your alphabeta_value", case, mine, want,
                               _search_hint(group, case, mine, default=default_hint), group.note)
            group.checked += 1

    return judged(group, compare)


# -- the groups of alphabeta_value ------------------------------------------------------------

def check_value(alphabeta_value: Callable[..., Any]) -> int:
    """Values with the full window on trees and positions, as numbers, from the root player's view."""
    group = _value_group("value", alphabeta_value)
    cases = tree_cases(public_trees()) + tree_cases(_seeded("value", 6, 10))
    cases += [Case("the 16-leaf tree from its MIN node P2.1", SIXTEEN, "P2.1")]
    cases += positions("value")
    answers = {i: answer(alphabeta_value, case) for i, case in enumerate(cases)}  # only the value counts here

    def compare() -> None:
        for i, case in enumerate(cases):
            want = run_value_model(case, group.expected)
            if common.is_number(answers[i]) and common.same(answers[i], want.result):
                group.checked += 1
                continue
            mine = run_student(alphabeta_value, case)
            hint = group.hint
            if not hint and not common.same(mine.result, want.result):
                for key, change in (("perspective", {"perspective": "initial"}),
                                    ("perspective", {"perspective": "first"}), ("returns:move", {"returns": "move"})):
                    alt = run_value_model(case, replace(group.expected, **change))
                    if common.same(mine.result, alt.result):
                        hint = _hint([key])
                        break
            if not common.is_number(mine.result):
                common.fail(f"alphabeta_value on {case.describe()} should return a number (int or float), but it "
                            f"returned {type(mine.result).__name__}: {mine.result!r:.80}",
                            hint or HINTS["returns:move"])
            compare_result("alphabeta_value", case, mine.result, want.result, hint, mine, group.note)
            group.checked += 1

    return judged(group, compare)


def walk_problems(case: Case, run: Run) -> list[tuple[str, str]]:
    """How the search broke the depth-first walk: (hint key, what happened), in order.

    Children must be generated one at a time, in actions() order, each once, each one
    searched before the next is generated; each leaf valued once, when it is reached;
    utility() only on terminal states. is_terminal() and to_move() calls are free.
    """
    game = case.game
    name = namer(case, run)
    problems: list[tuple[str, str]] = []
    # the open path: (node id, state); ids are action paths, so transpositions stay apart
    path: list[tuple[tuple, Any]] = [((), case.state)]
    next_index: dict[tuple, int] = {}
    done: set[tuple] = set()
    evaluated: set[tuple] = set()
    for e in run.trace.events("generate", "utility", "evaluate"):
        if e.kind == "generate":
            at = next((i for i in range(len(path) - 1, -1, -1) if path[i][1] == e.parent), None)
            if at is None:
                problems.append(("eager", f"it generated {name(e.node)} from {name(e.parent)}, a node it had "
                                          "already left: children were generated before being searched"))
                return problems
            del path[at + 1:]
            pid, pstate = path[at]
            acts = list(game.actions(pstate))
            i = next_index.get(pid, 0)
            child = pid + (e.action,)
            if child in done:
                problems.append(("twice", f"it generated {name(e.node)} (child of {name(e.parent)}) twice"))
                return problems
            if i >= len(acts) or acts[i] != e.action:
                expected = name(game.result(pstate, acts[i])) if i < len(acts) else "nothing more"
                problems.append(("order", f"at {name(e.parent)} it generated {name(e.node)} (action "
                                          f"{e.action!r}) when the next child in actions() order was "
                                          f"{expected}"))
                return problems
            next_index[pid] = i + 1
            done.add(child)
            path.append((child, e.node))
        else:
            top_id, top_state = path[-1]
            if top_state != e.node:
                problems.append(("eager", f"it evaluated {name(e.node)} after generating {name(top_state)}: "
                                          "children were generated before being searched"))
                return problems
            if top_id in evaluated:
                problems.append(("twice", f"it evaluated {name(e.node)} twice"))
                return problems
            evaluated.add(top_id)
    if run.recorder is not None:
        for state in run.recorder.attempts:
            if not game.is_terminal(state):
                problems.append(("internal", f"it called utility() on {name(state)}, which is not a terminal "
                                             "state (the error this raises was caught)"))
                return problems
    return problems


def check_children(alphabeta_value: Callable[..., Any]) -> int:
    """Children made one at a time in actions() order, each once; leaves valued once; utility only at the end."""
    group = _value_group("children", alphabeta_value)
    cases = tree_cases(public_trees()) + tree_cases(_seeded("children", 5, 8)) + positions("children")

    def compare() -> None:
        for case in cases:
            mine = run_student(alphabeta_value, case, record=True)
            want = run_value_model(case, group.expected)
            if group.expected.returns == "value":
                common.expect_number(mine.result, f"alphabeta_value on {case.describe()}")
                compare_result("alphabeta_value", case, mine.result, want.result,
                               "this test looks at how your search walks the tree, but the value must be right too",
                               mine)
            if not mine.leaves() and not case.game.is_terminal(case.state):
                common.fail(f"On {case.describe()} your alphabeta_value evaluated no leaf at all: a search has to "
                            "reach terminal states and take their utility.")
            problems = walk_problems(case, mine)
            if problems:
                key, what = problems[0]
                common.fail(f"On {case.describe()} your search broke the depth-first walk: {what}.",
                            _hint([key]), picture(case, mine))
            got, expected = mine.trace.generated(), want.trace.generated()
            if got != expected:
                name_got, name_want = namer(case, mine), namer(case, want)
                raise common.CheckFailed(common.sequence_message(
                    "The children your search generated with game.result (in order)",
                    [name_want(n) for n in expected], [name_got(n) for n in got], f"on {case.describe()}",
                    picture(case, mine), HINTS["unsearched"]) + group.note)
            group.checked += 1

    return judged(group, compare)


def check_pruning(alphabeta_value: Callable[..., Any]) -> int:
    """The leaves evaluated, in order, with the full window: the cut-offs alpha-beta makes."""
    group = _value_group("pruning", alphabeta_value)
    named = {k: v for k, v in public_trees().items()
             if k not in ("a tie at the cut point", "a tie at a MIN cut", "a deep cut-off")}
    cases = tree_cases(named) + tree_cases(_seeded("pruning", 6, 10)) + positions("pruning")
    return _compare_value_search(group, alphabeta_value, cases, values=False, leaves=True,
                                 default_hint="alpha-beta prunes a child as soon as the node's value reaches the "
                                              "bound: compare your search with the course's, cut by cut.")


def check_equality(alphabeta_value: Callable[..., Any]) -> int:
    """Ties at the cut prune (v >= beta at MAX, v <= alpha at MIN)."""
    group = _value_group("equality", alphabeta_value)
    named = {n: _spec_tree(s) for n, s in TIES.items()}
    named.update({k: v for k, v in public_trees().items() if k in ("a tie at the cut point", "a tie at a MIN cut")})
    named.update(_seeded("equality", 6, 10, values=(0, 3)))
    cases = tree_cases(named)
    ttt, race = TicTacToe(), RaceTo(10, 3)
    cases += [Case("TicTacToe, X to move (values -1, 0, 1 tie often)", ttt, ttt.state_from(["X.O", "...", "O.X"], "X")),
              Case("RaceTo(10, 3) at total 2, P1 to move", race, RaceState(2, "P1")),
              Case("Nim heaps [2, 2, 1], P1 to move", Nim(), ((2, 2, 1), "P1"))]
    return _compare_value_search(group, alphabeta_value, cases, values=False, leaves=True,
                                 default_hint=HINTS["strict"])


def check_deep(alphabeta_value: Callable[..., Any]) -> int:
    """Deep cut-offs: a bound set two or more levels up still cuts."""
    group = _value_group("deep", alphabeta_value)
    named = {n: _spec_tree(s) for n, s in DEEP.items()}
    named.update({"the 16-leaf tree": SIXTEEN, "a deep cut-off": trees.public_trees()["a deep cut-off"]})
    named.update(_seeded("deep", 5, 8, depth=5, width=2, values=(-20, 20)))
    cases = tree_cases(named)
    c4 = ConnectFour(4, 4)
    cases += [Case("ConnectFour 4x4, X to move", c4, _c4([1, 2, 3, 2, 3, 3, 2, 3])),
              Case("ConnectFour 4x4, O to move", c4, _c4([3, 0, 0, 1, 0, 2, 0, 2, 2]))]
    return _compare_value_search(group, alphabeta_value, cases, values=False, leaves=True,
                                 default_hint=HINTS["bounds:reset"])


WINDOWS = [
    ("the 8-leaf list", EIGHT, (13, 20)),
    ("the 8-leaf list", EIGHT, (4, 10)),
    ("the 8-leaf list", EIGHT, (0, 2)),
    ("the 16-leaf tree", SIXTEEN, (7, 8)),
    ("the 16-leaf tree", SIXTEEN, (0, 6.5)),
    ("AIMA's tree with MIN at the root", nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]], "MIN"), (-5, -2.5)),
    ("an unbalanced tree", trees.public_trees()["an unbalanced tree"], (5.5, 9)),
    ("negative values", trees.public_trees()["negative values"], (-8, -3)),
]


def check_window(alphabeta_value: Callable[..., Any]) -> int:
    """alpha and beta given by the caller: the window is used, and values are fail-soft."""
    group = _value_group("window", alphabeta_value)
    cases = [Case(n, t, t.initial, w) for n, t, w in WINDOWS]
    ttt, race = TicTacToe(), RaceTo(10, 3)
    cases += [Case("TicTacToe, O to move", ttt, ttt.state_from(["X..", ".O.", "X.X"], "O"), (-0.5, 0.5)),
              Case("RaceTo(10, 3) at total 3, P1 to move", race, RaceState(3, "P1"), (-1, 0)),
              Case("ConnectFour 4x4, O to move", ConnectFour(4, 4), _c4([1, 2, 1, 2, 0, 3, 2, 0, 3]), (0, 1))]
    for rng in [common.rng(LAB, "window")] + ([common.rng(LAB, "window", True)] if common.has_secret() else []):
        for name, t in _seeded_from(rng, 6).items():
            vals = sorted(set(t.leaf_values()))
            a = rng.choice(vals) - 0.5
            b = a + rng.choice([1, 2, 4])
            cases.append(Case(name, t, t.initial, (a, b)))
    return _compare_value_search(group, alphabeta_value, cases, values=True, leaves=True,
                                 default_hint=HINTS["fail_hard"])


def _seeded_from(rng: random.Random, n: int) -> dict[str, GameTree]:
    return {f"random tree #{i + 1}": trees.random_tree(rng, max_depth=rng.randint(2, 4), max_branching=3)
            for i in range(n)}


# -- the groups of alphabeta_decision -----------------------------------------------------------

def _decision_group(name: str, alphabeta_decision: Callable[..., Any],
                    alphabeta_value: Callable[..., Any] | None) -> Group:
    def profiler() -> tuple[Flags | None, Flags, list[str]]:
        vprofile = value_profile(alphabeta_value) if alphabeta_value is not None else None
        profile = decision_profile(alphabeta_decision, vprofile)
        keys = mistakes(profile, name)
        if name == "decision":  # a perspective shared with alphabeta_value is graded in 'value'
            keys = [k for k in keys if k != "perspective"]
            if profile is not None and profile.perspective != (vprofile.perspective if vprofile else "root"):
                keys.append("perspective")
        return profile, expected_flags(profile, name, vprofile), keys

    return Group(name, profiler)


def _decision_cases(group: str) -> list[Case]:
    named = {k: v for k, v in public_trees().items() if k != "a terminal root"}
    named.update({
        "a tie between root moves": nested([[2, 7], [5, 3], [1, 9], [5, 8]]),
        "a tree where the first move is not the best": nested([[1, 2], [6, 7], [3, 9]]),
        "three equal root moves": nested([[4, 6], [4, 5], [4, 9]]),
    })
    named.update(_seeded(group, 6, 10))
    cases = tree_cases(named)
    ttt = TicTacToe()
    cases += [Case("TicTacToe, X can win at once", ttt, ttt.state_from(["XX.", "OO.", "..."], "X")),
              Case("TicTacToe, O must block", ttt, ttt.state_from(["XX.", ".O.", "..."], "O"))]
    cases += positions(group)
    return cases


def check_decision(alphabeta_decision: Callable[..., Any], alphabeta_value: Callable[..., Any] | None = None) -> int:
    """The first best action in actions() order, as an action, for either player."""
    group = _decision_group("decision", alphabeta_decision, alphabeta_value)
    cases = _decision_cases("decision")
    answers = {i: answer(alphabeta_decision, case) for i, case in enumerate(cases)}  # only the move counts here

    def compare() -> None:
        for i, case in enumerate(cases):
            want = run_decision_model(case, group.expected)
            if answers[i] is not NO_ANSWER and common.same(answers[i], want.result):
                group.checked += 1
                continue
            mine = run_student(alphabeta_decision, case)
            hint = group.hint
            if not hint and not common.same(mine.result, want.result):
                for key, change in (("tie:last", {"tie": "last"}), ("early_return", {"early_return": True}),
                                    ("decision_returns:value", {"decision_returns": "value"})):
                    alt = run_decision_model(case, replace(group.expected, **change))
                    if common.same(mine.result, alt.result):
                        hint = _hint([key])
                        break
                if not hint:
                    for p in ("initial", "first"):
                        alt = run_decision_model(case, replace(group.expected, perspective=p))
                        if common.same(mine.result, alt.result):
                            hint = _hint(["perspective"])
                            break
            legal = case.game.actions(case.state)
            if not any(common.same(mine.result, a) for a in legal) and not hint:
                hint = (f"alphabeta_decision returns one of game.actions(state): here {legal!r:.100}.")
            compare_result("alphabeta_decision", case, mine.result, want.result, hint, mine, group.note)
            group.checked += 1

    return judged(group, compare)


def check_decision_pruning(alphabeta_decision: Callable[..., Any],
                           alphabeta_value: Callable[..., Any] | None = None) -> int:
    """The decision prunes too: the best value so far goes down as alpha to the next root move."""
    group = _decision_group("decision_pruning", alphabeta_decision, alphabeta_value)
    cases = [c for c in _decision_cases("decision_pruning")]
    cases.append(Case("a tree where later root moves are cut", nested([[5, 6], [3, 9, 3], [4, 1], [8, 2, 7]]),
                      nested([[5, 6], [3, 9, 3], [4, 1], [8, 2, 7]]).initial))
    def compare() -> None:
        for case in cases:
            mine = run_student(alphabeta_decision, case)
            want = run_decision_model(case, group.expected)
            if mine.leaves() != want.leaves():
                hint = group.hint or _diagnose(case, mine, ["root_alpha"], run_decision_model, group.expected)
                compare_leaves("your alphabeta_decision", case, mine, want, hint, group.note)
            group.checked += 1

    return judged(group, compare)
