"""Lab 01's test groups (game trees): the student's Nim, count_nodes and tree_stats.

Nim is checked by behaviour only, against the grader's own `ReferenceNim`: every
position of small games is compared (to_move, is_terminal, actions in order, utility),
so any immutable, hashable state representation is accepted.
"""

from __future__ import annotations

import copy
from functools import partial
from typing import Any

from course_lib.explain_tree import explain_measure
from course_lib.games import GameTree
from course_lib.trace import Traced

from ...channel.wire import Proxy, fingerprint
from .. import common, kit
from ..kit import tree_picture as picture
from . import cases as data
from . import reference
from .reference import ReferenceNim, reference_stats

data = kit.DrawnFirst(data)  # a self-check meets the cases drawn for it first; final grading: as built

# -- Nim ------------------------------------------------------------------------------

ORDER_HINT = ("list the actions in the documented order: heaps left to right and, within a heap, "
              "take 1, 2, ... up to the whole heap (actions() order)")


def _make(Nim: Any, heaps: tuple) -> Any:
    return common.call(Nim, heaps, where=f"(building Nim({heaps}))")


def _where(heaps: tuple, moves: list, ref_state: Any) -> str:
    after = f", after the moves {moves}" if moves else " (the initial state)"
    return f"in Nim({heaps}){after}: heaps {ref_state.heaps}, {ref_state.to_move} to move"


def _walk_rules(game: Any, ref: ReferenceNim, s: Any, r: Any, heaps: tuple, moves: list,
                mover: Any = None) -> int:
    """Compare the student's game with the reference at `s` and below; the count of positions."""
    where = _where(heaps, moves, r)
    got = common.call(game.to_move, s, where=where)
    expected = ref.to_move(r)
    if not common.same(got, expected):
        hint = ("players not alternating: after a move, result() must give the turn to the other player"
                if moves and common.same(got, mover) else "players are 'P1' (who moves first) and 'P2'")
        common.fail(f"to_move() {where}: expected {expected!r}, yours returned {got!r}.", hint)
    term = common.call(game.is_terminal, s, where=where)
    if not common.same(term, ref.is_terminal(r)):
        common.fail(f"is_terminal() {where}: expected {ref.is_terminal(r)!r}, yours returned {term!r}.",
                    "the game is over exactly when every heap is empty (is_terminal returns a bool)")
    acts = common.call(game.actions, s, where=where)
    exp_acts = ref.actions(r)
    if not common.same(acts, exp_acts):
        if isinstance(acts, (list, tuple)) and sorted(map(repr, acts)) == sorted(map(repr, exp_acts)) \
                and type(acts) is list:
            hint = ORDER_HINT
        elif isinstance(acts, (list, tuple)) and any(isinstance(a, tuple) and len(a) == 2 and a[1] == 0 for a in acts):
            hint = "taking 0 is not a move: a move takes at least one object"
        elif type(acts) is not list:
            hint = f"actions() should return a list of (heap, count) tuples, not a {type(acts).__name__}"
        else:
            hint = "one action per (heap, count) with 1 <= count <= the heap's size; " + ORDER_HINT
        raise common.CheckFailed(common.sequence_message(f"The actions {where}", exp_acts, acts, hint=hint))
    if term:
        for player in ref.players:
            u = common.call(game.utility, s, player, where=where)
            if not common.same(u, ref.utility(r, player)):
                common.fail(f"utility(state, {player!r}) {where}: expected {ref.utility(r, player)!r}, "
                            f"yours returned {u!r}.",
                            "taking the last object wins: the player who just moved (the one NOT to move "
                            "in the final state) gets +1, the other -1")
        return 1
    n = 1
    for a in exp_acts:
        # A fresh copy each time: mutation is the business of the 'nim_immutable' test.
        child = common.call(game.result, copy.deepcopy(s), a, where=f"for the move {a} {where}")
        n += _walk_rules(game, ref, child, ref.result(r, a), heaps, moves + [a], expected)
    return n


def check_nim_rules(Nim: Any) -> int:
    """Every position of small Nim games: to_move, is_terminal, actions in order, utility."""
    n = 0
    for heaps in data.heaps("nim_rules"):
        game, ref = _make(Nim, heaps), ReferenceNim(heaps)
        players = getattr(game, "players", None)
        if not common.same(players, ref.players):
            common.fail(f"Nim.players should be {ref.players!r}, yours is {players!r}.")
        n += _walk_rules(game, ref, game.initial, ref.initial, heaps, [])
    return n


def _attributes(game: Any) -> dict:
    """The game object's attributes, pictured (a game in the submission's kernel is pictured there)."""
    if isinstance(game, Proxy):
        picture = fingerprint(game)[1]  # ["remote", [type name, [["dict", [[repr(name), picture], ...]]]]]
        try:
            return {name: value for name, value in picture[1][1]}
        except (TypeError, ValueError, IndexError):
            return {"": picture}
    return {k: fingerprint(v) for k, v in getattr(game, "__dict__", {}).items()}


def _walk_immutable(game: Any, ref: ReferenceNim, s: Any, r: Any, heaps: tuple, moves: list,
                    visited: list) -> None:
    """Walk the student's tree; fail as soon as result() changes its state or the game."""
    where = _where(heaps, moves, r)
    visited.append((s, r, moves))
    if ref.is_terminal(r):
        return
    for a in ref.actions(r):
        state_before = copy.deepcopy(s)
        game_before = _attributes(game)
        child = common.call(game.result, s, a, where=f"for the move {a} {where}")
        if fingerprint(s) != fingerprint(state_before):
            common.fail(f"result(state, {a}) changed the state it was given {where}.\n"
                        f"  before: {state_before!r}\n  after:  {s!r}",
                        "state mutated: result() must build and return a new state (a new tuple) and "
                        "leave the one it was given unchanged")
        game_after = _attributes(game)
        if game_after != game_before:
            changed = sorted(k for k in set(game_before) | set(game_after) if game_before.get(k) != game_after.get(k))
            common.fail(f"result(state, {a}) changed your game object {where} (attributes {', '.join(changed)}).",
                        "state mutated: everything about a position belongs in the state; result() must not "
                        "change the game")
        if child is s:
            common.fail(f"result(state, {a}) returned the very state it was given {where}.",
                        "state mutated: return a new state")
        _walk_immutable(game, ref, child, ref.result(r, a), heaps, moves + [a], visited)


def _check_hashable(visited: list, heaps: tuple) -> None:
    """Every state hashes; two move orders reaching one position give equal states, equal hashes."""
    seen: dict = {}
    for s, r, moves in visited:
        where = _where(heaps, moves, r)
        try:
            h = hash(s)
        except TypeError as exc:
            common.fail(f"The state {where} cannot be hashed ({exc}).",
                        "states must be hashable (and immutable): use tuples (or a NamedTuple), not lists, "
                        "sets or dicts")
        key = (r.heaps, r.to_move)
        if key not in seen:
            seen[key] = (s, h, moves)
            continue
        other, other_hash, other_moves = seen[key]
        try:
            same_state = s == other
        except Exception:  # a student's __eq__ that fails is reported as "not equal"
            same_state = False
        if not (same_state is True and other_hash == h):
            common.fail(f"Two move orders reach the same position ({r}) but your states are not equal "
                        f"(==) with the same hash: the moves {other_moves} and {moves}.",
                        "equal positions must give equal states (a NamedTuple or a tuple does this "
                        "for you) so that searches can recognise them")


def check_nim_immutable(Nim: Any) -> int:
    """result() never changes its state or the game; states are hashable; equal positions are equal."""
    n = 0
    for heaps in data.heaps("nim_immutable"):
        game, visited = _make(Nim, heaps), []
        _walk_immutable(game, ReferenceNim(heaps), game.initial, ReferenceNim(heaps).initial, heaps, [], visited)
        _check_hashable(visited, heaps)
        n += len(visited)
    return n


def _is_illegal_move_error(exc: BaseException) -> bool:
    # By name: the hidden test imports course_lib afresh, so the class object differs.
    return isinstance(exc, ValueError) and any(c.__name__ == "IllegalMoveError" for c in type(exc).__mro__)


def check_nim_illegal(Nim: Any) -> int:
    """Illegal moves raise IllegalMoveError (a ValueError) naming the move."""
    n = 0
    for heaps in data.ILLEGAL_HEAPS + data.heaps("nim_illegal"):
        game, ref = _make(Nim, heaps), ReferenceNim(heaps)
        positions = [(game.initial, ref.initial, [])]
        first = ref.actions(ref.initial)[0]
        positions.append((common.call(game.result, copy.deepcopy(game.initial), first, where=f"in Nim({heaps})"),
                          ref.result(ref.initial, first), [first]))
        for s, r, moves in positions:
            if ref.is_terminal(r):
                continue
            where = _where(heaps, moves, r)
            for action, why in data.illegal_moves(r.heaps):
                try:
                    got = game.result(copy.deepcopy(s), action)
                except BaseException as exc:  # noqa: B036 - the student's code may raise anything
                    if isinstance(exc, (KeyboardInterrupt, SystemExit)) or type(exc).__name__ == "CheckTimeout":
                        raise
                    if not _is_illegal_move_error(exc):
                        common.fail(f"result(state, {action}) {where} raised {type(exc).__name__}: {exc}",
                                    f"{why}: raise IllegalMoveError(action, legal_moves) (from "
                                    "course_lib.games) for every illegal move")
                    if repr(action) not in str(exc):
                        common.fail(f"result(state, {action}) {where} raised IllegalMoveError, but its "
                                    f"message does not name the move {action!r}: {str(exc)[:200]!r}",
                                    "IllegalMoveError(action, legal_moves) writes a message naming both")
                    n += 1
                    continue
                common.fail(f"result(state, {action}) {where} returned {got!r} instead of raising "
                            "IllegalMoveError.", f"{why}: result() must reject illegal moves")
    return n


# -- count_nodes and tree_stats ---------------------------------------------------------

def _pic(game: Any) -> str:
    return picture(game) if isinstance(game, GameTree) and len(game.nodes()) <= 31 else ""


def _named(mistakes: Any, seen: list[tuple[Any, Any, Any]]) -> list[str]:
    """The hints of the mistakes whose models return what the student's function returned on every case seen
    (``(game, state, value)``): a mistake is named only when it explains all of them, never from one value."""
    return [m.hint for m in mistakes
            if all(common.is_number(v) and common.same(m.model(g, s), v) for g, s, v in seen)]


def _seen(fn: Any, cases: Any, pick: Any) -> list[tuple[Any, Any, Any]]:
    """What `fn` returned on each case (through `pick`), leaving out the cases where it raised."""
    out = []
    for case in cases:
        try:
            out.append((case.game, case.state, pick(common.call(fn, case.game, case.state))))
        except (common.CheckFailed, TypeError, IndexError):
            continue
    return out


def _explain(fn: Any, case: Any, measure: str, pick: Any) -> str | None:
    """The first wrong step of the student's function on `case` (`course_lib.explain_tree`): the same question asked
    twice, the walk, or the deepest node whose number is wrong; None when the tree is too large to go through."""
    facts = reference.tree_facts(case.game, case.state, limit=3000)
    if facts is None:
        return None
    small = facts.value(0, "nodes") <= 400  # the walk is read from a traced run: calls come back over the channel

    def student(game: Any, state: Any) -> Any:
        return pick(common.call(fn, game, state, where=f"on {case.name}"))

    try:
        return explain_measure(case.name, case.game, case.state, student, facts, measure, walk=small)
    except common.CheckFailed:
        return None
    except Exception:  # noqa: BLE001 - an explanation must never hide the failure itself
        return None


def _hint(explained: str | None, named: list[str], cases: int, advice: str) -> str:
    """The first wrong step, then the known mistakes whose models reproduce every case of the group."""
    if explained is None:
        return kit.join_hints(named) or f"your numbers match none of the known mistakes: {advice}"
    if not named:
        return explained
    line = f"Known mistake (its model reproduces all {cases} cases): " if len(named) == 1 else (
        f"Known mistakes (each model reproduces all {cases} cases):\n  - ")
    return explained + "\n" + line + "\n  - ".join(named)


def check_count_nodes(count_nodes: Any) -> int:
    """count_nodes on trees and game positions: the root counted, every node once."""
    n = 0
    cases = data.games("count_nodes")
    for case in cases:
        name, game, state = case.name, case.game, case.state
        ref = reference_stats(game, state)
        # Only a tree's trace is read (which nodes were generated): other games cross to the
        # submission's kernel by value and run there at full speed.
        traced = Traced(game) if isinstance(game, GameTree) else game
        got = common.call(count_nodes, traced, state, where=f"on {name}")
        if type(got) is not int:
            common.fail(f"count_nodes on {name} should return an int, yours returned "
                        f"{type(got).__name__}: {got!r:.80}")
        if got != ref.nodes:
            seen = _seen(count_nodes, cases, lambda v: v)
            hint = _hint(_explain(count_nodes, case, "nodes", lambda v: v),
                         _named(reference.COUNT_MISTAKES, seen), len(seen),
                         "count every node once, 1 for the state itself plus the nodes below each child")
            common.fail(f"count_nodes on {name}: {kit.expected_text(case, ref.nodes)}, yours returned {got}.", hint,
                        _pic(game))
        if isinstance(game, GameTree):
            missing = [c for c in game.nodes()[1:] if c not in set(traced.trace.generated())]
            if missing:
                common.fail(f"count_nodes on {name} never generated {missing[0]} with result().",
                            "count the nodes by exploring the tree with actions() and result()", _pic(game))
        n += 1
    return n


FIELDS = ("depth", "leaves", "branching")
KINDS = ("depth is a whole number of plies (an int)", "the number of leaves is an int",
         "branching is a float: 0.0 (not the int 0) for a terminal state, (nodes - 1) / internal nodes (true "
         "division, a float) otherwise")
ADVICE = ("depth is the number of plies (moves) on the longest path from the state to a terminal state",
          "a leaf is a terminal state: count each one once",
          "the average branching factor is (children of all internal nodes) / (number of internal nodes); "
          "0.0 when the state is terminal")


def _stats_of(tree_stats: Any, name: str, game: Any, state: Any) -> tuple:
    got = common.call(tree_stats, game, state, where=f"on {name}")
    fields = getattr(type(got), "_fields", None)
    if not isinstance(got, tuple) or len(got) != 3 or (fields is not None and tuple(fields) != FIELDS):
        common.fail(f"tree_stats on {name} returned {got!r:.120}.",
                    "return TreeStats(depth, leaves, branching) (or the plain tuple (depth, leaves, branching))")
    return tuple(got)


def _field(stats: Any, index: int) -> Any:
    """One field of what tree_stats returned (anything else is left for the group's own checks)."""
    if not isinstance(stats, tuple) or len(stats) != 3:
        raise common.CheckFailed("tree_stats did not return three numbers")
    value = stats[index]
    return float(value) if index == 2 and common.is_number(value) else value


def _field_check(tree_stats: Any, group: str, index: int) -> int:
    """One field on every case. A branching of the right size that is not a float (the int 0 for a terminal
    state) fails only once every case's number is right, so a wrong number is explained first."""
    n = 0
    cases = data.games(group)
    not_float = None
    for case in cases:
        name, game, state = case.name, case.game, case.state
        got = _stats_of(tree_stats, name, game, state)[index]
        field = FIELDS[index]
        expected = reference.tree_stats(game, state)[index]
        if index < 2:
            typed, ok = type(got) is int, type(got) is int and got == expected
        else:
            typed = common.is_number(got)
            ok = typed and common.same(float(got), expected)
            if ok and not isinstance(got, float) and not_float is None:
                not_float = (case, expected, got)
        if not ok:
            if not typed:
                hint = KINDS[index]
            else:
                seen = _seen(tree_stats, cases, lambda v: v[index])
                hint = _hint(_explain(tree_stats, case, field, partial(_field, index=index)),
                             _named(reference.STATS_MISTAKES[index], seen), len(seen), ADVICE[index])
            shown = kit.expected_text(case, expected).replace("expected ", f"expected {field} = ")
            common.fail(f"tree_stats on {name}: {shown}, yours is {got!r}.", hint, _pic(game))
        n += 1
    if not_float is not None:
        case, expected, got = not_float
        shown = kit.expected_text(case, expected).replace("expected ", "expected branching = ")
        common.fail(f"tree_stats on {case.name}: {shown} (a float), yours is the {type(got).__name__} {got!r}.",
                    KINDS[2], _pic(case.game))
    return n


def check_tree_stats_depth(tree_stats: Any) -> int:
    """tree_stats(...).depth: plies on the longest path."""
    return _field_check(tree_stats, "tree_stats_depth", 0)


def check_tree_stats_leaves(tree_stats: Any) -> int:
    """tree_stats(...).leaves: the terminal states."""
    return _field_check(tree_stats, "tree_stats_leaves", 1)


def check_tree_stats_branching(tree_stats: Any) -> int:
    """tree_stats(...).branching: the average number of children of internal nodes."""
    return _field_check(tree_stats, "tree_stats_branching", 2)


#: Each group's public cases and correct model: what `python -m coursetools golden` writes down.
GOLDEN = {
    "count_nodes": (lambda: data.public_games() + data.three_question_games(), reference.count_nodes),
    "tree_stats": (data.public_games, reference.tree_stats),
}
