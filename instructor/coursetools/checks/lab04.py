"""Hidden tests of lab 04 (move ordering, transposition tables, iterative deepening).

Groups, one per kind of mistake:

- ``ordered_value``: `ordered_alphabeta_value` returns alpha-beta's value whatever the key.
- ``ordered_trace``: ... and searches the children in key order, ties in actions() order.
- ``perfect_ordering``: the reordered tree is a reordering, and alpha-beta on it
  evaluates exactly b^ceil(d/2) + b^floor(d/2) - 1 leaves.
- ``tt_trees``: `alphabeta_tt_value` on explicit trees: the trace of alpha-beta, every
  table entry a true statement (value, bound flag, depth), answers from the table.
- ``tt_games``: values of at least 1,000 TicTacToe and ConnectFour 4x4 positions and of
  number-picking positions (where the same total comes with either player to move).
- ``tt_depth``: depth-limited searches with an evaluation function, a table shared by
  searches of increasing depth.
- ``iterative_deepening``: the decision and the leaves, in order, of iterative
  deepening that searches the previous depth's best action first.

The table contract (stated in the notebook): the caller creates and owns a plain dict and
may keep it across searches whose root player is the same; the key is the state itself
(player to move included); an entry is ``(value, flag, depth)`` with the value from the
root player's view, the flag ``"exact"``, ``"lower"`` or ``"upper"`` for the window the
state was entered with, and the depth argument it was searched with (``math.inf`` to the
end of the game). A search looks its state up first and stores every state it searched.
"""

from __future__ import annotations

import math
import random
import zlib
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from course_lib.games import ConnectFour, GameTree, RaceTo, TicTacToe
from course_lib.trace import Traced

from . import common, trees
from . import reference_ordering as ref
from .reference_ordering import EXACT, FLAGS, LOWER, UPPER, Solver, minimal_leaves, tree_value
from .kit import tree_picture as picture

LAB = "04_move_ordering"
#: The shared trees of the tree groups (`checks/trees.py`), in the order they are checked.
TREE_IDS = ["sixteen", "eight", "aima", "aima-min", "unbalanced", "tie-cut", "tie-min-cut", "deep-cut", "mixed-depths",
            "chain", "terminal-root", "negative"]
WORDS = ("up", "down", "left", "right", "eat", "block")

STABLE_HINT = ("search the children in the order sorted(actions, key=lambda a: key(state, a)): smaller keys "
               "first, and ties keep their actions() order (sorted is stable; sorting (key, action) pairs or "
               "reversing the list breaks ties differently)")
VALUE_HINT = ("the order of the children must not change the value: search the same children alpha-beta "
              "would search, only in another order, and prune only when v >= beta (MAX) or v <= alpha (MIN)")
BOUND_HINT = ("a value found after a cut-off is only a bound: at the player's node v >= beta gives a LOWER "
              "bound, at the opponent's node v <= alpha gives an UPPER bound; store EXACT only when "
              "alpha < v < beta for the alpha and beta the state was entered with (not the updated ones)")
KEY_HINT = ("key the table by the state itself: the same board (or total) with the other player to move "
            "is a different position with a different value")
DEPTH_HINT = ("reuse an entry only when it was searched at least as deep as this search needs "
              "(entry depth >= depth); an entry from a shallower search answers a different question")
LOOKUP_HINT = "look the state up in the table first: an entry that answers the question ends the search there"
ID_HINT = ("each depth d = 1, 2, ..., max_depth searches every root action to depth d - 1, the previous "
           "depth's best action first and then the others in actions() order")
ID_FORGOT_HINT = ("your search did exactly what plain depth-limited searches do: it did not search the "
                  "previous depth's best action first")


# -- keys, evaluations and games used by the checks ---------------------------------------------------

def natural(state: Any, action: Any) -> int:
    """Every action ties: the order stays actions() order."""
    return 0


def reverse(state: Any, action: Any) -> Any:
    """Last child first (GameTree actions are child indices)."""
    return -action


def pairs(state: Any, action: Any) -> Any:
    """Children 0 and 1 tie, then 2 and 3, ... (ties keep their order)."""
    return -(action // 2)


def by_length(state: Any, action: Any) -> int:
    """Shorter action names first; equal lengths tie."""
    return len(action)


def centre_corners_edges(state: Any, action: Any) -> int:
    """TicTacToe: the centre, then the corners, then the edges."""
    r, c = action
    return 0 if (r, c) == (1, 1) else 1 if r != 1 and c != 1 else 2


def shuffled(seed: str) -> Callable[[Any, Any], float]:
    """A key that puts each node's children in a fixed random order."""

    def key(state: Any, action: Any) -> int:
        return zlib.crc32(f"{seed}/{state}/{action}".encode()) % 7

    key.__name__ = "shuffled"
    return key


def node_evaluation(seed: str, players: tuple = ("MAX", "MIN")) -> Callable[[Any, Any], int]:
    """An evaluation function: a fixed pseudo-random number per state, from `player`'s view."""
    first = players[0]

    def evaluate(state: Any, player: Any) -> int:
        h = zlib.crc32(f"{seed}/{state!r}".encode()) % 19 - 9
        return h if player == first else -h

    return evaluate


class WordTree(GameTree):
    """A GameTree whose actions are words, in an order that is not alphabetical."""

    @classmethod
    def of(cls, tree: GameTree) -> "WordTree":
        new = cls.__new__(cls)
        new.__dict__.update(tree.__dict__)
        return new

    def actions(self, state: str) -> list[str]:
        return [WORDS[i] for i in super().actions(state)]

    def result(self, state: str, action: Any) -> str:
        if action not in WORDS[:len(self.children(state))]:
            raise self.illegal(state, action)
        return super().result(state, WORDS.index(action))


def uniform_tree(rng: random.Random, branching: int, depth: int, distinct: bool = False,
                 root: str = "MAX") -> GameTree:
    """A uniform random tree; small integer leaves (ties) unless `distinct`."""
    n = branching ** depth
    values = rng.sample(range(-2 * n, 2 * n), n) if distinct else [rng.randint(-9, 9) for _ in range(n)]
    return GameTree.from_leaves(values, branching, root=root)


def positions(game: Any, rng: random.Random, count: int, low: int, high: int) -> list:
    """`count` non-terminal positions after `low`..`high` random moves from the start."""
    out = []
    while len(out) < count:
        s = game.initial
        for _ in range(rng.randint(low, high)):
            if game.is_terminal(s):
                break
            s = game.result(s, rng.choice(game.actions(s)))
        if not game.is_terminal(s):
            out.append(s)
    return out


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


def _rngs(group: str) -> list[tuple[str, random.Random]]:
    out = [("", common.rng(LAB, group))]
    if common.has_secret():
        out.append(("secret ", common.rng(LAB, group, secret=True)))
    return out


def _tree_cases(group: str, count: int = 6) -> dict[str, GameTree]:
    cases = {trees.name(id): trees.tree(id) for id in TREE_IDS}
    for prefix, r in _rngs(group):
        cases.update({prefix + k: v for k, v in trees.seeded_trees(r, count).items()})
    return cases


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


# -- ordered_alphabeta_value ------------------------------------------------------------------------

def _ordering_cases(group: str) -> list[tuple[str, Any, Any, Callable]]:
    """(case, game, state, key) for the ordered searches."""
    out = []
    for case, tree in _tree_cases(group).items():
        out.append((f"{case} with key=natural (every key 0)", tree, tree.initial, natural))
        out.append((f"{case} with key=reverse (-action)", tree, tree.initial, reverse))
        out.append((f"{case} with key=pairs (-(action // 2))", tree, tree.initial, pairs))
        out.append((f"{case} with a key that shuffles the children", tree, tree.initial, shuffled(case)))
    for prefix, r in _rngs(group):
        for i in range(3):
            spec = trees.random_tree(r, max_depth=3, max_branching=5)
            words = WordTree.of(spec)
            out.append((f"{prefix}a tree whose actions are words {list(WORDS)} (#{i + 1}), key=natural",
                        words, words.initial, natural))
            out.append((f"{prefix}a tree whose actions are words (#{i + 1}), key=by_length (len(action))",
                        words, words.initial, by_length))
        ttt = TicTacToe()
        for i, s in enumerate(positions(ttt, r, 4, 3, 5)):
            out.append((f"{prefix}TicTacToe position #{i + 1} with key=centre_corners_edges:\n{s}\n",
                        ttt, s, centre_corners_edges))
    return out


def check_ordered_value(ordered_alphabeta_value: Callable) -> int:
    """Values only: any order of the children gives alpha-beta's value."""
    n = 0
    for case, game, state, key in _ordering_cases("ordered_value"):
        expected = ref.ordered_alphabeta_value(game, state, key)
        got = common.call(ordered_alphabeta_value, game, state, key, where=f"on {case}")
        common.expect_number(got, f"ordered_alphabeta_value on {case}")
        if not common.same(got, expected):
            common.fail(f"ordered_alphabeta_value on {case}: expected {expected!r}, yours returned {got!r}.",
                        VALUE_HINT, picture(game))
        n += 1
    return n


def check_ordered_trace(ordered_alphabeta_value: Callable) -> int:
    """Leaves and generated children in key order (stable)."""
    n = 0
    hints = {"leaves": STABLE_HINT, "generated": STABLE_HINT, "result": VALUE_HINT}
    for case, game, state, key in _ordering_cases("ordered_trace"):
        compare("ordered_alphabeta_value", ordered_alphabeta_value, ref.ordered_alphabeta_value, game, state,
                case=case, args=lambda g, key=key: (key,), hints=hints)
        n += 1
    return n


# -- perfect_ordering -------------------------------------------------------------------------------

def canonical(tree: GameTree, node: str) -> tuple:
    """The tree below `node` with children in a fixed order: equal for reorderings of one tree."""
    if tree.is_terminal(node):
        return ("leaf", tree.value(node))
    return (tree.kind(node), tuple(sorted((canonical(tree, c) for c in tree.children(node)), key=repr)))


def _first_not_best(tree: GameTree) -> str | None:
    """The first node (pre-order) whose first child is not one of its best children."""
    player = tree.to_move(tree.initial)
    for n in tree.nodes():
        if tree.is_terminal(n):
            continue
        values = [tree_value(tree, c, player) for c in tree.children(n)]
        best = max(values) if tree.to_move(n) == player else min(values)
        if values[0] != best:
            return (f"{tree.label(n)} ({tree.kind(n)}): its children's values, in your order, are {values}; "
                    f"the first should be the {'largest' if tree.kind(n) == 'MAX' else 'smallest'}, {best}")
    return None


def check_perfect_ordering(perfect_ordering: Callable) -> int:
    n = 0
    cases = {
        "the 16-leaf tree": GameTree.from_leaves(trees.SIXTEEN, 2),
        "the 8-leaf list": GameTree.from_leaves(trees.EIGHT, 2),
        "a ternary tree (AIMA's figure)": GameTree.from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]]),
        "the same tree with MIN at the root": GameTree.from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]], root="MIN"),
        "a depth-1 tree": GameTree.from_leaves([4, 9, 1], 3),
    }
    for prefix, r in _rngs("perfect_ordering"):
        for i in range(14):
            b = r.choice([2, 2, 3, 3, 4])
            d = r.randint(2, {2: 6, 3: 5, 4: 4}[b])
            root = r.choice(["MAX", "MIN"])
            distinct = i % 3 == 0
            what = "distinct values" if distinct else "values with ties"
            cases[f"{prefix}random uniform tree #{i + 1} (branching {b}, depth {d}, {root} root, {what})"] = \
                uniform_tree(r, b, d, distinct, root)
    for case, tree in cases.items():
        b = len(tree.children(tree.initial))
        d = max(tree.depth(leaf) for leaf in tree.leaves())
        got = common.call(perfect_ordering, tree, where=f"on {case}")
        # course_lib is imported afresh for the checks: compare the class by name, not identity.
        if (type(got).__name__, type(got).__module__) != (GameTree.__name__, GameTree.__module__):
            common.fail(f"perfect_ordering on {case} should return a GameTree (build it with "
                        f"GameTree.from_nested or GameTree.from_mapping), not {type(got).__name__}: {got!r:.80}")
        if got.kind(got.initial) != tree.kind(tree.initial) or canonical(got, got.initial) != canonical(tree, tree.initial):
            common.fail(f"perfect_ordering on {case}: your tree is not the same tree with its children reordered "
                        f"(the root should stay {tree.kind(tree.initial)}, and every node keep the same "
                        "children, leaf values included).",
                        "reorder the children of each node; do not change values, kinds or shapes",
                        picture(tree) and "yours:\n" + picture(got) + "\nthe given tree:\n" + picture(tree))
        game = Traced(got, keep_events=False)
        ref.depth_limited_alphabeta(game, got.initial)
        leaves = game.trace.count("utility")
        want = minimal_leaves(b, d)
        if leaves != want:
            where = _first_not_best(got)
            common.fail(
                f"perfect_ordering on {case}: alpha-beta evaluated {leaves} leaves of your reordered tree; "
                f"with the best child first everywhere it evaluates {b}^{(d + 1) // 2} + {b}^{d // 2} - 1 = {want}."
                + (f"\n  first node not in best-first order: {where}" if where else ""),
                "order the children of each node by their minimax value: largest first at MAX, smallest "
                "first at MIN (the value of the whole subtree, not of its first leaf)",
                picture(got))
        n += 1
    return n


# -- alphabeta_tt_value: the table's entries --------------------------------------------------------

def _entry_text(entry: Any) -> str:
    return f"{entry!r:.120}"


def check_entries(table: Any, truth: Callable[[Any, float], float], *, case: str, game: Any,
                  full_depth: bool, is_state: Callable[[Any], bool]) -> None:
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
            if flag != EXACT:
                hint = ("LOWER and UPPER mixed up? " + BOUND_HINT)
            elif terminal:
                hint = ("a terminal state is worth its utility at any depth: test is_terminal before depth == 0, "
                        "and never evaluate a terminal state")
            elif depth == 0:
                hint = "at depth 0 a non-terminal state is worth evaluate(state, player) for the root player"
            common.fail(f"after your search {case} the table's entry {_entry_text(entry)} says that {claim} "
                        f"(from the root player's view, searched {depth} plies deep), but its value is {true!r}. "
                        f"The state: {describe(game, key)}", hint, picture(game))


@contextmanager
def diagnosis(table: dict, truth: Callable, case: str, game: Any, full_depth: bool,
              is_state: Callable[[Any], bool]) -> Iterator[None]:
    """On a failure inside the block, explain it by a false table entry when there is one."""
    try:
        yield
    except common.CheckFailed as failure:
        try:
            check_entries(table, truth, case=case, game=game, full_depth=full_depth, is_state=is_state)
        except common.CheckFailed as better:
            raise better from None
        raise failure from None


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
    for case, tree in _tree_cases("tt_trees").items():
        table: dict = {}
        nodes = set(tree.nodes())
        with diagnosis(table, _tree_truth(tree), f"on {case}", tree, True, nodes.__contains__):
            compare("alphabeta_tt_value", alphabeta_tt_value, _ignore_table, tree, tree.initial,
                    case=f"{case} (empty table)", args=lambda g, t=table: (t,), hints=hints)
        check_entries(table, _tree_truth(tree), case=f"on {case}", game=tree, full_depth=True,
                      is_state=nodes.__contains__)
        root = tree.initial
        if not tree.is_terminal(root):
            entry = table.get(root)
            if entry is None:
                common.fail(f"after your search on {case} the table has no entry for the root.",
                            "store every state you searched, the root included, before returning")
            if entry[1] != EXACT:
                common.fail(f"after your search on {case} the root's entry is {entry!r}: the root is searched with "
                            "the whole window (-inf, +inf), so its value is EXACT.",
                            "decide the flag by comparing v with the alpha and beta the state was entered with, "
                            "not with alpha and beta as the loop updated them")
        again = Traced(tree)
        v1 = ref.depth_limited_alphabeta(tree, root)
        v2 = common.call(alphabeta_tt_value, again, root, table, where=f"on {case} (second search, same table)")
        if not common.same(v2, v1):
            common.fail(f"searching {case} a second time with the table of the first search returned {v2!r}; "
                        f"the value is {v1!r}.", LOOKUP_HINT)
        if again.trace.count("generate"):
            common.fail(f"searching {case} a second time with the table of the first search generated "
                        f"{again.trace.count('generate')} children; the table's entry for the root already "
                        "gives the value, so nothing needs generating.", LOOKUP_HINT)
        n += 1
    return n


# -- alphabeta_tt_value on games: values of many positions ------------------------------------------

def _game_truth(solver: Solver, player: Any) -> Callable[[Any, float], float]:
    return lambda state, depth: solver.value(state, player, depth)


def _state_of(game: Any) -> Callable[[Any], bool]:
    kind = type(game.initial)
    return lambda key: type(key) is kind


def _value_failure(name: str, game: Any, state: Any, got: Any, expected: Any, table: dict, truth: Callable,
                   where: str, full_depth: bool) -> None:
    """Explain a wrong value with what the table holds, then fail."""
    common.expect_number(got, f"{name} {where}")
    check_entries(table, truth, case=where, game=game, full_depth=full_depth, is_state=_state_of(game))
    hint = DEPTH_HINT if not full_depth else BOUND_HINT
    common.fail(f"{name} {where}: expected {expected!r}, yours returned {got!r}. The position:"
                f"{describe(game, state)}", hint)


def _race_positions() -> list[tuple[RaceTo, Any]]:
    out = []
    for n, k in ((10, 3), (13, 2), (17, 4), (21, 3)):
        g = RaceTo(n, k)
        for total in range(0, n):
            for player in g.players:
                out.append((g, type(g.initial)(total, player)))
    return out


def check_tt_games(alphabeta_tt_value: Callable) -> int:
    """Values of >= 1,000 positions, fresh and shared tables, against exact minimax."""
    n = 0
    # The same total with either player to move: a key without the player collides.
    for game, state in _race_positions():
        solver = Solver(game)
        player = game.to_move(state)
        expected = solver.value(state, player)
        table: dict = {}
        where = f"on the number-picking game (reach {game.n} adding 1..{game.k}) from {state}, with an empty table"
        got = common.call(alphabeta_tt_value, game, state, table, where=where)
        common.expect_number(got, f"alphabeta_tt_value {where}")
        if not common.same(got, expected):
            check_entries(table, _game_truth(solver, player), case=where, game=game, full_depth=True,
                          is_state=_state_of(game))
            common.fail(f"alphabeta_tt_value {where}: expected {expected!r}, yours returned {got!r}.", KEY_HINT)
        n += 1
    for label, game, count, low, high in (("TicTacToe", TicTacToe(), 600, 4, 6),
                                          ("ConnectFour 4x4", ConnectFour(4, 4), 420, 11, 13)):
        solver = Solver(game)
        shared = {p: {} for p in game.players}
        for prefix, r in _rngs("tt_games"):
            todo = positions(game, r, count if not prefix else count // 3, low, high)
            for i, state in enumerate(todo):
                player = game.to_move(state)
                fresh = i % 2 == 0
                table = {} if fresh else shared[player]
                where = (f"on {prefix}{label} position #{i + 1} "
                         f"({'empty table' if fresh else f'a table shared with earlier positions where {player} moves'})")
                expected = solver.value(state, player)
                got = common.call(alphabeta_tt_value, game, state, table, where=where)
                if not common.same(got, expected):
                    _value_failure("alphabeta_tt_value", game, state, got, expected, table,
                                   _game_truth(solver, player), where, True)
                if fresh and i < 200:  # every entry a true statement (the first positions suffice)
                    check_entries(table, _game_truth(solver, player), case=where, game=game, full_depth=True,
                                  is_state=_state_of(game))
                n += 1
        for player, table in shared.items():
            check_entries(table, _game_truth(solver, player), game=game, full_depth=True, is_state=_state_of(game),
                          case=f"on {label} positions where {player} moves (one table for all of them)")
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
    for case, tree in _tree_cases("tt_depth", 4).items():
        height = max(tree.depth(leaf) for leaf in tree.leaves())
        evaluate = node_evaluation(case)
        for depth in sorted({1, max(1, height - 1)}):
            table: dict = {}
            where = f"{case} with depth={depth} (empty table)"
            nodes = set(tree.nodes())
            with diagnosis(table, _tree_truth(tree, evaluate), f"on {where}", tree, False, nodes.__contains__):
                compare("alphabeta_tt_value", alphabeta_tt_value, _ignore_table, tree, tree.initial, case=where,
                        args=lambda g, t=table, d=depth, e=evaluate: (t, d, g.evaluator(e)), hints=hints)
            check_entries(table, _tree_truth(tree, evaluate), case=f"on {where}", game=tree, full_depth=False,
                          is_state=nodes.__contains__)
            n += 1
    # One table for searches of increasing depth: shallow entries must not answer deeper questions.
    for label, game, count, low, high, depths in (("TicTacToe", TicTacToe(), 30, 1, 4, (1, 2, 3, 4)),
                                                  ("ConnectFour 4x4", ConnectFour(4, 4), 30, 3, 8, (1, 2, 3, 4))):
        evaluate = node_evaluation(label, game.players)
        solver = Solver(game, evaluate)
        for prefix, r in _rngs("tt_depth"):
            for i, state in enumerate(positions(game, r, count if not prefix else count // 2, low, high)):
                player = game.to_move(state)
                table: dict = {}
                for depth in depths:
                    where = (f"on {prefix}{label} position #{i + 1} with depth={depth}, the table kept from the "
                             f"searches of depth {', '.join(map(str, range(depths[0], depth))) or '(none)'}")
                    expected = solver.value(state, player, depth)
                    got = common.call(alphabeta_tt_value, game, state, table, depth, evaluate, where=where)
                    if not common.same(got, expected):
                        _value_failure("alphabeta_tt_value", game, state, got, expected, table,
                                       _game_truth(solver, player), where, False)
                    n += 1
                check_entries(table, _game_truth(solver, player), case=where, game=game, full_depth=False,
                              is_state=_state_of(game))
    return n


# -- iterative deepening ----------------------------------------------------------------------------

def _plain_id(game: Any, state: Any, max_depth: int, evaluate: Callable) -> Any:
    """Iterative deepening that forgets the previous best action (for the diagnosis only)."""
    best = None
    player = game.to_move(state)
    for depth in range(1, max_depth + 1):
        alpha, best = -math.inf, None
        for a in game.actions(state):
            v = ref._alphabeta(game, game.result(state, a), alpha, math.inf, player, depth - 1, evaluate, None)
            if best is None or v > alpha:
                best, alpha = a, v
    return best


def _id_cases() -> list[tuple[str, Any, Any, int, Callable]]:
    out = []
    for case, tree in _tree_cases("iterative_deepening", 6).items():
        height = max(tree.depth(leaf) for leaf in tree.leaves())
        if height >= 1:
            out.append((f"{case} with max_depth={height}", tree, tree.initial, height, node_evaluation(case)))
    for prefix, r in _rngs("iterative_deepening"):
        for i in range(3):
            tree = uniform_tree(r, r.choice([2, 3]), 4)
            out.append((f"{prefix}a uniform random tree #{i + 1} with max_depth=4", tree, tree.initial, 4,
                        node_evaluation(f"{prefix}{i}")))
        for label, game, low, high, depth in (("TicTacToe", TicTacToe(), 1, 3, 4),
                                              ("ConnectFour 4x4", ConnectFour(4, 4), 2, 6, 4)):
            for i, s in enumerate(positions(game, r, 3, low, high)):
                out.append((f"{prefix}{label} position #{i + 1} with max_depth={depth}:{describe(game, s)}\n",
                            game, s, depth, node_evaluation(label, game.players)))
    return out


def check_iterative_deepening(iterative_deepening_decision: Callable) -> int:
    n = 0
    for case, game, state, depth, evaluate in _id_cases():
        try:
            compare("iterative_deepening_decision", iterative_deepening_decision, ref.iterative_deepening_decision,
                    game, state, case=case, args=lambda g, d=depth, e=evaluate: (d, g.evaluator(e)),
                    result_kind="action", revalue=True, hints={"leaves": ID_HINT, "generated": ID_HINT, "result": ID_HINT})
        except common.CheckFailed as failure:
            mine = Traced(game)
            try:
                iterative_deepening_decision(mine, state, depth, mine.evaluator(evaluate))
            except Exception:  # the first failure already says what went wrong
                raise failure from None
            plain = Traced(game)
            _plain_id(plain, state, depth, plain.evaluator(evaluate))
            plain_counts = ref.plain_deepening_leaves(game, state, depth, evaluate)
            text, _, tree_text = str(failure).partition("\nThe tree:\n")
            if [short(x) for x in mine.trace.leaves()] == [short(x) for x in plain.trace.leaves()]:
                text += f"\nHint: {ID_FORGOT_HINT}."
            got_total = mine.trace.count("utility") + mine.trace.count("evaluate")
            text += (f"\nLeaves valued: yours {got_total}; plain depth-limited searches of depths 1..{depth} "
                     f"value {sum(plain_counts)} ({plain_counts} per depth).")
            raise common.CheckFailed(text + (f"\nThe tree:\n{tree_text}" if tree_text else "")) from None
        n += 1
    return n
