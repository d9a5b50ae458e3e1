"""The first wrong step of a Monte Carlo tree search: where its generated states leave the correct search's, or
the first backup after which its tree holds other visits or totals, and what the correct search held there (the
selection with every child's visits, total and UCB1 score, the untried actions, the rollout's draw).

The correct run is written down as notes, one `Step` per state generated and one `Backup` per iteration; they are
data (`encode` / `decode`, states written as the moves from the start), so a lab's visible tests ship them for
their public cases and `explain_search_run` compares a student's search with them.
"""

from __future__ import annotations

import base64
import json
import random
import zlib
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable

from .annotations import action_text
from .explain import _back, _plain, num
from .games import GameTree
from .trace import Traced


@dataclass
class Pick:
    """One selection step of the correct search: a node, its visits, its children (action, visits, total, UCB1)."""

    node: Hashable
    path: tuple
    visits: int
    kids: list
    chosen: int


@dataclass
class Step:
    """One state the correct search generated: from where, by which action, in which iteration and phase."""

    parent: Hashable
    action: Any
    iteration: int
    phase: str                      # "expand" or "rollout"
    picks: list                     # the selection of its iteration
    node: Hashable = None           # the node expanded (expand) or the rollout's start (rollout)
    untried: list = field(default_factory=list)
    actions: list = field(default_factory=list)
    move: int = 0                   # the rollout's move number
    draws: int = 0                  # numbers drawn from the generator before this step
    known: dict = field(default_factory=dict)   # state -> its path of actions, for every node of the tree then


@dataclass
class Backup:
    """The backup of one iteration: the final state and, per node of the path, (path, state, player, visits, total)."""

    iteration: int
    final: Hashable
    nodes: list
    picks: list = field(default_factory=list)   # its selection (kept for an iteration that generates no state)


def read_tree(root: Any, limit: int = 600) -> tuple | None:
    """A returned root as (visits, total, ((action, subtree), ...)); None when it cannot be read (or is too big)."""
    count = [0]

    def read(n: Any) -> tuple:
        count[0] += 1
        if count[0] > limit:
            raise ValueError("too big")
        kids = tuple((ch.action, read(ch)) for ch in list(n.children))
        return (n.visits, n.total, kids)

    try:
        return read(root)
    except Exception:  # noqa: BLE001 - a tree that cannot be read is simply not explained
        return None


def at_path(tree: tuple | None, path: tuple) -> tuple | None:
    """The (visits, total) of the node reached from the root by `path`; None when there is none."""
    for a in path:
        if tree is None:
            return None
        tree = next((sub for act, sub in tree[2] if act == a), None)
    return None if tree is None else tree[:2]


def _score(x: float) -> str:
    return "inf" if x == float("inf") else f"{x:.3f}"


def _pick_text(p: Pick, name: Callable[[Hashable], str], c: float) -> str:
    kids = "; ".join(f"{action_text(a)}: {_visits(v)}, total {num(t)}, UCB1 {_score(s)}" for a, v, t, s in p.kids)
    at = "The root" if not p.path else f"Selection reaches {name(p.node)}; it"
    return (f"{at} ({_visits(p.visits)}) has no untried action, so selection goes to the child with the largest "
            f"UCB1 = total/visits + c*sqrt(ln({p.visits})/visits), c = {c:.4g}, the first on ties. Its children, by "
            f"move: {kids}. It takes {action_text(p.kids[p.chosen][0])}.")


def search_step(case_name: str, steps: list[Step], got: list[tuple], name: Callable[[Hashable], str],
                c: float, iterations: int, backups: list[Backup] | None = None) -> str | None:
    """Where the student's steps (parent, action) first leave the correct search's, what the correct search held
    there (its selection with every child's visits, total and UCB1, the untried actions, the rollout's draw) and
    what theirs did; None when they agree."""
    want = [(s.parent, s.action) for s in steps]
    i = next((j for j, (w, g) in enumerate(zip(want, got)) if w != g), None)
    if i is None:
        if len(want) == len(got):
            return None
        i = min(len(want), len(got))
    mine = got[i] if i < len(got) else None
    theirs = "Yours generated nothing more." if mine is None else \
        f"Yours generated {name(mine[0])} -> {action_text(mine[1])}."
    head = f"{case_name}: your search first differs from the correct one at generated state {i + 1}"
    # an iteration of the correct search that generates nothing (it selects a terminal node) before this state
    after = steps[i - 1].iteration if i else 0
    upto = steps[i].iteration if i < len(steps) else iterations + 1
    busy = {st.iteration for st in steps}
    silent = [b for b in backups or [] if after < b.iteration < upto and b.iteration not in busy]
    if silent and mine is not None:
        b = silent[0]
        lines = [f"{head}, in iteration {b.iteration} of the correct search."]
        if b.picks:
            lines.append(_pick_text(b.picks[0], name, c))
        lines.append(f"Its selection ends at {name(b.final)}, a terminal state: nothing to expand and no rollout "
                     "move, so that iteration generates no state; only its backup follows.")
        return "\n".join([*lines, theirs])
    if i >= len(want):
        plural = "s" if iterations != 1 else ""
        last = f", the last {name(want[-1][0])} -> {action_text(want[-1][1])}, into a terminal state" if want else ""
        return (f"{head}: the correct search generates {len(want)} state{'s' if len(want) != 1 else ''} in its "
                f"{iterations} iteration{plural}{last}; then it stops (each iteration adds one node and plays its "
                f"rollout to a terminal state).\n{theirs}")
    s = steps[i]
    lines = [f"{head}, in iteration {s.iteration}."]
    if s.phase == "rollout":
        before = f"After expanding {name(s.node)}, the rollout" if s.picks or s.move > 1 else "The rollout"
        if mine is not None and mine[0] == s.parent or s.move > 1:
            lines.append(f"{before} is at {name(s.parent)} (move {s.move}), where the actions are "
                         f"{', '.join(action_text(a) for a in s.actions)}; the generator has made {s.draws} draws "
                         f"before it, and rng.choice(game.actions(s)) takes {action_text(s.action)}.")
        else:
            lines.append(f"{before} starts from the new node {name(s.node)}: its first move is "
                         f"rng.choice(game.actions(s)) at {name(s.node)}, {action_text(s.action)} (after {s.draws} "
                         "draws of the generator).")
        lines.append(theirs)
        return "\n".join(lines)
    # an expansion: where the student's step left the selection path
    mine_path = None if mine is None else s.known.get(mine[0])
    sel = [p.path for p in s.picks] + [s.known.get(s.node, ())]
    if mine is not None and mine[0] == s.node:
        lines.append(f"Selection reaches {name(s.node)}, whose untried actions are "
                     f"{', '.join(action_text(a) for a in s.untried)} (in actions() order): expansion takes the "
                     f"first, {action_text(s.action)}.")
    elif mine_path is not None:
        d = 0
        while d < min(len(mine_path), len(sel[-1])) and mine_path[d] == sel[-1][d]:
            d += 1
        if d < len(s.picks):
            lines.append(_pick_text(s.picks[d], name, c))
        else:
            lines.append(f"Selection reaches {name(s.node)}, which still has untried actions "
                         f"({', '.join(action_text(a) for a in s.untried)}): it stops there and expands the first, "
                         f"{action_text(s.action)}.")
    else:  # the student's step is not below a node of the tree: the whole selection, from its first choice
        if s.picks:
            lines.append(_pick_text(s.picks[0], name, c))
        lines.append(f"Selection ends at {name(s.node)}, whose first untried action is {action_text(s.action)}: "
                     "expansion takes it."
                     + (f" Yours generated from {name(mine[0])}, which is not a node of the tree after "
                        f"{s.iteration - 1} iterations." if mine is not None else ""))
    lines.append(theirs)
    return "\n".join(lines)


def backup_step(case_name: str, backups: list[Backup], j: int, theirs: tuple | None, game: Any,
                name: Callable[[Hashable], str]) -> str:
    """Iteration `j`'s backup: the final state, its utilities, and each node of the path whose (visits, total)
    after it differs in the student's tree `theirs`, or the nodes one tree has and the other has not."""
    b = backups[j - 1]
    lines = [f"{case_name}: your search generates the correct states, but after iteration {j} its tree first holds "
             "other visits, totals or nodes than the correct one" + (f" (after iteration {j - 1} they agree)." if j > 1
                                                                     else ".")]
    players = sorted({p for _, _, p, _, _ in b.nodes if p is not None}, key=str)
    util = ", ".join(f"{num(game.utility(b.final, p))} for {p}" for p in players)
    lines.append(f"Its rollout ends at {name(b.final)} (utility {util}). Backup adds 1 visit to every node of the "
                 "path and, to each node but the root, the utility for the player who moved into that node "
                 "(node.player).")
    shown = []
    for path, state, player, visits, total in b.nodes:
        mine = at_path(theirs, path)
        if mine is None or mine[0] != visits or not _same_num(mine[1], total):
            yours = "none in yours" if mine is None else f"yours {_visits(mine[0])}, total {num(mine[1])}"
            who = "the root" if player is None else f"moved into by {player}"
            shown.append(f"{name(state)} ({who}): {_visits(visits)}, total {num(total)}; {yours}")
    if shown:
        lines.append("On its path: " + "; ".join(shown[:4]) + ("; ..." if len(shown) > 4 else "") + ".")
    else:
        right, mine_all = _flat(tree_after(backups, j)), _flat(theirs)
        root = b.nodes[0][1]

        def named(path: tuple) -> str:
            s = root
            for a in path:
                s = game.result(s, a)
            return name(s)

        extra = [p for p in mine_all if p not in right]
        missing = [p for p in right if p not in mine_all]
        if extra:
            lines.append(f"The correct tree has {len(right)} nodes after iteration {j} (one more per iteration: the "
                         f"node expansion makes); yours has {len(mine_all)}, among them "
                         f"{', '.join(named(p) for p in extra[:3])}, which the correct one has not.")
        elif missing:
            lines.append(f"The correct tree has {len(right)} nodes after iteration {j}; yours has {len(mine_all)}, "
                         f"without {', '.join(named(p) for p in missing[:3])}.")
        else:
            odd = [p for p in right if right[p] != mine_all[p]][:3]
            lines.append("Elsewhere in the tree: " + "; ".join(
                f"{named(p)}: {_visits(right[p][0])}, total {num(right[p][1])}; yours {_visits(mine_all[p][0])}, "
                f"total {num(mine_all[p][1])}" for p in odd) + ".")
    return "\n".join(lines)


def _flat(tree: tuple | None, path: tuple = ()) -> dict:
    """path -> (visits, total) of every node of a tree `read_tree` wrote."""
    if tree is None:
        return {}
    out = {path: tuple(tree[:2])}
    for a, sub in tree[2]:
        out.update(_flat(sub, (*path, a)))
    return out


def _same_num(a: Any, b: Any) -> bool:
    try:
        return abs(a - b) < 1e-9
    except Exception:  # noqa: BLE001
        return False


def _same_tree(a: tuple, b: tuple) -> bool:
    return (a[0] == b[0] and _same_num(a[1], b[1]) and len(a[2]) == len(b[2])
            and all(x[0] == y[0] and _same_tree(x[1], y[1]) for x, y in zip(a[2], b[2])))


def _visits(n: int) -> str:
    return f"{n} visit" + ("" if n == 1 else "s")




def tree_after(backups: list[Backup], m: int) -> tuple:
    """The correct tree after `m` iterations as `read_tree` writes it, from the backups alone: a node's visits and
    total are those of its last backup, its children come in the order they were made."""
    stats: dict[tuple, tuple] = {(): (0, 0)}
    order: list[tuple] = []
    for b in backups[:m]:
        for path, _state, _player, visits, total in b.nodes:
            if path not in stats:
                order.append(path)
            stats[path] = (visits, total)

    def build(path: tuple) -> tuple:
        kids = tuple((p[-1], build(p)) for p in order if len(p) == len(path) + 1 and p[:-1] == path)
        return (*stats[path], kids)

    return build(())


def explain_steps(case_name: str, game: Any, steps: list[Step], backups: list[Backup], got: list[tuple],
                  name: Callable[[Hashable], str], c: float, iterations: int,
                  student_tree: Callable[[int], tuple], max_reads: int = 8) -> str | None:
    """The first wrong step of a search (`got`: its (parent, action) steps). Run for fewer iterations m (the same
    seed; only before the iteration whose steps first differ), the student's search is found where it first
    differs: the backup of iteration m when its states are right but its tree holds other visits, totals or nodes,
    else the selection, expansion or rollout step of that shorter run; when the shorter runs agree, the step where
    the states first differ. None when nothing differs. `student_tree(m)` is the student's tree after m
    iterations (`read_tree`) and the steps it generated ((None, None) when it fails)."""
    want = [(s.parent, s.action) for s in steps]
    i = next((j for j, (w, g) in enumerate(zip(want, got)) if w != g), None)
    if i is None and len(want) != len(got):
        i = min(len(want), len(got))
    last = iterations if i is None or i >= len(steps) else steps[i].iteration - 1
    reads: dict[int, tuple] = {}

    def bad(m: int) -> str:
        """How the student's run of m iterations differs: "steps", "tree" (its states are right) or ""."""
        if m not in reads:
            if len(reads) >= max_reads:
                raise LookupError
            mine, done = student_tree(m)
            if done is None:
                raise LookupError  # it fails when run for m iterations: nothing to say here
            kind = "steps" if done != [(s.parent, s.action) for s in steps if s.iteration <= m] else \
                "tree" if mine is not None and not _same_tree(mine, tree_after(backups, m)) else ""
            reads[m] = (kind, mine, done)
        return reads[m][0]

    try:
        if last > 0 and bad(last):
            lo, hi = 1, last  # the first number of iterations whose run differs (the runs of fewer agree)
            while lo < hi:
                mid = (lo + hi) // 2
                lo, hi = (lo, mid) if bad(mid) else (mid + 1, hi)
            if lo == 1 or not bad(lo - 1):
                kind, mine, done = reads[lo]
                if kind == "tree":
                    return backup_step(case_name, backups, lo, mine, game, name)
                fewer = f", run for {lo} iteration{'s' if lo > 1 else ''} (the same seed)" if lo < iterations else ""
                return search_step(f"{case_name}{fewer}",
                                   [s for s in steps if s.iteration <= lo], done, name, c, lo, backups[:lo])
    except LookupError:
        pass
    return None if i is None else search_step(case_name, steps, got, name, c, iterations, backups)


# -- notes as data -----------------------------------------------------------------------------------------

def encode(steps: list[Step], backups: list[Backup], path_of: Callable[[Hashable], tuple]) -> str:
    """The notes as one line of text, every state written as `path_of(state)`, the moves from the start (the nodes
    of the tree are kept with the expansions only: a rollout's message does not use them)."""
    def pick(p: Pick) -> list:
        return [path_of(p.node), p.path, p.visits, p.kids, p.chosen]

    busy = {s.iteration for s in steps}  # the selection of an iteration that generates no state is kept
    data = [[[path_of(s.parent), s.action, s.iteration, s.phase, [pick(p) for p in s.picks], path_of(s.node),
              s.untried, s.actions, s.move, s.draws,
              [[path_of(k), v] for k, v in s.known.items()] if s.phase == "expand" else []] for s in steps],
            [[b.iteration, path_of(b.final), [[p, path_of(st), pl, v, t] for p, st, pl, v, t in b.nodes],
              [pick(p) for p in b.picks] if b.iteration not in busy else []] for b in backups]]
    return base64.b64encode(zlib.compress(json.dumps(_plain(data), separators=(",", ":")).encode(), 9)).decode()


def decode(text: str, game: Any, start: Hashable) -> tuple[list[Step], list[Backup]]:
    """The notes `encode` wrote, with their states made again from `start` by the moves."""
    raw_steps, raw_backups = _back(json.loads(zlib.decompress(base64.b64decode(text))))
    seen: dict[tuple, Hashable] = {}

    def state(path: Any) -> Hashable:
        path = tuple(path)
        if path not in seen:
            s = start
            for a in path:
                s = game.result(s, a)
            seen[path] = s
        return seen[path]

    def pick(row: list) -> Pick:
        node, path, visits, kids, chosen = row
        return Pick(state(node), tuple(path), visits, [tuple(k) for k in kids], chosen)

    steps = [Step(state(p), a, k, ph, [pick(x) for x in picks], state(node), list(untried), list(actions), move, draws,
                  {state(q): tuple(v) for q, v in known})
             for p, a, k, ph, picks, node, untried, actions, move, draws, known in raw_steps]
    backups = [Backup(k, state(final), [(tuple(p), state(st), pl, v, t) for p, st, pl, v, t in nodes],
                      [pick(x) for x in picks]) for k, final, nodes, picks in raw_backups]
    return steps, backups


def _names(game: Any, start: Hashable, pairs: list[tuple]) -> Callable[[Hashable], str]:
    """Nodes as students read them: tree labels, or the moves from the start (``root``, ``(0,1)/(2,2)``)."""
    if isinstance(game, GameTree):
        return str
    paths: dict = {start: ()}
    for parent, action in pairs:
        if parent in paths:
            paths.setdefault(game.result(parent, action), (*paths[parent], action))
    return lambda s: "/".join(action_text(a) for a in paths[s]) or "root" if s in paths else "?"


def explain_search_run(case_name: str, search: Callable[..., Any], game: Any, state: Hashable, iterations: int,
                       seed: Any, c: float, notes: str) -> str | None:
    """Your `search(game, state, iterations, random.Random(seed), c)` against the shipped notes of the correct one:
    None when every step and every backup agree, else the first wrong step."""
    steps, backups = decode(notes, game, state)

    def run(m: int) -> tuple:
        traced = Traced(game)
        root = search(traced, state, m, random.Random(seed), c)
        return read_tree(root), [(e.parent, e.action) for e in traced.trace.events("generate")]

    rng = random.Random(seed)
    traced = Traced(game)
    search(traced, state, iterations, rng, c)
    got = [(e.parent, e.action) for e in traced.trace.events("generate")]
    name = _names(game, state, [(s.parent, s.action) for s in steps] + got)
    text = explain_steps(case_name, game, steps, backups, got, name, c, iterations, run)
    if text is None:  # the same states and tree: the same draws too? (one rng.choice per rollout move)
        replay = random.Random(seed)
        moves = [replay.choice(s.actions) for s in steps if s.phase == "rollout"]
        if replay.getstate() != rng.getstate():
            text = (f"{case_name}: your search generated the correct states and tree, but drew other numbers from "
                    f"the generator: the correct search draws one number per rollout move, rng.choice(game.actions(s)), "
                    f"{len(moves)} in all, and nothing else.")
    return text
