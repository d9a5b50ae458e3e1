"""``make mutants``: how many small changes of each lab's reference solution the hidden checks miss.

For every solution cell of ``source/NN_*/*.ipynb`` (a graded function, or lab 01's ``Nim``
class), `mutations` makes one mutant per place and operator in the solution lines: a
comparison flipped, ``and``/``or`` swapped, an arithmetic operator changed, a constant moved
by one (off-by-one depths), ``max``/``min`` swapped, a negation dropped, the first two
arguments of a call swapped, a statement (assignment, update, call, ``return``, ``break``)
dropped, an ``if`` condition negated. Each mutant is defined in a copy of the notebook's
namespace (every non-test cell run once, ``NBGRADER_EXECUTION`` set) together with the
solution cells after it, and run through the lab's hidden check groups in this process, the
way ``coursetools.hidden.check`` runs them: its own function's groups first, then the others.

A mutant no group fails is compared with the reference on random inputs of its own (trees
with ties, chance and three-player trees, game positions, windows, depths, evaluation and key
functions, heuristic positions, FEN strings; `Sampler`): the result and the ordered
``generate``/``utility``/``evaluate`` steps (what the checks grade). Identical on every sample:
*equivalent*; otherwise a **survivor**, printed with its diff and an input where it differs.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import difflib
import inspect
import io
import math
import os
import random
import sys
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

import nbformat

from coursetools.grading.checker import parse_hidden, split_hidden
from coursetools.hidden import CheckTimeout, load_group, time_limit

GROUP_SECONDS = 10
SAMPLES = 150

# -- the operators ----------------------------------------------------------------------------

FLIP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
        ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
ARITH = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.FloorDiv, ast.FloorDiv: ast.Div,
         ast.Mod: ast.FloorDiv, ast.RShift: ast.LShift, ast.LShift: ast.RShift, ast.BitAnd: ast.BitOr,
         ast.BitOr: ast.BitAnd}
DROPPABLE = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Return, ast.Break, ast.Continue)


def _changes(node: ast.AST) -> Iterator[tuple[str, Callable[[ast.AST], ast.AST | None]]]:
    """(what, how) for each way this node can be mutated; `how` edits a copy of it in place."""
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            if type(op) in FLIP:
                yield f"{type(op).__name__} -> {FLIP[type(op)].__name__}", lambda n, i=i: _set_op(n, i)
    elif isinstance(node, ast.BoolOp):
        yield "and <-> or", lambda n: setattr(n, "op", ast.Or() if isinstance(n.op, ast.And) else ast.And())
    elif isinstance(node, (ast.BinOp, ast.AugAssign)) and type(node.op) in ARITH:
        yield f"{type(node.op).__name__} -> {ARITH[type(node.op)].__name__}", \
            lambda n: setattr(n, "op", ARITH[type(n.op)]())
    elif isinstance(node, ast.Constant) and type(node.value) in (int, float):
        yield f"{node.value!r} + 1", lambda n: setattr(n, "value", n.value + 1)
        yield f"{node.value!r} - 1", lambda n: setattr(n, "value", n.value - 1)
    elif isinstance(node, ast.Constant) and type(node.value) is bool:
        yield f"{node.value} -> {not node.value}", lambda n: setattr(n, "value", not n.value)
    elif isinstance(node, ast.Name) and node.id in ("max", "min") and isinstance(node.ctx, ast.Load):
        yield "max <-> min", lambda n: setattr(n, "id", "min" if n.id == "max" else "max")
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.Not)):
        yield f"drop {type(node.op).__name__}", lambda n: n.operand
    if isinstance(node, ast.Call) and len(node.args) >= 2 and not any(isinstance(a, ast.Starred) for a in node.args[:2]):
        yield "swap arguments", lambda n: setattr(n, "args", [n.args[1], n.args[0], *n.args[2:]])
    if isinstance(node, ast.If):
        yield "negate if", lambda n: setattr(n, "test", ast.UnaryOp(ast.Not(), n.test))
    if isinstance(node, DROPPABLE):
        yield f"drop {type(node).__name__.lower()}", lambda n: ast.Pass()


def _set_op(node: ast.Compare, i: int) -> None:
    node.ops[i] = FLIP[type(node.ops[i])]()


@dataclass
class Mutant:
    function: str
    line: int
    what: str
    source: str
    diff: str
    status: str = ""  # killed, equivalent, survivor, broken
    by: str = ""  # the group that killed it, or where a survivor differs


def mutations(source: str, function: str, lines: set[int]) -> list[Mutant]:
    """Every mutant of `source` (a solution cell) at a node on one of `lines` (the solution lines)."""
    tree = ast.parse(source)
    places = [n for n in ast.walk(tree) if getattr(n, "lineno", None) in lines]
    out, seen = [], {ast.unparse(tree)}
    for index, node in enumerate(places):
        for what, how in _changes(node):
            mutated = copy.deepcopy(tree)
            target = [n for n in ast.walk(mutated) if getattr(n, "lineno", None) in lines][index]
            replacement = how(target)
            if replacement is not None and not _replace(mutated, target, replacement):
                continue
            try:
                text = ast.unparse(ast.fix_missing_locations(mutated))
                compile(text, function, "exec")
            except (SyntaxError, ValueError):
                continue
            if text in seen:
                continue
            seen.add(text)
            diff = "".join(difflib.unified_diff(
                ast.unparse(tree).splitlines(True), text.splitlines(True), "reference", "mutant", n=1))
            out.append(Mutant(function, node.lineno, what, text, diff))
    return out


def _replace(tree: ast.AST, old: ast.AST, new: ast.AST) -> bool:
    for parent in ast.walk(tree):
        for name, value in ast.iter_fields(parent):
            if isinstance(value, list) and any(v is old for v in value):
                value[[i for i, v in enumerate(value) if v is old][0]] = new
                return True
            if value is old:
                setattr(parent, name, new)
                return True
    return False


# -- a lab as the pass sees it ------------------------------------------------------------------

@dataclass
class Lab:
    name: str
    namespace: dict
    solutions: list[tuple[str, str, set[int]]]  # (grade_id, cell source, solution lines) in notebook order
    groups: list[tuple[str, dict]] = field(default_factory=list)  # (group, param -> notebook name)


@contextlib.contextmanager
def _as_graded() -> Any:
    """``NBGRADER_EXECUTION`` set for the block only (cells skip their long demos), then as it was."""
    before = os.environ.get("NBGRADER_EXECUTION")
    os.environ["NBGRADER_EXECUTION"] = "autograde"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("NBGRADER_EXECUTION", None)
        else:
            os.environ["NBGRADER_EXECUTION"] = before


def load_lab(source: Path) -> Lab:
    """Run every non-test cell of a source notebook once (graded cells skip their long demos)."""
    import matplotlib

    matplotlib.use("Agg")
    nb = nbformat.read(source, as_version=4)
    lab = Lab(source.parent.name, {"__name__": "__lab__"}, [])
    cwd = os.getcwd()
    os.chdir(source.parent)
    from IPython.display import display

    lab.namespace["display"] = display
    try:
        with contextlib.redirect_stdout(io.StringIO()), _as_graded():
            for cell in nb.cells:
                meta = cell.metadata.get("nbgrader", {})
                if cell.cell_type != "code":
                    continue
                if meta.get("grade") and not meta.get("solution"):
                    for call in parse_hidden(split_hidden(cell.source)[1] or "check('x', 'y')"):
                        lab.groups.append((call.group, call.names))
                    continue
                if meta.get("solution"):
                    src = cell.source
                    rows = src.splitlines()
                    begin = [i for i, r in enumerate(rows) if r.strip() == "### BEGIN SOLUTION"]
                    end = [i for i, r in enumerate(rows) if r.strip() == "### END SOLUTION"]
                    lines = {n for b, e in zip(begin, end) for n in range(b + 2, e + 1)}  # 1-based, between markers
                    lab.solutions.append((meta["grade_id"], src, lines or set(range(1, len(rows) + 1))))
                try:
                    exec(compile(cell.source, f"<{lab.name}>", "exec"), lab.namespace)  # noqa: S102 - the course's own source
                except Exception as exc:  # noqa: BLE001 - a figure or widget cell that needs a front end
                    print(f"  ({lab.name}: a cell raised {type(exc).__name__}: {str(exc)[:80]}; going on)", file=sys.stderr)
    finally:
        os.chdir(cwd)
    return lab


def define(lab: Lab, index: int, source: str) -> dict:
    """A copy of the lab's namespace with solution cell `index` as `source` and the later solution cells re-run."""
    ns = dict(lab.namespace)
    with _as_graded():
        exec(compile(source, "<mutant>", "exec"), ns)  # noqa: S102
        for _, later, _ in lab.solutions[index + 1:]:
            exec(compile(later, "<solution>", "exec"), ns)  # noqa: S102
    return ns


def names_defined(source: str) -> set[str]:
    return {n.name for n in ast.parse(source).body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}


def run_groups(lab: Lab, ns: dict, first: set[str]) -> str | None:
    """The first group (its own function's groups first) that fails on `ns`'s functions; None if all pass."""
    order = sorted(lab.groups, key=lambda g: not (set(g[1].values()) & first))
    for group, names in order:
        try:
            with time_limit(GROUP_SECONDS):
                load_group(lab.name, group)(**{p: ns[n] for p, n in names.items()})
        except CheckTimeout:
            return f"{group} (timeout)"
        except Exception:  # noqa: BLE001 - a CheckFailed, or the check stumbling on a broken mutant
            return group
    return None


# -- equivalence on random inputs --------------------------------------------------------------

def _score(seed: int, *parts: Any) -> int:
    return zlib.crc32(repr((seed, *parts)).encode()) % 11 - 5


@dataclass(frozen=True)
class Evaluate:
    """An evaluation function argument: the call records its calls on the traced game."""

    fn: Callable[..., Any]


def canonical(x: Any) -> str:
    """A result as text; a GameTree as its whole structure (its repr only counts the nodes)."""
    from course_lib.games import GameTree

    if not isinstance(x, GameTree):
        return repr(x)

    def walk(node: Any) -> Any:
        if x.is_terminal(node):
            return (node, x.utility(node, x.players[0]))
        return (node, x.to_move(node), [walk(x.result(node, a)) for a in x.actions(node)])

    return repr(walk(x.initial))


class Sampler:
    """Random inputs for a graded function, from its parameter names (and its name)."""

    def __init__(self, ns: dict, seed: int = 0) -> None:
        self.ns, self.rng = ns, random.Random(seed)

    def tree(self) -> Any:
        from course_lib.games import GameTree

        rng = self.rng

        def grow(depth: int) -> Any:
            if depth == 0 or (depth < 3 and rng.random() < 0.25):
                return rng.randint(-4, 4)
            return [grow(depth - 1) for _ in range(rng.randint(1, 3))]

        spec = [grow(rng.randint(1, 3)) for _ in range(rng.randint(2, 3))]
        return GameTree.from_nested(spec, root=rng.choice(["MAX", "MIN"]))

    def chance_tree(self) -> Any:
        from course_lib.games import GameTree

        rng = self.rng

        def grow(depth: int, level: int) -> Any:
            if depth == 0:
                return rng.randint(-4, 4)
            kids = [grow(depth - 1, level + 1) for _ in range(rng.randint(1, 3))]
            if level % 2 == 1:  # a chance level: probabilities summing to 1
                weights = [rng.randint(1, 3) for _ in kids]
                return [(w / sum(weights), k) for w, k in zip(weights, kids)]
            return kids

        return GameTree.from_nested(grow(rng.choice([2, 3, 4]), 0), levels=("MAX", "CHANCE", "MIN", "CHANCE"))

    def three_player_tree(self) -> Any:
        from course_lib.games import GameTree

        rng = self.rng

        def grow(depth: int) -> Any:
            if depth == 0 or rng.random() < 0.2:
                a = rng.randint(0, 10)
                b = rng.randint(0, 10 - a)
                return (a, b, 10 - a - b)
            return [grow(depth - 1) for _ in range(rng.randint(1, 3))]

        return GameTree.from_nested([grow(rng.randint(1, 3)) for _ in range(rng.randint(2, 3))],
                                    root=rng.choice(["P1", "P2", "P3"]))

    def playout(self, game: Any, low: int, high: int) -> Any:
        for _ in range(50):
            s = game.initial
            for _ in range(self.rng.randint(low, high)):
                if game.is_terminal(s):
                    break
                s = game.result(s, self.rng.choice(game.actions(s)))
            if not game.is_terminal(s):
                return s
        return game.initial

    def game_and_state(self, name: str, deep: bool) -> tuple[Any, Any]:
        from course_lib.games import PigRace, RaceTo, TicTacToe

        rng = self.rng
        if "expectimax" in name:
            if rng.random() < 0.5:
                return (t := self.chance_tree()), t.initial
            g = PigRace(target=rng.randint(3, 5), rolls=3, die=(1, 2, 2, 3))
            return g, self.playout(g, 0, 4)
        if "maxn" in name:
            return (t := self.three_player_tree()), t.initial
        if "quiescence" in name:  # a tree with noisy nodes (lab 05's exchanges)
            from course_lib.games import ExchangeTree

            t = self.tree()
            inner = [n for n in t.nodes() if not t.is_terminal(n)]
            t = ExchangeTree(t._kind, t._children, t._value, t.initial, noisy=[n for n in inner if rng.random() < 0.4])
            return t, t.initial
        pick = rng.random()
        if pick < 0.6:
            return (t := self.tree()), t.initial
        if pick < 0.8:
            g = RaceTo(rng.randint(4, 8), rng.randint(2, 3))
            return g, self.playout(g, 0, 3)
        g = TicTacToe()
        return g, self.playout(g, 6 if not deep else 3, 7 if not deep else 5)

    def heuristic_position(self, name: str) -> tuple[Any, Any]:
        from course_lib.games import ConnectFour, Isolation

        if name.startswith("isolation"):
            g = Isolation()
        elif name.startswith("connect_four"):
            g = ConnectFour()
        else:
            g = self.rng.choice(self.ns["food_boards"])
        return g, self.playout(g, 0, 14)

    def fen(self) -> str:
        ranks = []
        for _ in range(8):
            row, empty = "", 0
            for _ in range(8):
                if self.rng.random() < 0.6:
                    empty += 1
                    continue
                row += (str(empty) if empty else "") + self.rng.choice("pnbrqkPNBRQK")
                empty = 0
            ranks.append(row + (str(empty) if empty else ""))
        return "/".join(ranks) + (" w - - 0 1" if self.rng.random() < 0.5 else "")

    def call(self, name: str, params: list[str]) -> tuple[Any, tuple, str]:
        """(game or None, arguments, a description) for one call of function `name`."""
        rng, seed = self.rng, self.rng.randrange(10**6)
        if params[:2] == ["state", "player"]:
            game, state = self.heuristic_position(name)
            return None, (state, rng.choice(list(game.players))), f"{type(game).__name__} position\n{state}"
        if params[:2] == ["fen", "player"]:
            fen = self.fen()
            return None, (fen, rng.choice("wb")), fen
        if params == ["tree"]:
            tree = self.tree()
            return None, (tree,), f"tree {tree.initial}"
        game, state = self.game_and_state(name, deep="depth" not in params)
        args: list[Any] = []
        for p in params[2:]:
            if p == "alpha":
                args.append(rng.choice([-math.inf, -math.inf, -2, 0, 1]))
            elif p == "beta":
                args.append(rng.choice([math.inf, math.inf, 3, 1, 0]) if args[-1] < 1 else math.inf)
            elif p == "key":
                args.append(lambda s, a, seed=seed: _score(seed, s, a))
            elif p == "table":
                args.append({})
            elif p in ("depth", "max_depth"):
                args.append(rng.randint(0 if p == "depth" else 1, 3))
            elif p == "evaluate":
                first = game.players[0]
                args.append(Evaluate(lambda s, player, seed=seed, first=first:
                                     _score(seed, s) * (1 if player == first else -1)))
            elif p == "max_sum":
                args.append(10)
        shown = ", ".join(f"{p}=<random {p}>" if callable(a) or isinstance(a, Evaluate) else f"{p}={a!r}"
                          for p, a in zip(params[2:], args))
        where = f"{game!r:.120} at {state!r:.200}" + (f" with {shown}" if shown else "")
        if type(game).__name__ == "GameTree":
            where += f"\n    the tree (node, mover, children / leaf value): {canonical(game)[:400]}"
        return game, (state, *args), where

    def behaviour(self, fn: Any, game: Any, args: tuple) -> Any:
        """What one call did: its result (or error type) and, on a game, its ordered steps; tables after."""
        from course_lib.trace import Traced

        traced = Traced(game) if game is not None else None
        call_args = args if traced is None else (traced, *(traced.evaluator(a.fn) if isinstance(a, Evaluate) else a
                                                          for a in args))
        try:
            with time_limit(5):
                result = canonical(fn(*call_args))
        except CheckTimeout:
            result = "timeout"
        except Exception as exc:  # noqa: BLE001 - an error is behaviour too
            result = f"raised {type(exc).__name__}"
        steps = [] if traced is None else [(e.kind, e.node) for e in traced.trace.events("generate", "utility", "evaluate")]
        tables = [sorted(map(repr, a.items())) for a in args if isinstance(a, dict)]
        return result, steps, tables


def nim_behaviour(cls: type, rng: random.Random) -> tuple[Any, str]:
    """What a Nim class does from random heaps: every reachable state's answers, and illegal moves."""
    heaps = tuple(rng.randint(0, 3) for _ in range(rng.randint(1, 3)))
    out: list = []
    try:
        game = cls(heaps)
        todo, seen = [game.initial], set()
        while todo and len(seen) < 40:
            s = todo.pop(0)
            if s in seen:
                continue
            seen.add(s)
            term = game.is_terminal(s)
            row = [repr(s), repr(game.to_move(s)), term, repr(game.actions(s))]
            if term:
                row += [repr(game.utility(s, p)) for p in game.players]
            for a in game.actions(s):
                todo.append(game.result(s, a))
            for bad in [(len(heaps), 1), (0, 0), (0, 9)]:
                try:
                    game.result(s, bad)
                    row.append("accepted")
                except Exception as exc:  # noqa: BLE001
                    row.append(type(exc).__name__)
            out.append(row)
    except Exception as exc:  # noqa: BLE001
        out.append(f"raised {type(exc).__name__}")
    return out, f"Nim{heaps}"


def differs(lab: Lab, reference: dict, mutant: dict, function: str, samples: int = SAMPLES) -> str | None:
    """An input where the mutant's behaviour differs from the reference's, None if it never does."""
    ref_obj, mut_obj = reference[function], mutant[function]
    if inspect.isclass(ref_obj):
        for seed in range(samples):
            (a, where), (b, _) = nim_behaviour(ref_obj, random.Random(seed)), nim_behaviour(mut_obj, random.Random(seed))
            if a != b:
                return where
        return None
    params = list(inspect.signature(ref_obj).parameters)
    for seed in range(samples):
        sampler = Sampler(lab.namespace, seed)
        game, args, where = sampler.call(function, params)
        a = sampler.behaviour(ref_obj, game, copy.deepcopy(args))
        b = sampler.behaviour(mut_obj, game, copy.deepcopy(args))
        if a != b:
            return f"{where}\n    reference: {str(a[0])[:120]}; mutant: {str(b[0])[:120]}" + (
                "" if a[0] != b[0] else " (the same result; other steps or table contents)")
    return None


# -- the pass -----------------------------------------------------------------------------------

def run_lab(source: Path, out: Any = sys.stdout) -> dict[str, int]:
    t0 = time.monotonic()
    lab = load_lab(source)
    counts = {"made": 0, "killed": 0, "equivalent": 0, "survivors": 0, "broken": 0}
    equivalent: list[Mutant] = []
    reference = dict(lab.namespace)
    survivors: list[Mutant] = []
    for index, (grade_id, src, lines) in enumerate(lab.solutions):
        names = names_defined(src)
        function = grade_id if grade_id in names else (sorted(names)[0] if names else grade_id)
        if not any(set(n.values()) & names for _, n in lab.groups):
            continue  # a solution cell no test grades (lab 03's minimax from lab 02)
        for m in mutations(src, function, lines):
            counts["made"] += 1
            try:
                ns = define(lab, index, m.source)
            except Exception:  # noqa: BLE001 - a mutant that cannot even be defined is caught at once
                m.status, counts["broken"] = "killed", counts["broken"] + 1
                counts["killed"] += 1
                continue
            with contextlib.redirect_stdout(io.StringIO()):
                killer = run_groups(lab, ns, names)
                where = None if killer else differs(lab, reference, ns, function)
            if killer:
                m.status, m.by = "killed", killer
                counts["killed"] += 1
                continue
            if where is None:
                m.status = "equivalent"
                counts["equivalent"] += 1
                equivalent.append(m)
            else:
                m.status, m.by = "survivor", where
                counts["survivors"] += 1
                survivors.append(m)
    print(f"{lab.name}: {counts['made']} mutants, {counts['killed']} killed, {counts['equivalent']} equivalent, "
          f"{counts['survivors']} SURVIVORS ({time.monotonic() - t0:.0f} s)", file=out, flush=True)
    if equivalent:
        print("  equivalent (identical on every sample): " + "; ".join(
            f"{m.function} line {m.line} {m.what}" for m in equivalent), file=out)
    for m in survivors:
        print(f"  SURVIVOR {m.function} line {m.line}: {m.what}; differs on {m.by}", file=out)
        print("    " + m.diff.rstrip().replace("\n", "\n    "), file=out, flush=True)
    return counts


def cmd_mutants(args: Any) -> int:
    """Mutate every lab's reference solution and run the mutants through the hidden checks."""
    from coursetools import course_root

    root = course_root()
    from coursetools.labs import labs_in, source_notebook

    sources = [source_notebook(root, lab) for lab in labs_in(root)]
    if args.labs:
        sources = [s for s in sources if s.parent.name in args.labs or s.parent.name[:2] in args.labs]
    from coursetools.quality.rulemutants import check_rule_mutants, folder, rule_mutants_table

    total, rules = {}, {}
    for source in sources:
        lab = source.parent.name
        if not args.rules_only:
            total[lab] = run_lab(source)["survivors"]
        if folder(root, lab).is_dir():
            results, missing = check_rule_mutants(root, lab, write=args.write)
            print(rule_mutants_table(lab, results, missing), flush=True)
            rules[lab] = sum(r.problem is not None for r in results) + len(missing)
    if total:
        print("survivors per lab: " + ", ".join(f"{k} {v}" for k, v in total.items()))
    if rules:
        print("rule mutants with a problem (or rules without one) per lab: "
              + ", ".join(f"{k} {v}" for k, v in rules.items()))
    return 0
