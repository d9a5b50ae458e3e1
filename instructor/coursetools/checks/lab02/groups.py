"""Lab 02's test groups (minimax): minimax_value, minimax_decision, quick_win_decision.

Groups of ``minimax_value``:

=======================  ======================================================================
``value``                the value on trees and game positions with the first player to move,
                         Nim against the xor rule: players not alternating, returning the move,
                         turns taken by depth where Reversi without a pass move skips a player,
                         a game longer than 9 plies (no depth limit)
``value_second_player``  the value when the second player is to move: the perspective
``value_trace``          how the search walks the tree: children in actions() order, each made
                         once from its own parent, each terminal state valued once, utility()
                         only on terminal states
=======================  ======================================================================

Groups of ``minimax_decision``: ``decision`` (trees and games, first player to move, one
best move: players not alternating, a value instead of the move, ``return`` inside the
loop over a Tic-Tac-Toe board's rows, turns taken by depth where Reversi without a pass move
skips a player, a position whose only action is the null move "pass"), ``decision_second_player``
(the perspective), ``decision_ties`` (the first best move) and ``decision_trace`` (the order of
the search, no double search). ``quick_win`` grades ``quick_win_decision`` (faster wins, slower
losses).

Each group compares with the correct model first; only after a difference does it find the
submission's profile (`profile.py`) and compare with the model that keeps the mistakes other groups
grade (`kit.Judge`). Answers are asked on the case's own game (`kit.answer`: no call comes back
over the channel); a wrong one is run again, traced, to explain it. A hint names a mistake only when
its model reproduces what the search did.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Any, Callable

from course_lib.annotations import action_text
from course_lib.explain import num
from course_lib.games import GameTree

from .. import common, explainer, kit, trees
from ..kit import Case, Judge, Run, judged
from ..nim import xor_value
from . import cases as data
from . import reference as ref
from .profile import profile

data = kit.DrawnFirst(data)  # a self-check meets the cases drawn for it first; final grading: as built

INTERNAL_HINT = ("internal node evaluated: your search asked for the utility of a state that is not terminal; "
                 "call game.utility(state, player) only when game.is_terminal(state) is True (test it first, "
                 "with the parentheses, instead of trying utility() and catching the error)")
ILLEGAL_HINT = ("result() was called with an action that is not legal in that state: generate every child "
                "from the same parent state (do not overwrite the variable `state` inside the loop with "
                "state = game.result(state, a))")
WALK = ("visit the children in actions() order, make each once with result(state, action) and take each terminal "
        "state's utility once")
#: Cases whose correct search takes more steps than this are not run again, traced, to prove a hint.
PROOF_STEPS = 3000


def _errors(call: Callable[[], Any]) -> Any:
    """Errors of the student's code become messages; the course game's own error says what was wrong."""
    try:
        return call()
    except common.CheckFailed as failure:
        text = str(failure)
        if "only defined for terminal states" in text:
            text += f"\nHint: {INTERNAL_HINT}"
        elif "illegal move" in text:
            text += f"\nHint: {ILLEGAL_HINT}"
        raise common.CheckFailed(text) from None


def answer(student: Callable[..., Any], case: Case) -> Any:
    """The student's answer on the case's own game (it crosses to the kernel by value)."""
    return _errors(lambda: common.call(student, case.game, case.state, where=f"on {case.name}"))


def traced(student: Callable[..., Any], case: Case, game: Any = None) -> Run:
    return _errors(lambda: kit.run_student(student, case, game=game))


def worth(case: Case) -> bool:
    """Small enough to run again, traced, as part of a hint's proof."""
    run = kit.run_model(ref.minimax_value, case)
    return case.is_tree or (run is not None and len(run.steps()) <= PROOF_STEPS)


def show(case: Case) -> str:
    """A tree drawing, or the position, for a message."""
    if isinstance(case.game, GameTree):
        return kit.picture(case) if len(case.game.nodes()) <= 40 else ""
    return case.game.display(case.state)


def _fail(message: str, hint: str, case: Case) -> None:
    text = message + (f"\nHint: {hint}" if hint else "")
    shown = show(case)
    if shown:
        text += ("\nThe tree:\n" if isinstance(case.game, GameTree) else "\nThe position:\n") + shown
    raise common.CheckFailed(text)


def make_judge(group: str, student: Callable[..., Any], cases: list[Case]) -> Judge:
    def profiler(evidence: list) -> ref.Flags:
        # the profile itself is kept, before this group's mistakes are put right (`_failed`)
        judge.found["profile"] = profile(student, "value" if group.startswith("value") else "decision", evidence)
        return ref.CORRECT if judge.found["profile"] is None else ref.put_right(group, judge.found["profile"])

    judge = Judge(student, cases, ref.CORRECT, partial(ref.model, group), lambda e: [ref.group_mistakes(group, e)],
                  profiler, _kept_note)
    if group.startswith("value"):
        judge.descent = lambda case: replace(explainer.minimax_descent(
            case.game, lambda node: answer(student, replace(case, state=node)), max_calls=20), below=3,
            calls=partial(_asked, student, case)) if worth(case) else None
    else:
        judge.choice = partial(_root_choice, student)
    return judge


def _failed(judge: Judge, case: Case, got: Any, hint: Callable[[], str]) -> tuple[Any, str, str]:
    """(expected, note, hint) of a failed case: the correct answer, always. When the expectation keeps other
    groups' mistakes and the submission's profile (those mistakes with this group's own) gives its answer here, a
    note says the kept answer passes too; otherwise the profile does not describe this case, and the hint is worked
    out against the correct search."""
    right = run_model_result(judge.model(judge.correct), case)
    if judge.expected == judge.correct:
        return right, judge.note, hint() if judge.settled else ""
    kept = judge.want(case).result
    full = judge.found.get("profile")
    described = full is not None and common.same(run_model_result(judge.model(full), case), got)
    if described:
        note = judge.note if common.same(kept, right) else (
            f"\n(With the other mistakes found in your code, graded in other tests ({_kept_words(judge.expected)}), "
            f"{kit.expected_text(case, kept).removeprefix('expected ')} would also pass here.)")
        return right, note, hint() if judge.settled else ""
    saved = judge.expected
    judge.expected = judge.correct
    try:
        text = hint() if judge.settled else ""
    finally:
        judge.expected = saved
    return right, "", text


def run_model_result(model: Callable[..., Any], case: Case) -> Any:
    run = kit.run_model(model, case)
    return kit.NO_ANSWER if run is None else run.result


def _asked(student: Callable[..., Any], case: Case, node: Any) -> list[tuple]:
    """The terminal states the student's function, called alone on `node`, asked the utility of: (kind, state,
    player, utility), when its children are all terminal."""
    if not all(case.game.is_terminal(case.game.result(node, a)) for a in case.game.actions(node)):
        return []
    run = traced(student, replace(case, state=node))
    return [("utility", e.node, e.player, e.value) for e in run.trace.events("utility")]


def _root_choice(student: Callable[..., Any], case: Case, mine: Run, want: Run, name: Callable[[Any], str]
                 ) -> str | None:
    """The root's choice, when the move expected is the correct decision's (not one keeping other mistakes) and
    the student's search values the root's moves as the correct one does. In a tree those values are read from the
    student's own decision (`_probe_value`): when one differs, the message goes down to the deepest node whose
    value differs instead (a decision that does not take the larger of two values there is wrong at the root
    itself). In a game they cannot be read, so the choice is not blamed on a guess (None) unless the answer is not
    a move at all."""
    game, state = case.game, case.state
    if not common.same(want.result, ref.model_decision(game, state)):
        return None
    a_move = any(common.same(mine.result, a) for a in game.actions(state))
    if a_move and not case.is_tree:
        return None
    if a_move:  # (not a move at all: whatever its values, the choice at the root is wrong)
        p = game.to_move(state)
        values = [explainer.value_for(game, game.result(state, a), p) for a in game.actions(state)]
        seen = _tree_values(student, case)
        wrong = [] if seen is None else [i for i, v in enumerate(values) if seen[(i,)] != v]
        if wrong:
            return _wrong_below(student, case, seen, wrong[0], name)
    return explainer.minimax_choice(case.name, game, state, mine.result, name)


#: How many decisions a hint may ask of the student's function to read the values it gives a tree's nodes.
PROBE_CALLS = 150


def _probe(game: GameTree, path: tuple, t: float) -> GameTree:
    """The tree cut down to the path from its root to the node reached by the child indices `path` (every node on
    the way keeps only the next one, so it passes that node's value up unchanged, at the same depth), beside a leaf
    worth `t` to the root's player, put first: a decision on it takes the path's move exactly when the node is
    worth more than `t` to the root's player."""
    root = game.initial
    kinds, children, values = {"probe": game.kind(root)}, {"probe": ["probe-leaf", None]}, {}
    values["probe-leaf"] = t if game.to_move(root) == "MAX" else -t
    kinds["probe-leaf"] = "TERMINAL"
    node, parent = root, "probe"
    for i in path:
        node = game.children(node)[i]
        children[parent][-1] = node
        kinds[node] = game.kind(node)
        if game.is_terminal(node):
            values[node] = game.value(node)
        else:
            children[node] = [None]
        parent = node
    todo = [node] if not game.is_terminal(node) else []
    children.pop(node, None)
    while todo:
        n = todo.pop()
        kinds[n] = game.kind(n)
        if game.is_terminal(n):
            values[n] = game.value(n)
            continue
        children[n] = list(game.children(n))
        todo += children[n]
    return GameTree(kinds, children, values, "probe")


def _probe_value(student: Callable[..., Any], case: Case, path: tuple, seen: dict) -> float | None:
    """The value the student's decision gives the node at `path`, for the root's player, found among `cuts` (the
    midpoints between every value a node can take, one below and one above them all): the largest cut it prefers
    the node to, by bisection; None when its answers are not those of a decision comparing values."""
    cuts, points, calls = seen["cuts"], seen["points"], seen["calls"]

    def prefers(i: int) -> bool | None:
        calls[0] += 1
        if calls[0] > PROBE_CALLS:
            return None
        tree = _probe(case.game, path, cuts[i])
        got = kit.answer(student, Case(case.id, case.name, tree, tree.initial))
        return None if got not in (0, 1) or type(got) is not int else got == 1

    lo, hi = 0, len(cuts) - 1
    if prefers(lo) is not True or prefers(hi) is not False:
        return None
    while hi - lo > 1:
        mid = (lo + hi) // 2
        answer_ = prefers(mid)
        if answer_ is None:
            return None
        lo, hi = (mid, hi) if answer_ else (lo, mid)
    return points[lo]  # the one value a node can take between the two cuts


def _tree_values(student: Callable[..., Any], case: Case) -> dict | None:
    """Reads the values the student's decision gives the root's moves (keys: paths of child indices), or None."""
    game = case.game
    if game.initial != case.state or len(game.nodes()) > 60:
        return None
    p = game.to_move(case.state)
    points = sorted({game.utility(leaf, p) for leaf in game.leaves()} | {-game.utility(leaf, p) for leaf in game.leaves()})
    cuts = [points[0] - 1] + [(a + b) / 2 for a, b in zip(points, points[1:])] + [points[-1] + 1]
    seen: dict = {"cuts": cuts, "points": points, "calls": [0]}
    for i in range(len(game.actions(case.state))):
        v = _probe_value(student, case, (i,), seen)
        if v is None:
            return None
        seen[(i,)] = v
    return seen


def _wrong_below(student: Callable[..., Any], case: Case, seen: dict, first: int, name: Callable[[Any], str]) -> str:
    """The root's move whose value (read from the student's decision) differs, then the deepest node below it whose
    value differs while its children's values are right: the correct rule there, and the student's values."""
    game, root = case.game, case.state
    p = game.to_move(root)
    path, node = (first,), game.children(root)[first]
    move_mine = seen[path]
    while True:
        kids = game.children(node) if not game.is_terminal(node) else []
        theirs = {}
        deeper = None
        for j, kid in enumerate(kids):
            if game.is_terminal(kid):
                continue
            v = _probe_value(student, case, path + (j,), seen)
            if v is None:
                break
            theirs[j] = v
            if v != explainer.value_for(game, kid, p):
                deeper = j
                break
        if deeper is None:
            break
        path, node = path + (deeper,), kids[deeper]
    mine = seen.get(path) if len(path) == 1 else _probe_value(student, case, path, seen)
    correct = explainer.value_for(game, node, p)
    a = game.actions(root)[first]
    listed = ", ".join(f"{name(k)} = {num(explainer.value_for(game, k, p))}" for k in kids)
    moves = "largest" if game.to_move(node) == p else "smallest"
    lines = [f"{case.name}: your search took the same steps as the correct one, but it values the root's move "
             f"{action_text(a)} ({name(game.children(root)[first])}) as {num(move_mine)} where the correct search "
             f"finds {num(explainer.value_for(game, game.children(root)[first], p))} (values for {p}, the player to move "
             f"at the root); so it is not the choice among the root's moves that differs."]
    where = " > ".join(name(n) for n in [root, *_nodes(game, path)])
    lines.append(f"Going down from the root to the first child whose value differs, each time: {where}. There the "
                 f"correct search has {game.kind(node)} node "
                 f"{name(node)} with children (values for {p}) {listed}, and takes the {moves}: {num(correct)}.")
    right = [name(kids[j]) for j, v in theirs.items() if v == explainer.value_for(game, kids[j], p)]
    lines.append(f"Your search values {name(node)} as {num(mine) if mine is not None else 'something else'}"
                 + (f", while it values {', '.join(right)} as the correct search does." if right else "."))
    lines.append("(Each value of yours was read from your minimax_decision itself, called on a copy of the tree cut "
                 "down to the path to that node, beside one leaf to compare it with.)")
    return "\n".join(lines)


def _nodes(game: GameTree, path: tuple) -> list:
    out, node = [], game.initial
    for i in path:
        node = game.children(node)[i]
        out.append(node)
    return out


_KEPT_WORDS = {"alternate": "players not alternating", "view": "the first player's view", "returns": "what is returned",
               "order": "children right to left", "tie": "the last best move", "early": "a return inside the loop",
               "turns": "turns taken by depth"}


def _kept_words(expected: ref.Flags) -> str:
    return ", ".join(_KEPT_WORDS[k] for k in expected.changed())


def _kept_note(expected: ref.Flags) -> str:
    if not expected.changed():
        return ""
    return ("\n(The expected answer keeps the other mistakes found in your code, graded in other tests: "
            + _kept_words(expected) + ".)")


# -- values ----------------------------------------------------------------------------------------

VALUE_ADVICE = ("the value of a terminal state is its utility for the root player; above it, the max where that "
                "player moves and the min where the opponent moves")


def _values(group: str, minimax_value: Callable[..., Any], cases: list[Case], notes: dict[str, str]) -> int:
    judge = make_judge(group, minimax_value, cases)
    answers = [answer(minimax_value, case) for case in cases]

    def compare() -> None:
        for case, got in zip(cases, answers):
            want = judge.want(case).result
            if common.same(got, want) and (judge.expected.returns == "move" or common.is_number(got)):
                judge.passes(case)
                continue
            advice = VALUE_ADVICE if common.is_number(got) else "minimax_value returns a number: the value of the state"
            right, note, hint = _failed(judge, case, got,
                                        lambda c=case, a=advice: judge.hint(c, traced(minimax_value, c), a, worth=worth))
            _fail(f"minimax_value on {case.name}: {kit.expected_text(case, right)}{notes.get(case.id, '')}, yours "
                  f"returned {got!r:.80}." + note, hint, case)

    return judged(judge, compare)


def check_value(minimax_value: Callable[..., Any]) -> int:
    """minimax_value with the first player to move: trees, games, and Nim against the xor rule."""
    cases, notes = data.CASES["value"](), {}
    for heaps in data.nim_xor_heaps():
        nim = data.nim_case(heaps)  # as a tree: it crosses to the kernel by value, and only the value is checked
        cases.append(Case(f"xor-{nim.id}", nim.name, trees.as_tree(nim.game, nim.state, "P1"), "n0"))
        notes[cases[-1].id] = f" (the xor of the heaps is {'not ' if xor_value(heaps) > 0 else ''}0)"
    return _values("value", minimax_value, cases, notes)


def check_value_second_player(minimax_value: Callable[..., Any]) -> int:
    """minimax_value when the second player (MIN, O, P2) is to move at the root."""
    return _values("value_second_player", minimax_value, data.CASES["value_second_player"](), {})


# -- traces -------------------------------------------------------------------------------------

class _Watch:
    """A game that notes every utility() asked of a state that is not terminal.

    It answers as `game` does (`answers_as`): over the grader's channel, the kernel answers on a copy of
    `game` (or its table of rules) and sends its calls in a record, and the checker makes them here."""

    def __init__(self, game: Any):
        self._game = self.answers_as = game
        self.internal: list = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def utility(self, state: Any, player: Any) -> Any:
        if not self._game.is_terminal(state):
            self.internal.append(state)
        return self._game.utility(state, player)


def compare_trace(name: str, judge: Judge, case: Case, mine: Run | None = None, watch: _Watch | None = None) -> None:
    """The student's search makes the model's calls: children generated and terminal states valued, in order.

    Only the trace is compared (the result is graded by the other tests).
    """
    if mine is None or watch is None:
        watch = _Watch(case.game)
        mine = traced(judge.student, case, watch)
    if watch.internal:
        node = watch.internal[0]
        _fail(f"On {case.name} your {name} called utility() on {node if case.is_tree else 'a state'} "
              "that is not terminal.", INTERNAL_HINT, case)
    want = judge.want(case)
    if case.is_tree:
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
    for what, exp_seq, got_seq in [("children your {} generated with result()", want.trace.generated(),
                                    mine.trace.generated()),
                                   ("terminal states your {} evaluated", want.trace.leaves(), mine.trace.leaves())]:
        if got_seq == exp_seq:
            continue
        i = common.first_difference(exp_seq, got_seq)
        got_edges, exp_edges = mine.trace.edges(), want.trace.edges()
        at_child = what.startswith("children") and i is not None and i < min(len(got_seq), len(exp_seq))
        if at_child and made_below(got_edges[:i], got_edges[i][0], exp_edges[i][0]):
            hint = (f"that child was made from {got_edges[i][0]!r:.60}, a state your search had made below "
                    f"{exp_edges[i][0]!r:.60}, where its parent should be {exp_edges[i][0]!r:.60}: generate every "
                    "child from the same parent state (do not overwrite the variable `state` inside the loop)")
        else:
            hint = judge.hint(case, mine, WALK, worth=worth)
            if case.is_tree and hint and at_child and made_below(got_edges[:i], exp_edges[i][0], got_edges[i][0]):
                hint += (f"\n{got_edges[i][2]} is a child of {got_edges[i][0]}: your search went back up from "
                         f"{exp_edges[i][0]} before making {exp_edges[i][2]}.")
        raise common.CheckFailed(common.sequence_message(
            f"The {what.format(name)} (in order)", exp_seq, got_seq, f"on {case.name}",
            show(case) if case.is_tree else "", hint) + judge.note)


def made_below(edges: list, node: Any, parent: Any) -> bool:
    """Whether `node` is a state the search made, through the (parent, action, child) `edges` it made so far, below
    `parent` (a child of it, or deeper): a child made from there instead of from `parent` was made from a state the
    loop over `parent`'s actions had stepped into. A `node` above `parent` (a search that went back up before making
    all of `parent`'s children) or elsewhere is not."""
    up = {child: source for source, _, child in edges}
    seen = set()
    while node in up and node not in seen:
        seen.add(node)
        node = up[node]
        if node == parent:
            return True
    return False


def _traces(group: str, name: str, student: Callable[..., Any]) -> int:
    cases = data.CASES[group]()
    judge = make_judge(group, student, cases)

    def compare() -> None:
        for case in cases:
            compare_trace(name, judge, case)
            judge.passes(case)

    return judged(judge, compare)


def check_value_trace(minimax_value: Callable[..., Any]) -> int:
    """minimax_value's trace: children in actions() order, each made and valued once, utility() on terminals."""
    return _traces("value_trace", "minimax_value", minimax_value)


def check_decision_trace(minimax_decision: Callable[..., Any]) -> int:
    """minimax_decision's trace: every move tried, in actions() order, each searched once."""
    return _traces("decision_trace", "minimax_decision", minimax_decision)


# -- decisions -----------------------------------------------------------------------------------

def _move_values(game: Any, state: Any) -> str:
    """The minimax value of each root move, for the player to move."""
    me = game.to_move(state)
    out = []
    for a in game.actions(state):
        child = game.result(state, a)
        v = game.utility(child, me) if game.is_terminal(child) else \
            ref.minimax_value(game, child) * (1 if game.to_move(child) == me else -1)
        out.append(f"{a!r}: {v:g}")
    return ", ".join(out)


def _decisions(group: str, minimax_decision: Callable[..., Any]) -> int:
    cases = data.CASES[group]()
    judge = make_judge(group, minimax_decision, cases)
    answers = [answer(minimax_decision, case) for case in cases]

    def compare() -> None:
        for case, got in zip(cases, answers):
            want = judge.want(case).result
            if common.same(got, want) or judge.right_anyway(case, got):
                judge.passes(case)
                continue
            actions = case.game.actions(case.state)
            advice = ("Compare your values of the moves with the minimax values above: where they all agree, the "
                      "decision is the first action, in actions() order, whose value is the best")
            if not any(common.same(got, a) for a in actions):
                advice = f"return one of the actions from game.actions(state): {actions}"
            right, note, hint = _failed(judge, case, got,
                                        lambda c=case, a=advice: judge.hint(c, traced(minimax_decision, c), a,
                                                                                  worth=worth))
            values = "" if ("differs at the choice at the root" in hint or "values the root's move" in hint) else (
                f"\n  minimax values of the moves (for the player to move): {_move_values(case.game, case.state)}")
            if len(actions) == 1 and not any(common.same(got, a) for a in actions):
                values = (f"\n  The player to move, {case.game.to_move(case.state)}, has one legal action here, "
                          f"{actions[0]!r} (game.actions(state) returns {actions!r}): the decision must be that "
                          f"action, and yours returned {got!r:.80}, which is not a legal action.")
            _fail(f"minimax_decision on {case.name}: {kit.expected_text(case, right)}, yours returned {got!r:.80}."
                  + values + note, hint, case)

    return judged(judge, compare)


def check_decision(minimax_decision: Callable[..., Any]) -> int:
    """minimax_decision with the first player to move and one best move: trees, Tic-Tac-Toe, RaceTo, Nim."""
    return _decisions("decision", minimax_decision)


def check_decision_second_player(minimax_decision: Callable[..., Any]) -> int:
    """minimax_decision when the second player is to move (MIN root, O, P2)."""
    return _decisions("decision_second_player", minimax_decision)


def check_decision_ties(minimax_decision: Callable[..., Any]) -> int:
    """minimax_decision returns the FIRST best action when several tie."""
    return _decisions("decision_ties", minimax_decision)


# -- faster wins --------------------------------------------------------------------------------

def _quick_hint(case: Case, mine: Run, others: list[Case], student: Callable[..., Any]) -> str:
    """The quick-win mistake whose model does what the student's decision did: the same steps and move here,
    and the same move on every other case. Those models all search the whole tree in actions() order (this
    group's trace check compares those steps on every case), so on the other cases their moves alone tell
    them apart: asked untraced, each search runs in the kernel without a call coming back."""
    lazy = ref.LAZY_WIN if ref.minimax_value(case.game, case.state) > 0 else ref.FLAT_LOSS
    mistakes = [kit.Mistake("lazy", lazy, ref.QUICK_MISTAKES[0].model), ref.QUICK_MISTAKES[1]]
    answers = [(c, kit.answer(student, c)) for c in others]
    named = [m for m in mistakes if kit.reproduces(m.model, case, mine)
             and all(common.same(got, m.model(c.game, c.state)) for c, got in answers if got is not kit.NO_ANSWER)]
    if named:
        return kit.join_hints([m.hint for m in named])
    return kit.explain(case, mine, ref.quick_win, [], advice="choose the first action whose depth-aware score "
                                                             "(utility * (10 - depth)) is the best",
                       choice=_quick_choice)


#: A quick win that took the correct steps and chose another move: its scores are not returned, so the steps cannot
#: tell whether a score or the choice among them differs (the scoring, not the choice, is what the group grades).
QUICK_LEAD = ("{case}: your search took the same steps as the correct one, in the same order, and returned another move. "
              "Your decision returns a move only, not its scores: compare how yours scores each end below, move by "
              "move, with the correct scores (the first best of them is the move to return).")


def _quick_end(game: Any, state: Any, player: Any, d: int) -> tuple[float, int, float]:
    """(score, depth, utility) of the terminal state the depth-aware minimax line from `state` (d plies below the
    root) ends in; the first best child in actions() order."""
    if game.is_terminal(state):
        u = game.utility(state, player)
        return ref.quick_score(u, d), d, u
    best = None
    for a in game.actions(state):
        line = _quick_end(game, game.result(state, a), player, d + 1)
        if best is None or (line[0] > best[0] if game.to_move(state) == player else line[0] < best[0]):
            best = line
    return best


def _quick_choice(case: Case, mine: Run, want: Run, name: Callable[[Any], str]) -> str:
    """The root's choice of quick_win_decision: each move's score, from the end of its minimax line."""
    game, state = case.game, case.state
    p = game.to_move(state)
    moves, ends = [], []
    for a in game.actions(state):
        child = game.result(state, a)
        score, d, u = _quick_end(game, child, p, 1)
        moves.append((a, child, score))
        outcome = f"{p} wins" if u > 0 else (f"{p} loses" if u < 0 else "a draw")
        ends.append(f"{action_text(a)}: {outcome} at d = {d}, {num(u)} * (10 - {d}) = {num(score)}")
    text = explainer.root_choice(
        case.name, game, state, moves, mine.result, name,
        worth="scored by the terminal state its minimax line ends in, d plies below the root, as utility * (10 - d)",
        lines=["Those ends: " + "; ".join(ends) + "."], lead=QUICK_LEAD.format(case=case.name))
    others = [e for e in mine.trace.events("utility") if e.player != p]
    if others:
        text += (f"\nYour search asked the utility of {len(others)} terminal state(s) for {others[0].player!r} (the "
                 f"first: {name(others[0].node)}); the scores above are for {p}, the player to move at the root.")
    return text


def check_quick_win(quick_win_decision: Callable[..., Any]) -> int:
    """quick_win_decision: the fastest win (or slowest loss), first in actions() order; a full search."""
    cases = data.CASES["quick_win"]()
    judge = Judge(quick_win_decision, cases, None, lambda _: ref.model_decision, lambda _: [], lambda _: None,
                  settled=True)
    for i, case in enumerate(cases):
        watch = _Watch(case.game)
        mine = traced(quick_win_decision, case, watch)
        expected = ref.quick_win(case.game, case.state)
        if not common.same(mine.result, expected):
            scores = ", ".join(f"{a!r}: {v:g}" for a, v in ref.quick_values(case.game, case.state))
            hint = _quick_hint(case, mine, cases[:i] + cases[i + 1:], quick_win_decision)
            shown = "" if "returned another move. Your decision returns a move only" in hint else \
                f"\n  depth-aware scores of the moves: {scores}"
            _fail(f"quick_win_decision on {case.name}: expected {expected!r}, yours returned {mine.result!r:.80}."
                  + shown, hint, case)
        compare_trace("quick_win_decision", judge, case, mine, watch)
    return len(cases)


#: Each group's public cases and correct model: what `python -m coursetools golden` writes down.
GOLDEN = {group: (partial(make, False), ref.model(group, ref.CORRECT)) for group, make in data.CASES.items()
          if group != "quick_win"}
GOLDEN["quick_win"] = (partial(data.CASES["quick_win"], False), ref.quick_win)
