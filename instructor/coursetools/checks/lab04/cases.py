"""Lab 04's cases as data: stable ids (what golden files and reports use), names a student reads.

Shared trees are picked by id (`checks/trees.py`); seeded cases follow the fixed ones (``random-N``,
and with the instructor's secret seed ``secret-N``). The clock group adds one case drawn from the
secret seed and the submission (the student's id and its timestamp: ``yours-1``), so that each submission meets a
position of its own; the secret cases too are drawn afresh for each submission (`common.rng`).
Adding a case is one row: a tree id in `TREE_IDS`, a key in `KEYS`, a position, a budget.
"""

from __future__ import annotations

import math
import random
import zlib
from typing import Any, Callable

from course_lib.games import ConnectFour, GameTree, RaceTo, TicTacToe
from course_lib.trace import Traced

from .. import common, kit, trees
from ..kit import Case
from . import reference as ref

LAB = "04_move_ordering"
#: The shared trees of the tree groups, in the order they are checked.
TREE_IDS = ["sixteen", "eight", "aima", "aima-min", "unbalanced", "tie-cut", "tie-min-cut", "deep-cut", "mixed-depths",
            "chain", "terminal-root", "negative"]
WORDS = ("up", "down", "left", "right", "eat", "block")
TTT, C4 = TicTacToe(), ConnectFour(4, 4)


# -- keys and evaluation functions given to the student's searches ------------------------------------

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


def shuffled(seed: str) -> Callable[[Any, Any], int]:
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

    evaluate.__name__ = "evaluate"
    return evaluate


#: (id, name, key) of the keys every tree is searched with (`shuffled` is made per tree).
KEYS = [("natural", "key=natural (every key 0)", natural), ("reverse", "key=reverse (-action)", reverse),
        ("pairs", "key=pairs (-(action // 2))", pairs)]


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


def shown(game: Any, state: Any) -> str:
    """A position as a student reads it in a case's name."""
    return str(state) if isinstance(game, GameTree) else "\n" + game.display(state) + "\n"


# -- the tree groups ---------------------------------------------------------------------------------

def tree_cases(group: str, count: int = 6) -> list[Case]:
    """The shared trees, then `count` seeded random trees (and as many secret ones)."""
    out = [Case(id, trees.name(id), trees.tree(id), trees.tree(id).initial) for id in TREE_IDS]
    for prefix, rng, _ in kit.rngs(LAB, group, count, count):
        for i, (name, tree) in enumerate(trees.seeded_trees(rng, count).items()):
            label = name if prefix == "random" else "secret " + name
            out.append(Case(f"{prefix}-{i + 1}", label, tree, tree.initial))
    return out


def ordering(group: str) -> list[Case]:
    """``ordered_alphabeta_value(game, state, key)`` cases: every tree with every key, word trees, TicTacToe."""
    out = []
    for c in tree_cases(group):
        for kid, kname, key in KEYS:
            out.append(Case(f"{c.id}/{kid}", f"{c.name} with {kname}", c.game, c.state, (key,)))
        out.append(Case(f"{c.id}/shuffled", f"{c.name} with a key that shuffles the children", c.game, c.state,
                        (shuffled(c.name),)))
    for prefix, rng, _ in kit.rngs(LAB, group, 3, 3):
        tag = "" if prefix == "random" else "secret "
        for i in range(3):
            words = WordTree.of(trees.random_tree(rng, max_depth=3, max_branching=5))
            out.append(Case(f"{prefix}-words-{i + 1}/natural", f"{tag}a tree whose actions are words {list(WORDS)} "
                            f"(#{i + 1}), key=natural", words, words.initial, (natural,)))
            out.append(Case(f"{prefix}-words-{i + 1}/by_length", f"{tag}a tree whose actions are words (#{i + 1}), "
                            "key=by_length (len(action))", words, words.initial, (by_length,)))
        for i, s in enumerate(positions(TTT, rng, 4, 3, 5)):
            out.append(Case(f"{prefix}-ttt-{i + 1}", f"{tag}TicTacToe position #{i + 1} with key=centre_corners_edges:"
                            f"{shown(TTT, s)}", TTT, s, (centre_corners_edges,)))
    return out


#: Shared trees that are not uniform, for perfect_ordering.
UNEVEN = ("unbalanced", "mixed-depths", "negative")


def perfect_ordering() -> list[Case]:
    """Trees to reorder best first (the state is the root; the function is given the tree alone)."""
    fixed = [("sixteen", trees.name("sixteen")), ("eight", trees.name("eight")), ("aima", trees.name("aima")),
             ("aima-min", trees.name("aima-min"))]
    out = [Case(id, name, trees.tree(id), trees.tree(id).initial) for id, name in fixed]
    depth1 = GameTree.from_leaves([4, 9, 1], 3)
    out.append(Case("depth-1", "a depth-1 tree", depth1, depth1.initial))
    # Not uniform: leaves and subtrees side by side (no leaf count to meet; each node's first child is a best one).
    out += [Case(id, trees.name(id), trees.tree(id), trees.tree(id).initial) for id in UNEVEN]
    for prefix, rng, count in kit.rngs(LAB, "perfect_ordering", 14, 14):
        tag = "" if prefix == "random" else "secret "
        for i in range(count):
            b = rng.choice([2, 2, 3, 3, 4])
            d = rng.randint(2, {2: 6, 3: 5, 4: 4}[b])
            root = rng.choice(["MAX", "MIN"])
            distinct = i % 3 == 0
            tree = uniform_tree(rng, b, d, distinct, root)
            what = "distinct values" if distinct else "values with ties"
            out.append(Case(f"{prefix}-{i + 1}", f"{tag}random uniform tree #{i + 1} (branching {b}, depth {d}, "
                            f"{root} root, {what})", tree, tree.initial))
    return out


def race_positions() -> list[Case]:
    """Every number-picking position of four races, with either player to move."""
    out = []
    for n, k in ((10, 3), (13, 2), (17, 4), (21, 3)):
        g = RaceTo(n, k)
        for total in range(0, n):
            for player in g.players:
                out.append(Case(f"race-{n}-{k}-{total}-{player}", f"the number-picking game (reach {n} adding "
                                f"1..{k}) from {type(g.initial)(total, player)}", g, type(g.initial)(total, player)))
    return out


def game_positions(group: str, specs: tuple, secret_share: int = 3) -> list[tuple[Case, str]]:
    """(case, label) of seeded positions: `specs` rows (id, label, game, public count, low, high); the secret
    seed adds a `secret_share`-th as many."""
    out = []
    for id, label, game, count, low, high in specs:
        for prefix, rng in [("random", common.rng(LAB, group))] + (
                [("secret", common.rng(LAB, group, secret=True))] if common.has_secret() else []):
            n = count if prefix == "random" else count // secret_share
            tag = "" if prefix == "random" else "secret "
            for i, s in enumerate(positions(game, rng, n, low, high)):
                out.append((Case(f"{prefix}-{id}-{i + 1}", f"{tag}{label} position #{i + 1}", game, s), label))
    return out


# -- iterative deepening -----------------------------------------------------------------------------

def deepening() -> list[Case]:
    """``iterative_deepening_decision(game, state, max_depth, evaluate)`` cases (no clock)."""
    out = []
    for c in tree_cases("iterative_deepening", 6):
        height = max(c.game.depth(leaf) for leaf in c.game.leaves())
        if height >= 1:
            out.append(Case(c.id, f"{c.name} with max_depth={height}", c.game, c.state,
                            (height, node_evaluation(c.name))))
    for prefix, rng, _ in kit.rngs(LAB, "iterative_deepening", 3, 3):
        tag = "" if prefix == "random" else "secret "
        for i in range(3):
            tree = uniform_tree(rng, rng.choice([2, 3]), 4)
            out.append(Case(f"{prefix}-uniform-{i + 1}", f"{tag}a uniform random tree #{i + 1} with max_depth=4",
                            tree, tree.initial, (4, node_evaluation(f"{'secret ' if tag else ''}{i}"))))
        for id, label, game, low, high in (("ttt", "TicTacToe", TTT, 1, 3), ("c4", "ConnectFour 4x4", C4, 2, 6)):
            for i, s in enumerate(positions(game, rng, 3, low, high)):
                out.append(Case(f"{prefix}-{id}-{i + 1}", f"{tag}{label} position #{i + 1} with max_depth=4:"
                                f"{shown(game, s)}", game, s, (4, node_evaluation(label, game.players))))
    return out


def generated_per_depth(case: Case, max_depth: int, **flags: Any) -> list[int]:
    """States generated by depths 1..d of iterative deepening (correct, or written with `flags`), d = 1..max_depth."""
    out = []
    for d in range(1, max_depth + 1):
        g = Traced(case.game, keep_events=False)
        ref.iterative_deepening_decision(g, case.state, d, case.args[1], **flags)
        out.append(g.trace.count("generate"))
    return out


def budgets(case: Case) -> list[tuple[str, int]]:
    """Node budgets for one case: none left, inside depth 1, exactly at the end of each depth,
    one node more, half-way through each later depth, and more than all depths need (``beyond``)."""
    max_depth = case.args[0]
    done = generated_per_depth(case, max_depth)
    out = [("zero", 0), ("inside-1", max(1, done[0] // 2))]
    for d in range(1, max_depth + 1):
        out.append((f"end-{d}", done[d - 1]))
        if d < max_depth:
            out.append((f"end-{d}+1", done[d - 1] + 1))
            out.append((f"mid-{d + 1}", (done[d - 1] + done[d]) // 2))
    out.append(("beyond", 2 * done[-1] + 1))  # more than every depth up to max_depth needs: max_depth stops it
    seen, unique = set(), []
    for id, n in out:
        if n not in seen:
            seen.add(n)
            unique.append((id, n))
    return unique


def budgeted(id: str, name: str, game: Any, state: Any, max_depth: int, evaluate: Any) -> list[Case]:
    """A position with each of its budgets: ``(max_depth, evaluate, nodes)``."""
    base = Case(id, name, game, state, (max_depth, evaluate))
    return [Case(f"{id}@{bid}", f"{name} with max_depth={max_depth} and a clock of {n} nodes "
                 "(NodeBudget: at most that many calls of game.result)", game, state, (max_depth, evaluate, n))
            for bid, n in budgets(base)]


#: Fixed positions of the clock group: (id, name, game, state, max_depth).
CLOCK_POSITIONS = [
    ("ttt-empty-row", "TicTacToe, X in the centre, O to move", TTT, TTT.state_from(["...", ".X.", "..."], "O"), 3),
    ("ttt-corner", "TicTacToe, X in a corner, O in the centre, X to move", TTT,
     TTT.state_from(["X..", ".O.", "..."], "X"), 3),
    ("c4-start", "ConnectFour 4x4 after two moves, X to move", C4, C4.result(C4.result(C4.initial, 1), 2), 3),
]


def clock() -> list[Case]:
    """Iterative deepening with a NodeBudget clock: each case's budgets end inside depths, exactly at the
    end of a depth and one node after it, so that stopping, the depth thrown away and the move returned
    all show. Then the seeded cases and one case drawn for the student (`student_cases`)."""
    out = []
    for id in ("sixteen", "aima", "unbalanced", "deep-cut"):
        tree = trees.tree(id)
        height = max(tree.depth(leaf) for leaf in tree.leaves())
        out += budgeted(id, trees.name(id), tree, tree.initial, height, node_evaluation(trees.name(id)))
    for id, name, game, state, depth in CLOCK_POSITIONS:
        out += budgeted(id, f"{name}:{shown(game, state)}", game, state, depth, node_evaluation(name, game.players))
    for prefix, rng, count in kit.rngs(LAB, "deepening_clock", 2, 2):
        tag = "" if prefix == "random" else "secret "
        for i in range(count):
            tree = uniform_tree(rng, rng.choice([2, 3]), 4)
            cases = budgeted(f"{prefix}-{i + 1}", f"{tag}a uniform random tree #{i + 1}", tree, tree.initial, 4,
                             node_evaluation(f"{tag}clock {i}"))
            out += _one_of_each_kind(rng, cases)
    out += student_cases()
    # the budgets beyond all depths come last: a search the earlier cases fail is told about them first
    return [c for c in out if not c.id.endswith("@beyond")] + [c for c in out if c.id.endswith("@beyond")]


#: The kinds of budget a seeded position of the clock group is checked with, one each, whatever the draw.
BUDGET_KINDS = ("inside-", "end-", "end-+", "mid-")


def _kind(case: Case) -> str:
    """A budget case's kind: its budget id without the depth (``end-2+1`` is ``end-+``)."""
    return "".join(ch for ch in case.id.split("@")[1] if not ch.isdigit())


def _one_of_each_kind(rng: random.Random, cases: list[Case]) -> list[Case]:
    """One case of each of `BUDGET_KINDS` (the depth drawn by `rng`), so that every draw checks the same kinds; a
    kind that two equal budgets merged away is made up by another case."""
    out = []
    for kind in BUDGET_KINDS:
        same = [c for c in cases if _kind(c) == kind and c not in out]
        if same:
            out.append(rng.choice(same))
    rest = [c for c in cases if c not in out and _kind(c) != "beyond"]
    out += rng.sample(rest, min(len(BUDGET_KINDS) - len(out), len(rest)))
    return out


def student_cases() -> list[Case]:
    """One TicTacToe position and budget drawn from the secret seed and the submission (none without a seed and a
    student)."""
    student = common.student_id()
    if not (common.has_secret() and student):
        return []
    rng = common.student_rng(LAB, "deepening_clock")
    s = kit.playout(TTT, rng, rng.randint(1, 3))
    name = f"a TicTacToe position drawn for you ({s.to_move} to move):{shown(TTT, s)}"
    cases = budgeted("yours-1", name, TTT, s, 3, node_evaluation(f"yours {student}", TTT.players))
    inside = [c for c in cases if "@mid-" in c.id] or cases
    return [rng.choice(inside)]


def clock_public() -> list[Case]:
    """The fixed cases of the clock group (golden files)."""
    return [c for c in clock() if not c.id.startswith(("random-", "secret-", "yours-"))]


# -- a table kept from an earlier search ---------------------------------------------------------------

#: (tree id, depth of the first search from the root, node searched again, its depth): the node's entry, stored by
#: the first search, answers the second one, which then values and generates nothing (a state cut off at depth 0,
#: a terminal state searched to the end of the game).
KEPT = [("sixteen", 2, "P1.1", 0), ("unbalanced", 2, "P1.1", 0), ("unbalanced", 2, "L.0", math.inf)]


def kept_tables() -> list[Case]:
    """Two searches with one table: ``alphabeta_tt_value(tree, root, table, first, evaluate)``, then
    ``alphabeta_tt_value(tree, node, table, depth, evaluate)``; the case's arguments are (first, depth, evaluate)."""
    out = []
    for id, first, node, depth in KEPT:
        tree = trees.tree(id)
        out.append(Case(f"kept-{id}-{node}", f"{trees.name(id)}: the root searched with depth={first}, then {node} "
                        f"with depth={depth} and the same table", tree, node,
                        (first, depth, node_evaluation(trees.name(id)))))
    return out
