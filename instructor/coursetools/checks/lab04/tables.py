"""Lab 04's table groups (`alphabeta_tt_value`): the table's entries must be true statements.

- ``tt_trees``: on explicit trees with an empty table the search is plain alpha-beta (ordered trace),
  every entry is a true statement (value, bound flag, depth), and a second search answers from the table.
- ``tt_games``: values of at least 1,000 TicTacToe and ConnectFour 4x4 positions and of number-picking
  positions (where the same total comes with either player to move), with fresh and shared tables.
- ``tt_depth``: depth-limited searches with an evaluation function, a table shared by searches of
  increasing depth.

A wrong value is explained by the first false entry of the table when there is one: an entry is a
claim about its state that the grader checks against exact minimax (`reference.Solver`), so the hint
rests on what the student's table holds. The table contract (stated in the notebook): the caller owns a
plain dict and may keep it across searches whose root player is the same; the key is the state itself
(player to move included); an entry is ``(value, flag, depth)`` with the value from the root player's
view, the flag ``"exact"``, ``"lower"`` or ``"upper"`` for the window the state was entered with, and the
depth argument it was searched with (``math.inf`` to the end of the game).
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from functools import partial
from typing import Any, Callable, Iterator

from course_lib.explain import explain_table
from course_lib.games import ConnectFour, GameTree, TicTacToe
from course_lib.trace import Traced

from .. import common, kit
from ..kit import tree_picture as picture
from . import cases as data
from . import reference as ref
from .reference import EXACT, FLAGS, LOWER, UPPER, Solver, tree_value

data = kit.DrawnFirst(data)  # a self-check meets the cases drawn for it first; final grading: as built

BOUND_HINT = ("a value found after a cut-off is only a bound: at the player's node v >= beta gives a LOWER "
              "bound, at the opponent's node v <= alpha gives an UPPER bound; store EXACT only when "
              "alpha < v < beta for the alpha and beta the state was entered with (not the updated ones)")
KEY_HINT = ("key the table by the state itself: the same board (or total) with the other player to move "
            "is a different position with a different value")
DEPTH_HINT = ("reuse an entry only when it was searched at least as deep as this search needs "
              "(entry depth >= depth); an entry from a shallower search answers a different question")
LOOKUP_HINT = "look the state up in the table first: an entry that answers the question ends the search there"


def short(node: Any) -> str:
    """A one-line name of a node for sequences in messages."""
    board = getattr(node, "board", None)
    if isinstance(board, str):
        return f"{board}/{node.to_move}"
    return str(node)


def describe(game: Any, state: Any) -> str:
    if isinstance(game, GameTree):
        return str(state)
    return "\n" + game.display(state)



# -- the first entry stored or read that differs (`course_lib.explain.explain_table`) ---------------------

def explain_call(student: Callable, where: str, game: Any, state: Any, before: dict, depth: float = math.inf,
                 evaluate: Callable | None = None) -> str | None:
    """The student's search run again, traced, on a copy of the table it was given (`before`), against the correct
    table search on another copy: the lab's way of reading an entry, or the one that narrows the window when it follows
    the student's steps longer, or EXACT entries only when that takes every step the student's search took. The first
    entry stored or read that differs, or None."""
    extra = lambda g: (depth,) + ((g.evaluator(evaluate),) if evaluate is not None else ())  # noqa: E731
    if isinstance(game, GameTree):
        truth = _tree_truth(game, evaluate)
    else:
        solver, player = Solver(game, evaluate), game.to_move(state)
        truth = _game_truth(solver, player)
    mine, table = Traced(game), dict(before)
    try:
        common.call(student, mine, state, table, *extra(mine))
    except common.CheckFailed:
        return None
    got = [(e.kind, e.node) for e in mine.trace.events("generate", "utility", "evaluate")]
    best = None
    for read in ref.TT_READS:
        theirs = Traced(game)
        try:
            _, visits = ref.tt_visits(theirs, state, dict(before), *extra(theirs), read=read, truth=truth)
        except Exception:  # noqa: BLE001 - a way of reading that cannot run here explains nothing
            continue
        want = [(e.kind, e.node) for e in theirs.trace.events("generate", "utility", "evaluate")]
        agree = common.first_difference(want, got)
        agree = len(want) + 1 if agree is None else agree
        if read == "exact" and agree <= len(want):
            continue  # EXACT entries only: the student's way only when it takes every step that way
        if best is None or agree > best[0]:
            best = (agree, visits, want, theirs)
    if best is None:
        return None
    name = short if hasattr(state, "board") else str
    try:
        return explain_table(where, best[1], best[2], got, table, game, name)
    except Exception:  # noqa: BLE001 - an explanation must never hide the failure itself
        return None


# -- comparing traces -------------------------------------------------------------------------------

def compare(name: str, student: Callable, reference: Callable, game: Any, state: Any, *, case: str,
            args: Callable[[Traced], tuple] = lambda g: (), hints: dict[str, str] | None = None,
            result_kind: str = "value", revalue: bool = False) -> tuple[Traced, Any]:
    """Run both on traced copies of `game` (with arguments made for each copy); fail on a difference.

    Checked in order: the result (exact type), the leaves valued (utility or evaluate)
    in order, no leaf of a tree valued twice (unless `revalue`), the children generated in order.
    """
    hints = hints or {}
    mine, theirs = Traced(game), Traced(game)
    expected = reference(theirs, state, *args(theirs))
    got = common.call(student, mine, state, *args(mine), where=f"on {case}")
    pic = picture(game)
    if result_kind == "value":
        common.expect_number(got, f"{name} on {case}")
    if not common.same(got, expected):
        common.fail(f"{name} on {case}: expected {expected!r}, yours returned {got!r}.",
                    hints.get("result", ""), pic)
    exp_leaves = [short(n) for n in theirs.trace.leaves()]
    got_leaves = [short(n) for n in mine.trace.leaves()]
    if exp_leaves != got_leaves:
        raise common.CheckFailed(common.sequence_message(
            "The leaves your search valued (in order)", exp_leaves, got_leaves, f"on {case}",
            pic, hints.get("leaves", "")))
    # In a game (not a tree) one state may be reached by two paths and valued twice.
    twice = mine.trace.repeated("utility") + mine.trace.repeated("evaluate")
    if twice and isinstance(game, GameTree) and not revalue:
        common.fail(f"On {case} your search valued {describe(game, twice[0])} more than once.",
                    hints.get("twice", "keep the value a call returned instead of calling again"), pic)
    exp_gen = [short(n) for n in theirs.trace.generated()]
    got_gen = [short(n) for n in mine.trace.generated()]
    if exp_gen != got_gen:
        raise common.CheckFailed(common.sequence_message(
            "The children your search generated with result() (in order)", exp_gen, got_gen,
            f"on {case}", pic, hints.get("generated", "")))
    return mine, got



# -- alphabeta_tt_value: the table's entries --------------------------------------------------------

def _entry_text(entry: Any) -> str:
    return f"{entry!r:.120}"


def check_entries(table: Any, truth: Callable[[Any, float], float], *, case: str, game: Any,
                  full_depth: bool, is_state: Callable[[Any], bool],
                  explain: Callable[[], str | None] | None = None) -> None:
    """Every entry must be (value, flag, depth) and a true statement about its state.

    `truth(state, depth)` is the depth-limited minimax value from the root player's view.
    """
    if not isinstance(table, dict):
        common.fail(f"the table should stay a dict, but after your search {case} it is {type(table).__name__}.")
    for key, entry in table.items():
        if not is_state(key):
            common.fail(f"after your search {case} the table has the key {key!r:.80}, which is not a state "
                        "of the game.", KEY_HINT)
        if not isinstance(entry, (tuple, list)) or len(entry) != 3:
            common.fail(f"table entries should be (value, flag, depth) triples; after your search {case} "
                        f"the entry of {describe(game, key)}\nis {_entry_text(entry)}.")
        value, flag, depth = entry
        if not common.is_number(value):
            common.fail(f"the value of a table entry should be a number; after your search {case} the entry of "
                        f"{describe(game, key)}\nis {_entry_text(entry)}.")
        if type(flag) is not str or flag not in FLAGS:
            common.fail(f"the flag of a table entry should be EXACT, LOWER or UPPER ({FLAGS}); after your search {case} the "
                        f"entry of {describe(game, key)}\nis {_entry_text(entry)}.")
        terminal = game.is_terminal(key)
        if not (type(depth) is int and depth >= 0 or depth == math.inf and type(depth) is float):
            common.fail(f"the depth of a table entry should be an int >= 0 or math.inf; after your search {case} "
                        f"the entry of {describe(game, key)}\nis {_entry_text(entry)}.")
        if full_depth and not terminal and depth != math.inf:
            common.fail(f"after your search {case} (to the end of the game, depth=math.inf) the entry of "
                        f"{describe(game, key)}\nis {_entry_text(entry)}: its depth should be math.inf, the depth "
                        "this state was searched with.", "store the depth argument of the call that searched the state")
        true = truth(key, depth)
        ok = (common.same(value, true) if flag == EXACT else value <= true + 1e-9 if flag == LOWER
              else value >= true - 1e-9)
        if not ok:
            claim = {EXACT: f"its value is exactly {value!r}", LOWER: f"its value is at least {value!r}",
                     UPPER: f"its value is at most {value!r}"}[flag]
            hint = BOUND_HINT
            if terminal and flag == EXACT:
                hint = ("a terminal state is worth its utility at any depth: test is_terminal before depth == 0, "
                        "and never evaluate a terminal state")
            elif depth == 0 and flag == EXACT:
                hint = "at depth 0 a non-terminal state is worth evaluate(state, player) for the root player"
            found = (explain.for_key(key) if isinstance(explain, Calls) else explain()) if explain is not None else None
            common.fail(f"after your search {case} the table's entry {_entry_text(entry)} says that {claim} "
                        f"(from the root player's view, searched {depth} plies deep), but its value is {true!r}. "
                        f"The state: {describe(game, key)}", found or hint, picture(game))


def leaves_stored(table: dict, mine: Traced, where: str, game: Any) -> None:
    """Every leaf the search valued (a terminal state, or a state at depth 0) has an entry."""
    missing = [n for n in mine.trace.leaves() if n not in table]
    if missing:
        common.fail(f"after your search {where} the table has no entry for {describe(game, missing[0])}, a leaf your "
                    f"search valued ({len(missing)} such leaves in all).",
                    "store every state you search, leaves included: a terminal state as (utility, EXACT, math.inf), "
                    "a state at depth 0 as (evaluate(state, player), EXACT, 0)", picture(game))


@contextmanager
def diagnosis(table: dict, truth: Callable, case: str, game: Any, full_depth: bool,
              is_state: Callable[[Any], bool], explain: Callable[[], str | None] | None = None) -> Iterator[None]:
    """On a failure inside the block, explain it by a false table entry when there is one, with the first entry
    stored or read that differs (`explain`)."""
    try:
        yield
    except common.CheckFailed as failure:
        try:
            check_entries(table, truth, case=case, game=game, full_depth=full_depth, is_state=is_state,
                          explain=explain)
        except common.CheckFailed as better:
            raise better from None
        found = explain() if explain is not None else None
        if found:
            raise common.CheckFailed(_with_hint(str(failure), found)) from None
        raise failure from None


class Calls:
    """The searches that filled one table, each with the table it was given: a false entry is explained by the
    search that stored it (only that one is run again)."""

    def __init__(self, table: dict):
        self.table, self.calls = table, []

    def add(self, before: dict, explain: Callable[[], str | None]) -> None:
        self.calls.append((before, explain))

    def for_key(self, key: Any, more: int = 3) -> str | None:
        """The explanation of the search that stored `key`'s entry, else of the first `more` searches before it (one
        of them may have read an entry wrongly and so stored values that were wrong to begin with)."""
        for i in reversed(range(len(self.calls))):  # the search that set the entry the table holds now
            before, explain = self.calls[i]
            after = self.calls[i + 1][0] if i + 1 < len(self.calls) else self.table
            if key in after and (key not in before or before[key] != after[key]):
                return explain() or next((text for text in (e() for _, e in self.calls[:min(i, more)]) if text), None)
        return None

    def __call__(self) -> str | None:
        return self.calls[-1][1]() if self.calls else None


def _with_hint(message: str, hint: str) -> str:
    """`message` with its hint replaced by `hint` (the drawing after it kept)."""
    head, sep, rest = message.partition("\nHint: ")
    if not sep:
        return f"{message}\nHint: {hint}"
    tail = rest[rest.index("\nThe tree:"):] if "\nThe tree:" in rest else ""
    return f"{head}\nHint: {hint}{tail}"


# -- alphabeta_tt_value on trees --------------------------------------------------------------------

def _ignore_table(game: Any, state: Any, table: Any, depth: float = math.inf, evaluate: Any = None) -> float:
    return ref.depth_limited_alphabeta(game, state, depth, evaluate)


def _tree_truth(tree: GameTree, evaluate: Callable | None = None) -> Callable[[Any, float], float]:
    player = tree.to_move(tree.initial)
    return lambda node, depth: tree_value(tree, node, player, depth, evaluate)


def check_tt_trees(alphabeta_tt_value: Callable) -> int:
    n = 0
    hints = {"leaves": "with an empty table on a tree (no state is reached twice) your search is plain "
                       "alpha-beta: children in actions() order, prune when v >= beta (MAX) or v <= alpha (MIN)",
             "result": "with an empty table on a tree your search should return alpha-beta's value"}
    for c in data.tree_cases("tt_trees"):
        case, tree = c.name, c.game
        table: dict = {}
        nodes = set(tree.nodes())
        first = partial(explain_call, alphabeta_tt_value, f"{case} (empty table)", tree, tree.initial, {})
        with diagnosis(table, _tree_truth(tree), f"on {case}", tree, True, nodes.__contains__, first):
            mine, _ = compare("alphabeta_tt_value", alphabeta_tt_value, _ignore_table, tree, tree.initial,
                              case=f"{case} (empty table)", args=lambda g, t=table: (t,), hints=hints)
        leaves_stored(table, mine, f"on {case}", tree)
        check_entries(table, _tree_truth(tree), case=f"on {case}", game=tree, full_depth=True,
                      is_state=nodes.__contains__, explain=first)
        root = tree.initial
        if not tree.is_terminal(root):
            entry = table.get(root)
            if entry is None:
                common.fail(f"after your search on {case} the table has no entry for the root.",
                            "store every state you searched, the root included, before returning")
            if entry[1] != EXACT:
                common.fail(f"after your search on {case} the root's entry is {entry!r}: the root is searched with "
                            "the whole window (-inf, +inf), so its value is EXACT.",
                            f"the flag is decided by comparing v with the window the state was entered with: for the "
                            f"root, alpha = -inf < v = {entry[0]!r} < beta = +inf, so EXACT (UPPER needs v <= alpha, "
                            "LOWER v >= beta)")
        again, before = Traced(tree), dict(table)
        v1 = ref.depth_limited_alphabeta(tree, root)
        v2 = common.call(alphabeta_tt_value, again, root, table, where=f"on {case} (second search, same table)")
        second = partial(explain_call, alphabeta_tt_value, f"{case}, second search with the table of the first",
                         tree, root, before)
        if not common.same(v2, v1):
            common.fail(f"searching {case} a second time with the table of the first search returned {v2!r}; "
                        f"the value is {v1!r}.", second() or LOOKUP_HINT)
        if again.trace.count("generate"):
            common.fail(f"searching {case} a second time with the table of the first search generated "
                        f"{again.trace.count('generate')} children; the table's entry for the root already "
                        "gives the value, so nothing needs generating.", second() or LOOKUP_HINT)
        n += 1
    return n


# -- alphabeta_tt_value on games: values of many positions ------------------------------------------

def _game_truth(solver: Solver, player: Any) -> Callable[[Any, float], float]:
    return lambda state, depth: solver.value(state, player, depth)


def _state_of(game: Any) -> Callable[[Any], bool]:
    kind = type(game.initial)
    return lambda key: type(key) is kind


def _value_failure(name: str, game: Any, state: Any, got: Any, expected: Any, table: dict, truth: Callable,
                   where: str, full_depth: bool, explain: Callable[[], str | None] | None = None) -> None:
    """Explain a wrong value with what the table holds and the first entry stored or read that differs, then fail."""
    common.expect_number(got, f"{name} {where}")
    check_entries(table, truth, case=where, game=game, full_depth=full_depth, is_state=_state_of(game),
                  explain=explain)
    hint = (explain() if explain is not None else None) or (DEPTH_HINT if not full_depth else BOUND_HINT)
    common.fail(f"{name} {where}: expected {expected!r}, yours returned {got!r}. The position:"
                f"{describe(game, state)}", hint)


def check_tt_games(alphabeta_tt_value: Callable) -> int:
    """Values of >= 1,000 positions, fresh and shared tables, against exact minimax."""
    n = 0
    # The same total with either player to move: a key without the player collides.
    for c in data.race_positions():
        game, state = c.game, c.state
        solver = Solver(game)
        player = game.to_move(state)
        expected = solver.value(state, player)
        table: dict = {}
        where = f"on {c.name}, with an empty table"
        got = common.call(alphabeta_tt_value, game, state, table, where=where)
        common.expect_number(got, f"alphabeta_tt_value {where}")
        if not common.same(got, expected):
            explain = partial(explain_call, alphabeta_tt_value, c.name, game, state, {})
            check_entries(table, _game_truth(solver, player), case=where, game=game, full_depth=True,
                          is_state=_state_of(game), explain=explain)
            common.fail(f"alphabeta_tt_value {where}: expected {expected!r}, yours returned {got!r}.",
                        explain() or KEY_HINT)
        n += 1
    for label, game, count, low, high in (("TicTacToe", TicTacToe(), 600, 4, 6),
                                          ("ConnectFour 4x4", ConnectFour(4, 4), 420, 11, 13)):
        solver = Solver(game)
        shared = {p: {} for p in game.players}
        calls = {p: Calls(shared[p]) for p in game.players}  # the searches that filled each shared table
        todo = data.game_positions("tt_games", ((label.split()[0].lower(), label, game, count, low, high),))
        for prefix in ("random", "secret"):
            for i, (c, _) in enumerate(x for x in todo if x[0].id.startswith(prefix)):
                state = c.state
                player = game.to_move(state)
                fresh = i % 2 == 0
                table = {} if fresh else shared[player]
                where = (f"on {c.name} "
                         f"({'empty table' if fresh else f'a table shared with earlier positions where {player} moves'})")
                expected = solver.value(state, player)
                before = dict(table)
                got = common.call(alphabeta_tt_value, game, state, table, where=where)
                explain = partial(explain_call, alphabeta_tt_value, c.name, game, c.state, before)
                if not fresh:
                    calls[player].add(before, explain)
                if not common.same(got, expected):
                    _value_failure("alphabeta_tt_value", game, state, got, expected, table,
                                   _game_truth(solver, player), where, True, explain)
                if fresh and i < 200:  # every entry a true statement (the first positions suffice)
                    check_entries(table, _game_truth(solver, player), case=where, game=game, full_depth=True,
                                  is_state=_state_of(game), explain=explain)
                n += 1
        for player, table in shared.items():
            check_entries(table, _game_truth(solver, player), game=game, full_depth=True, is_state=_state_of(game),
                          case=f"on {label} positions where {player} moves (one table for all of them)",
                          explain=calls[player])
    # The table must save work: TicTacToe after X took a corner (every call of the search crosses the
    # grader's channel here, so a position with a few thousand nodes rather than the empty board's 18,297).
    game = TicTacToe()
    state = game.state_from(["X..", "...", "..."], "O")
    where = "on TicTacToe after X took the top-left corner, O to move"
    plain = Traced(game, keep_events=False)
    expected = ref.depth_limited_alphabeta(plain, state)
    traced = Traced(game, keep_events=False)
    got = common.call(alphabeta_tt_value, traced, state, {}, where=where)
    if not common.same(got, expected):
        common.fail(f"alphabeta_tt_value {where}: expected {expected!r}, yours returned {got!r}.")
    if traced.trace.nodes_visited() >= plain.trace.nodes_visited():
        common.fail(f"{where} your search visited {traced.trace.nodes_visited():,} nodes; plain alpha-beta visits "
                    f"{plain.trace.nodes_visited():,}, and a transposition table should save a good part of them.",
                    LOOKUP_HINT)
    return n + 1


# -- alphabeta_tt_value with a depth limit ----------------------------------------------------------

def check_tt_depth(alphabeta_tt_value: Callable) -> int:
    n = 0
    hints = {"leaves": "with an empty table on a tree your depth-limited search is plain depth-limited "
                       "alpha-beta: utility at terminal states, evaluate(state, player) at depth 0 only",
             "result": "with an empty table on a tree your search should return depth-limited alpha-beta's value "
                       "(terminal states use utility, even at depth 0; evaluate only non-terminal states at depth 0)"}
    for c in data.tree_cases("tt_depth", 4):
        case, tree = c.name, c.game
        height = max(tree.depth(leaf) for leaf in tree.leaves())
        evaluate = data.node_evaluation(case)
        for depth in sorted({1, max(1, height - 1)}):
            table: dict = {}
            where = f"{case} with depth={depth} (empty table)"
            nodes = set(tree.nodes())
            explain = partial(explain_call, alphabeta_tt_value, where, tree, tree.initial, {}, depth, evaluate)
            with diagnosis(table, _tree_truth(tree, evaluate), f"on {where}", tree, False, nodes.__contains__,
                           explain):
                mine, _ = compare("alphabeta_tt_value", alphabeta_tt_value, _ignore_table, tree, tree.initial,
                                  case=where, args=lambda g, t=table, d=depth, e=evaluate: (t, d, g.evaluator(e)),
                                  hints=hints)
            leaves_stored(table, mine, f"on {where}", tree)
            check_entries(table, _tree_truth(tree, evaluate), case=f"on {where}", game=tree, full_depth=False,
                          is_state=nodes.__contains__, explain=explain)
            n += 1
    # One table for searches of increasing depth: shallow entries must not answer deeper questions.
    for label, game, count, low, high, depths in (("TicTacToe", TicTacToe(), 30, 1, 4, (1, 2, 3, 4)),
                                                  ("ConnectFour 4x4", ConnectFour(4, 4), 30, 3, 8, (1, 2, 3, 4))):
        evaluate = data.node_evaluation(label, game.players)
        solver = Solver(game, evaluate)
        for c, _ in data.game_positions("tt_depth", ((label.split()[0].lower(), label, game, count, low, high),),
                                        secret_share=2):
            state = c.state
            player = game.to_move(state)
            table: dict = {}
            calls = Calls(table)
            for depth in depths:
                where = (f"on {c.name} with depth={depth}, the table kept from the "
                         f"searches of depth {', '.join(map(str, range(depths[0], depth))) or '(none)'}")
                expected = solver.value(state, player, depth)
                before = dict(table)
                got = common.call(alphabeta_tt_value, game, state, table, depth, evaluate, where=where)
                calls.add(before, partial(explain_call, alphabeta_tt_value, f"{c.name} with depth={depth}", game, state,
                                          before, depth, evaluate))
                if not common.same(got, expected):
                    _value_failure("alphabeta_tt_value", game, state, got, expected, table,
                                   _game_truth(solver, player), where, False,
                                   calls)
                n += 1
            check_entries(table, _game_truth(solver, player), case=where, game=game, full_depth=False,
                          is_state=_state_of(game), explain=calls)
    return n + _kept(alphabeta_tt_value)


KEPT_HINT = ("look the state up first, before anything else (at depth 0 and at a terminal state too): an entry "
             "(v, flag, d) with d >= depth answers when it is EXACT, and a terminal state is stored as "
             "(utility, EXACT, math.inf), since the end of the game is the same at any depth")


def kept_model(game: Any, state: Any, first: int, depth: float, evaluate: Callable) -> Any:
    """The lab's table search of the root with depth `first`, then of `state` with `depth` and the same table."""
    table: dict = {}
    ref.tt_visits(game, game.initial, table, first, evaluate)
    return ref.tt_visits(game, state, table, depth, evaluate)[0]


def _kept(alphabeta_tt_value: Callable) -> int:
    """A state searched again with the table kept from a search of the root: its entry answers at once."""
    def twice(game: Any, state: Any, first: int, depth: float, evaluate: Callable) -> Any:
        table: dict = {}
        common.call(alphabeta_tt_value, game, game.initial, table, first, evaluate,
                    where=f"on the root with depth={first} (the first search)")
        return alphabeta_tt_value(game, state, table, depth, evaluate)

    n = 0
    for c in data.kept_tables():
        first, depth, evaluate = c.args
        compare("alphabeta_tt_value", twice, kept_model, c.game, c.state, case=c.name,
                args=lambda g, f=first, d=depth, e=evaluate: (f, d, g.evaluator(e)),
                hints={"leaves": f"the first search stored an entry for {c.state} that answers the second one: "
                                 + KEPT_HINT, "result": KEPT_HINT})
        n += 1
    return n

