"""Lab 07's explanations (grader only): what a group says when it cannot compare, or where a run first differs."""

from __future__ import annotations

import random
from functools import partial
from typing import Any, Callable, Hashable

from course_lib.annotations import action_text
from course_lib.mcts_explain import Backup, Pick, Step, encode, explain_steps, read_tree
from course_lib.trace import Traced

from .. import common
from ..common import LentRandom
from .. import kit
from ..kit import Case
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


def clock_counted(clock: Any, generated: int) -> str:
    """What the clock of a run that generated `generated` states counted and was asked, when that is not what a
    search on clock.watch(game) asking it before each iteration gets ("" when it is)."""
    out = ""
    if clock is not None and clock.used != generated:
        out += (f" (the clock counted {clock.used} of them: it counts only the states generated on the game "
                "clock.watch(game) returns)")
    if clock is not None and clock.asked > clock.asks:
        out += (f" (yours asked clock.expired() more than {clock.asks} times; from then on the grader's clock "
                "answers True, which stopped your search)")
    return out


def clock_story(mine: list, plain: list, before: int, n: int, budget: int) -> str:
    """Where a clocked run left YOUR own unclocked run of `n` iterations, whose first n - 1 generate `before` states:
    facts of the two runs and the rule, nothing guessed."""
    if len(plain) < budget:  # the iterations given run out before the budget is spent
        head = (f"Without a clock, your mcts_search with iterations={n}, the iterations given, generates "
                f"{len(plain)} states, fewer than the budget of {budget}: the clock never expires, and `iterations` "
                f"stops the search after iteration {n}.\n")
        if mine[:len(plain)] == plain:
            return head + (f"With the clock yours went on to {len(mine)} states, past the end of iteration {n} "
                           f"(state {len(plain)}). With a clock, `iterations` still caps the number of iterations.")
        if plain[:len(mine)] == mine:
            return head + (f"With the clock yours stopped after state {len(mine)}, though the clock had not expired: "
                           "it expires only once the budget is spent.")
    else:
        head = (f"Without a clock, your mcts_search reaches the budget with iterations={n}, which generates "
                f"{len(plain)} states: with this clock it must stop right there.\n")
    rule = ("The clock is asked before each iteration only: an iteration that has started always finishes "
            "(its rollout and its backup), and the next one does not start.")
    if len(plain) >= budget and plain[:len(mine)] == mine:
        if len(mine) > before:
            return head + (f"Your run without a clock: iterations 1 to {n - 1} generate {before} states, iteration "
                           f"{n} generates states {before + 1} to {len(plain)}, and the budget of {budget} is spent by "
                           f"state {budget}, inside iteration {n}. With the clock yours stopped after state "
                           f"{len(mine)}, inside iteration {n}, before the end of that iteration. {rule}")
        return head + (f"Your run without a clock: iterations 1 to {n - 1} generate {before} states, fewer than the "
                       f"budget of {budget}, so the clock has not expired before iteration {n}. With the clock yours "
                       f"stopped after state {len(mine)}, before iteration {n} began. {rule}")
    if len(plain) >= budget and mine[:len(plain)] == plain:
        return head + (f"Your run without a clock spends the budget of {budget} in iteration {n}, at its end state "
                       f"{len(plain)}; with the clock yours went on to {len(mine)} states, past the end of iteration "
                       f"{n}. {rule}")
    first = next(i for i, (a, b) in enumerate(zip(mine, plain)) if a != b)
    return head + (f"With the clock your run generates other states than without it from state {first + 1} on (the "
                   f"budget is {budget}): on clock.watch(game) the search must take the same steps as on the game "
                   "itself.")


# -- the first wrong step of a search ---------------------------------------------------------------------

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
    root = ref.new_node(game, state)
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
            child = ref.new_node(game, game.result(node.state, a), node, a, game.to_move(node.state))
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
        backups.append(Backup(k, s, path[::-1], picks))
    return steps, backups


def _known(root: Any) -> dict:
    out, todo = {}, [root]
    while todo:
        n = todo.pop()
        out.setdefault(n.state, n.path)
        todo.extend(n.children)
    return out


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
                   student_tree: Callable[[int], tuple]) -> str | None:
    """The first wrong step of a search case (`course_lib.mcts_explain.explain_steps`) against the notes of the
    course's run."""
    iterations, seed = case.args[0], case.args[1]
    steps, backups = annotated_run(case.game, case.state, iterations, seed, c)
    return explain_steps(case.name, case.game, steps, backups, got, name, c, iterations, student_tree)


def notes(case: Case) -> str:
    """A public search case's notes as the visible tests ship them (states as the moves from the case's state)."""
    c = ref.SQRT2 if case.args[2] is None else case.args[2]
    steps, backups = annotated_run(case.game, case.state, case.args[0], case.args[1], c)
    paths: dict = {case.state: ()}
    for s in steps:
        paths.setdefault(case.game.result(s.parent, s.action), (*paths[s.parent], s.action))
    return encode(steps, backups, paths.__getitem__)


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


def visible_notes() -> dict[str, str]:
    """The notes the visible search tests of the lab ship, by the case name they pass to `explain_search_run`: after
    a change of the rules, write these into `source/07_mcts/07_mcts.ipynb` (a test compares them)."""
    from course_lib.games import TicTacToe

    from . import cases as data

    ttt = TicTacToe()
    win_now = Case("win-now", "", ttt, ttt.state_from(["XX.", ".O.", "..O"]), (30, 4, 1.0))
    return {"the tree [[1, -1], [0, 0]], 6 iterations, seed 1": notes(data.trees()[0]),
            "Tic-Tac-Toe, X can win at once, 30 iterations, seed 4, c = 1": notes(win_now)}


def read_root(root: Any, where: str) -> tuple:
    """(root visits, ((action, visits, total), ...)) read from a returned root node (a proxy in grading)."""
    try:
        visits, children = root.visits, list(root.children)
        kids = tuple((ch.action, ch.visits, ch.total) for ch in children)
    except common.CheckFailed:
        raise
    except Exception as exc:  # noqa: BLE001 - anything else returned is named to the student
        common.fail(f"mcts_search {where} should return the root Node (with .visits, .total, .children and each "
                    f"child's .action), but reading it failed: {type(exc).__name__}: {str(exc)[:120]}")
    for v in (visits, *[k[1] for k in kids]):
        if type(v) is not int:
            common.fail(f"mcts_search {where}: visit counts should be whole numbers (int), found {v!r:.60}")
    for k in kids:
        common.expect_number(k[2], f"a child's total {where}")
    return visits, kids


def root_text(answer: Any) -> str:
    visits, kids = answer
    return (f"a root with {visits} visits and children (action, visits, total) "
            f"[{', '.join(f'({kit.action_text(a)}, {v}, {t})' for a, v, t in kids)}]")
