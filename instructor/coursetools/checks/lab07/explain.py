"""Lab 07's explanations (grader only): what a group says when it cannot compare, or where a run first differs."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable, Hashable

from course_lib.explain import num
from course_lib.trace import Traced

from .. import common
from ..common import LentRandom
from ..kit import Case, action_text
from . import reference as ref


def unrepeatable(function: str, skipped: list[Case]) -> str:
    """Why a group compared no case: the search does not repeat itself with one seed (plainly, whose draws)."""
    return (f"{function} is compared with YOUR mcts_search run with the same seed, but yours, run twice with the same "
            f"seed, generated different states on every case here ({', '.join(c.name for c in skipped[:3])}): it draws "
            "numbers from something other than the rng it is given (your rollout or your mcts_search: see "
            "test_rollout and test_search_trees, which grade those draws). Nothing here is graded until it repeats "
            "itself.")


def search_failed(function: str, failed: list[str]) -> str:
    """Why a group compared no case: YOUR search (or your own run without a clock) failed on every one."""
    return (f"{function} is compared with YOUR own search on the same case, but that search failed on every case "
            f"here, so there is nothing to compare with (test_search_trees and test_search_games grade it). The "
            f"first:\n{failed[0]}")


def clock_story(mine: list, plain: list, before: int, n: int, budget: int) -> str:
    """Where a clocked run left YOUR own unclocked run of `n` iterations, whose first n - 1 generate `before` states:
    facts of the two runs and the rule, nothing guessed."""
    rule = ("The clock is asked before each iteration only: an iteration that has started always finishes "
            "(its rollout and its backup), and the next one does not start.")
    if plain[:len(mine)] == mine:
        if len(mine) > before:
            return (f"Your run without a clock: iterations 1 to {n - 1} generate {before} states, iteration {n} "
                    f"generates states {before + 1} to {len(plain)}, and the budget of {budget} is spent by state "
                    f"{budget}, inside iteration {n}. With the clock yours stopped after state {len(mine)}, inside "
                    f"iteration {n}, before the end of that iteration. {rule}")
        return (f"Your run without a clock: iterations 1 to {n - 1} generate {before} states, fewer than the budget "
                f"of {budget}, so the clock has not expired before iteration {n}. With the clock yours stopped after "
                f"state {len(mine)}, before iteration {n} began. {rule}")
    if mine[:len(plain)] == plain:
        return (f"Your run without a clock spends the budget of {budget} in iteration {n}, at its end state "
                f"{len(plain)}; with the clock yours went on to {len(mine)} states, past the end of iteration {n}. "
                f"{rule}")
    first = next(i for i, (a, b) in enumerate(zip(mine, plain)) if a != b)
    return (f"With the clock your run generates other states than without it from state {first + 1} on (the budget "
            f"is {budget}): on clock.watch(game) the search must take the same steps as on the game itself.")


# -- the first wrong step of a search ---------------------------------------------------------------------

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


class _Counting(random.Random):
    """A generator that counts its draws (one per choice)."""

    count = 0

    def _randbelow(self, n: int) -> int:  # type: ignore[override]
        self.count += 1
        return super()._randbelow(n)


def annotated_run(game: Any, state: Hashable, iterations: int, seed: Any, c: float) -> tuple[list[Step], list[Backup]]:
    """The course's MCTS (the lab's rules, as `reference.mcts_search`) with a note per generated state and per
    backup."""
    rng = _Counting(seed)
    root = ref._new(game, state)
    root.path = ()
    steps: list[Step] = []
    backups: list[Backup] = []
    for k in range(1, iterations + 1):
        node, picks = root, []
        while not node.untried and node.children:
            scores = [ref.ucb1(ch.total, ch.visits, node.visits, c) for ch in node.children]
            best = scores.index(max(scores))
            picks.append(Pick(node.state, node.path, node.visits,
                              [(ch.action, ch.visits, ch.total, s) for ch, s in zip(node.children, scores)], best))
            node = node.children[best]
        known = _known(root)
        if node.untried:
            untried = list(node.untried)
            a = node.untried.pop(0)
            steps.append(Step(node.state, a, k, "expand", picks, node.state, untried, draws=rng.count, known=known))
            child = ref._new(game, game.result(node.state, a), node, a, game.to_move(node.state))
            child.path = (*node.path, a)
            node.children.append(child)
            node = child
        s, move = node.state, 0
        while not game.is_terminal(s):
            actions = list(game.actions(s))
            before = rng.count
            a = rng.choice(actions)
            move += 1
            steps.append(Step(s, a, k, "rollout", picks, node.state, actions=actions, move=move, draws=before,
                              known=known))
            s = game.result(s, a)
        path = []
        while node is not None:
            node.visits += 1
            if node.player is not None:
                node.total += game.utility(s, node.player)
            path.append((node.path, node.state, node.player, node.visits, node.total))
            node = node.parent
        backups.append(Backup(k, s, path[::-1]))
    return steps, backups


def _known(root: Any) -> dict:
    out, todo = {}, [root]
    while todo:
        n = todo.pop()
        out.setdefault(n.state, n.path)
        todo.extend(n.children)
    return out


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
                c: float, iterations: int) -> str | None:
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
    if i >= len(want):
        return (f"{head}: the correct search has finished its {iterations} iterations there (each adds one node, then "
                f"plays its rollout).\n{theirs}")
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
    after it differs in the student's tree `theirs`."""
    b = backups[j - 1]
    lines = [f"{case_name}: after {j - 1} iterations your tree holds the correct visits and totals, after {j} it does "
             f"not: the backup of iteration {j} differs."]
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
    lines.append("There: " + "; ".join(shown[:4]) + ("; ..." if len(shown) > 4 else "") + ".")
    return "\n".join(lines)


def _same_num(a: Any, b: Any) -> bool:
    try:
        return abs(a - b) < 1e-9
    except Exception:  # noqa: BLE001
        return False


def rollout_step(case_name: str, game: Any, state: Hashable, seed: Any, got: list[tuple],
                 name: Callable[[Hashable], str]) -> str | None:
    """The first move of a rollout that differs: the state, its actions, the draw rng.choice makes there."""
    rng, s, want = _Counting(seed), state, []
    while not game.is_terminal(s):
        actions = list(game.actions(s))
        before = rng.count
        a = rng.choice(actions)
        want.append((s, a, actions, before))
        s = game.result(s, a)
    i = next((j for j, (w, g) in enumerate(zip(want, got)) if w[:2] != g), None)
    if i is None:
        if len(want) == len(got):
            return None
        i = min(len(want), len(got))
    mine = got[i] if i < len(got) else None
    theirs = "Yours generated nothing more." if mine is None else \
        f"Yours generated {name(mine[0])} -> {action_text(mine[1])}."
    if i >= len(want):
        return (f"{case_name}: your rollout first differs from the correct one at move {i + 1}: the correct rollout "
                f"has reached a terminal state there, {name(s)}, and stops.\n{theirs}")
    at, a, actions, before = want[i]
    return (f"{case_name}: your rollout first differs from the correct one at move {i + 1}.\nThe correct rollout is "
            f"at {name(at)}, where the actions are {', '.join(action_text(x) for x in actions)}; the generator has "
            f"made {before} draws before it, and rng.choice(game.actions(s)) takes {action_text(a)}.\n{theirs}")


def explain_search(case: Case, got: list[tuple], name: Callable[[Hashable], str], c: float,
                   student_tree: Callable[[int], tuple], max_reads: int = 8) -> str | None:
    """The first wrong step of a search case: the first backup after which the student's tree holds other visits
    or totals than the correct one (only before the iteration whose steps first differ, and only where the student's
    search run for fewer iterations takes the correct steps), else the selection, expansion or rollout step where
    the generated states first differ; None when nothing differs there. `student_tree(m)` is the student's tree
    after m iterations (`read_tree`) and the steps it generated."""
    iterations, seed = case.args[0], case.args[1]
    steps, backups = annotated_run(case.game, case.state, iterations, seed, c)
    want = [(s.parent, s.action) for s in steps]
    i = next((j for j, (w, g) in enumerate(zip(want, got)) if w != g), None)
    if i is None and len(want) != len(got):
        i = min(len(want), len(got))
    last = iterations if i is None or i >= len(steps) else steps[i].iteration - 1
    reads: dict[int, bool] = {}

    def differs(m: int) -> bool:
        if m not in reads:
            if len(reads) >= max_reads:
                raise LookupError
            mine, done = student_tree(m)
            if done != [(s.parent, s.action) for s in steps if s.iteration <= m]:
                raise LookupError  # its first m iterations take other steps: not a backup of the same tree
            right = read_tree(ref.mcts_search(case.game, case.state, m, random.Random(seed), c))
            reads[m] = mine is not None and not _same_tree(mine, right)
        return reads[m]

    try:
        if last > 0 and differs(last):
            lo, hi = 1, last  # the first iteration after which the trees differ (they agree before it)
            while lo < hi:
                mid = (lo + hi) // 2
                lo, hi = (lo, mid) if differs(mid) else (mid + 1, hi)
            if lo == 1 or not differs(lo - 1):
                return backup_step(case.name, backups, lo, student_tree(lo)[0], case.game, name)
    except LookupError:
        pass
    return None if i is None else search_step(case.name, steps, got, name, c, iterations)


def _same_tree(a: tuple, b: tuple) -> bool:
    return (a[0] == b[0] and _same_num(a[1], b[1]) and len(a[2]) == len(b[2])
            and all(x[0] == y[0] and _same_tree(x[1], y[1]) for x, y in zip(a[2], b[2])))


def _visits(n: int) -> str:
    return f"{n} visit" + ("" if n == 1 else "s")


def tree_after(fn: Callable[..., Any], case: Case, m: int) -> tuple:
    """YOUR search's whole tree after `m` iterations of `case` (same seed and c), as `read_tree` reads it, and
    the steps it generated; (None, None) when it fails."""
    args = (m, LentRandom(case.args[1])) + (() if case.args[2] is None else (case.args[2],))
    game = Traced(case.game)
    try:
        tree = read_tree(common.call(fn, game, case.state, *args))
        return tree, [(e.parent, e.action) for e in game.trace.events("generate")]
    except common.CheckFailed:
        return None, None


def then(text: str | None, hint: str, advice: str, pic: str) -> str:
    """The first wrong step (when told), the hint (the advice alone beside a step that is told), the picture."""
    if text and hint.startswith("this matches none of the known mistakes"):
        hint = advice
    return (f"\n{text}" if text else "") + f"\nHint: {hint}" + (f"\nThe tree:\n{pic}" if pic else "")


def first_wrong(fn: Callable[..., Any], kind: str, case: Case, got: list[tuple],
                name: Callable[[Hashable], str]) -> str | None:
    """The first wrong step of a case: the draw of a rollout, or the selection, expansion, rollout or backup of a
    search; None when it cannot be told."""
    try:
        if kind == "rollout":
            return rollout_step(case.name, case.game, case.state, case.args[-1], got, name)
        if kind != "search":
            return None
        c = ref.SQRT2 if case.args[2] is None else case.args[2]
        return explain_search(case, got, name, c, partial(tree_after, fn, case))
    except common.CheckFailed:
        return None
