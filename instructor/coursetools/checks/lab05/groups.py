"""Lab 05's test groups (heuristics and tournaments): one small function per group.

Groups of the depth-limited search (compared with `reference` on traced games, step by step):

====================  ======================================================================
``value_cutoff``      `depth_limited_value` on explicit trees with an estimate at every node:
                      the value, and exactly which nodes were valued, in order, by utility
                      (terminal states, at any depth) or by evaluate (the cut-off), depth 0
``value_games``       the same on positions of real games, either player to move
``decision``          `depth_limited_decision`: the first best action and the same trace;
                      its first case is Isolation 5x5 at depth 2, where a search that does
                      not stop at the cut-off never returns
``quiescence``        `quiescence_value` on exchange trees: no guess at a noisy state, the
                      exchange searched to its end, the states valued in order
====================  ======================================================================

Evaluation functions the lab specifies exactly (``isolation_mobility``, ``connect_four_windows``,
``chess_material``) are compared with their reference on every sampled position, for both players:
public positions fixed, secret ones drawn from the secret seed. The open ones (``isolation_improved``,
``food_grid_evaluate``: "your own better evaluation") are checked by properties (a plain number strictly
inside (-1, 1), the same twice, exactly opposite for the two players), a ranked series of positions and
a seeded tournament (`tournament`). A hint names a mistake only when its model reproduces what the
student's search or evaluation did on the failing case, the cases passed before it and the next few.
"""

from __future__ import annotations


from typing import Any, Callable, Hashable, Sequence

from .. import common, explainer, kit
from ..kit import Case, Mistake, Run
from . import cases as data
from . import explain
from . import positions as pos
from . import reference as ref
from . import tournament as tour

data = kit.DrawnFirst(data)  # a self-check meets the cases drawn for it first; final grading: as built

LAB = data.LAB
PROOF_CASES = 6


def with_evaluator(fn: Callable[..., Any]) -> Callable[..., Any]:
    """`fn(game, state, depth, evaluate)` called on a case with the case's evaluation traced by its game."""

    def run(game: Any, state: Any, depth: int, evaluation: Any) -> Any:
        return fn(game, state, depth, game.evaluator(evaluation))

    run.__name__ = getattr(fn, "__name__", "your function")
    return run


def traced_mistakes(mistakes: Sequence[Mistake]) -> list[Mistake]:
    return [Mistake(m.key, m.hint, with_evaluator(m.model)) for m in mistakes]


def steps(run: Run) -> list[tuple]:
    """Children generated, terminal states valued and cut-offs evaluated (with the player asked), in order."""
    return [(e.kind, e.node) if e.kind != "evaluate" else (e.kind, e.node, e.player)
            for e in run.trace.events("generate", "utility", "evaluate")]


def valued(run: Run) -> list[tuple[str, Hashable]]:
    return [(e.kind, e.node) for e in run.trace.events("utility", "evaluate")]


class SearchGroup:
    """One search group on one submission: its correct model, its mistake models and the cases passed."""

    def __init__(self, function: str, student: Callable[..., Any], cases: list[Case], correct: Callable[..., Any],
                 mistakes: Sequence[Mistake], decision: bool):
        self.function, self.cases, self.decision = function, cases, decision
        self.student, self.correct = with_evaluator(student), with_evaluator(correct)
        self.raw, self.raw_correct = student, correct
        self.mistakes = traced_mistakes(mistakes)
        self.seen: list[tuple[Case, Run]] = []

    def hint(self, case: Case, mine: Run, advice: str) -> str:
        i = self.cases.index(case)
        more = kit.observe(self.student, self.cases[i + 1:i + 1 + PROOF_CASES])
        want = kit.run_model(self.correct, case)
        name = kit.namer(case, mine, *([want] if want is not None else []))

        def show(step: tuple) -> str:
            return f"{step[0]}({name(step[1])}{', ' + repr(step[2]) if len(step) > 2 else ''})"

        observed = [(case, mine), *self.seen, *more]
        named = kit.shown(self.mistakes, observed, steps)
        return kit.compose(self.where(case, mine, name), named, len(observed), advice, case, mine, self.correct,
                           steps, show)

    def where(self, case: Case, mine: Run, name: Callable[[Hashable], str]) -> str | None:
        """The first wrong step of the student's run (explain.py); for the correct steps with another result, the
        deepest wrong value or the root's choice."""
        quiescence = self.function == "quiescence_value"
        try:
            text = explain.explain(case, mine, steps, name, decision=self.decision, quiescence=quiescence)
            want = kit.run_model(self.correct, case)
            if text is None and want is not None and not common.same(mine.result, want.result):
                if self.decision:
                    text = explain.decision_choice(case, mine, name)
                elif not quiescence:
                    d = explain.value_descent(case, self.raw, self.raw_correct)
                    text = explainer.first_wrong_value(case.name, case.game, case.state, mine.result, d, name)
        except Exception:  # noqa: BLE001 - an explanation must never hide the failure itself
            return None
        return text

    def compare(self, case: Case) -> None:
        mine, want = kit.run_student(self.student, case), kit.run_model(self.correct, case)
        nm = kit.namer(case, mine, want)
        where, pic, got = f"on {case.name}", kit.picture(case, mine), mine.result
        if self.decision:
            legal = case.game.actions(case.state)
            if not any(common.same(got, a) for a in legal):
                common.fail(f"{self.function} {where} returned {got!r}, which is not one of the legal actions "
                            f"{legal!r}.", "the decision returns an action (an element of game.actions(state)), "
                            "not a value.", pic)
        else:
            common.expect_number(got, f"{self.function} {where}")
        exp_valued, got_valued = valued(want), valued(mine)
        if exp_valued != got_valued:
            raise common.CheckFailed(common.sequence_message(
                "The states your search valued (utility = end of the game, evaluate = estimate at the cut-off)",
                [f"{k}({nm(n)})" for k, n in exp_valued], [f"{k}({nm(n)})" for k, n in got_valued], where, pic,
                self.hint(case, mine, "Compare the two lists: where does your search value a different state?")))
        root_player = case.game.to_move(case.state)
        others = [e for e in mine.trace.events("evaluate") if e.player != root_player]
        if others:
            common.fail(f"{self.function} {where} called evaluate({nm(others[0].node)}, {others[0].player!r}), but "
                        f"the player to move at the root is {root_player!r}.",
                        self.hint(case, mine, "Call evaluate(state, root_player) at every cut-off."), pic)
        if not common.same(got, want.result):
            common.fail(f"{self.function} {where}: {kit.expected_text(case, want.result)}, yours returned {got!r}.",
                        self.hint(case, mine, "The states valued were right, so look at how the values are "
                                  "combined: the max at the root player's nodes, the min at the opponent's"
                                  + (", and the first best action." if self.decision else ".")), pic)
        exp_gen, got_gen = want.trace.generated(), mine.trace.generated()
        if exp_gen != got_gen:
            raise common.CheckFailed(common.sequence_message(
                "The children your search generated with result() (in order)", [nm(n) for n in exp_gen],
                [nm(n) for n in got_gen], where, pic,
                "search the children one at a time, in the order game.actions(state) gives them; generate a "
                "child only when you are about to search it."))
        self.seen.append((case, mine))


def check_value_cutoff(depth_limited_value: Callable[..., Any]) -> int:
    """depth_limited_value on explicit trees: values, the states valued in order, depth 0, terminals."""
    todo = data.value_cutoff_cases()
    group = SearchGroup("depth_limited_value", depth_limited_value, todo, ref.depth_limited_value,
                        ref.VALUE_MISTAKES, decision=False)
    for case in todo:
        group.compare(case)
    return len(todo)


def check_value_games(depth_limited_value: Callable[..., Any]) -> int:
    """depth_limited_value on positions of real games, either player to move."""
    todo = data.value_games_cases()
    group = SearchGroup("depth_limited_value", depth_limited_value, todo, ref.depth_limited_value,
                        ref.VALUE_MISTAKES, decision=False)
    for case in todo:
        group.compare(case)
    return len(todo)


def check_decision(depth_limited_decision: Callable[..., Any]) -> int:
    """depth_limited_decision: the first best action and the states valued, in order."""
    from coursetools.hidden import TIME_LIMIT_SECONDS, CheckTimeout

    todo = data.decision_cases()
    group = SearchGroup("depth_limited_decision", depth_limited_decision, todo, ref.depth_limited_decision,
                        ref.DECISION_MISTAKES, decision=True)
    for case in todo:
        try:
            group.compare(case)
        except CheckTimeout:
            raise common.CheckFailed(
                f"Your depth_limited_decision used more than {TIME_LIMIT_SECONDS} s of processor time on "
                f"{case.name} and was stopped (a correct search takes well under a second there: it looks only "
                f"{case.args[0]} plies ahead). Does your search stop at the cut-off? Each child must be searched "
                "with depth - 1 and evaluated when depth reaches 0; a search that ignores the depth goes to "
                "the end of the game, about 10**20 positions in Isolation.") from None
    return len(todo)


def check_quiescence(quiescence_value: Callable[..., Any]) -> int:
    """quiescence_value on exchange trees: the value, and which states were valued in order (no guess at a
    noisy state, however deep the exchange goes), from the root and from inner nodes."""
    todo = data.quiescence_cases()
    group = SearchGroup("quiescence_value", quiescence_value, todo, ref.quiescence_value, ref.QUIESCENCE_MISTAKES,
                        decision=False)
    for case in todo:
        group.compare(case)
    return len(todo)


# -- evaluations the lab specifies exactly -----------------------------------------------------------

def exact_values(fn: Callable[..., Any], name: str, inputs: Sequence[tuple[str, tuple]],
                 correct: Callable[..., Any], mistakes: Sequence[Mistake], show: Callable[[tuple], str],
                 advice: str, parts: Callable[..., str] | None = None) -> int:
    """`fn(*args)` must equal `correct(*args)` on every input (a number of the same kind); a mistake is
    named only when its model gives the student's values on this input, every input passed before it
    and the next few. `parts(*args, got)` works the correct value out and says what the student's value is."""
    seen: list[tuple[tuple, Any]] = []
    for i, (what, args) in enumerate(inputs):
        got = common.call(fn, *args, where=f"on {what}")
        want = correct(*args)
        if common.is_number(got) and common.same(got, want):
            seen.append((args, got))
            continue
        call_text = f"{name}({', '.join(repr(a) if isinstance(a, str) else '<state>' for a in args)})"
        if not common.is_number(got):
            common.fail(f"{call_text} on {what} should return a plain number (int or float), but it returned "
                        f"{got!r:.80} ({type(got).__name__}):\n{show(args)}",
                        "return a plain Python number: float(...) turns a numpy number into one.")
        more = []
        for _, later in inputs[i + 1:i + 1 + PROOF_CASES]:
            try:
                more.append((later, common.call(fn, *later)))
            except common.CheckFailed:
                continue
        observed = [(args, got), *seen, *more]
        named = [m for m in mistakes if all(_gives(m.model, a, v) for a, v in observed)]
        worked = ""
        if parts is not None:
            try:
                worked = parts(*args, got)
            except Exception:  # noqa: BLE001 - the worked value is extra information only
                worked = ""
        if named:
            hint = (worked + "\n" if worked else "") + kit.join_hints([m.hint for m in named])
        else:
            hint = worked or f"this matches none of the known mistakes. {advice}"
        common.fail(f"{call_text} on {what}: expected {want!r}, yours returned {got!r}.\n{show(args)}", hint)
    return len(inputs)


def _gives(model: Callable[..., Any], args: tuple, value: Any) -> bool:
    try:
        return common.same(value, model(*args))
    except Exception:  # noqa: BLE001 - a model that fails on an input reproduces nothing there
        return False


def _both_players(game: Any, states: Sequence[Any]) -> list[tuple[str, tuple]]:
    return [(f"position {i + 1} for {p!r}", (s, p)) for i, s in enumerate(states) for p in game.players[:2]]


@tour.told_over_time("isolation_mobility")
def check_isolation_mobility(isolation_mobility: Callable[..., Any]) -> int:
    """(mine - theirs) / (mine + theirs + 1) on sampled positions, for both players, exactly."""
    game = pos.ISOLATION
    positions = [s for series, _ in pos.isolation_series() for _, s in series]
    positions += pos.isolation_states("isolation_mobility")
    return exact_values(isolation_mobility, "isolation_mobility", _both_players(game, positions),
                        lambda s, p: ref.mobility(game, s, p), ref.MOBILITY_MISTAKES,
                        lambda args: game.display(args[0]),
                        "Count the moves of each player with game.mobility(state, player); return "
                        "(mine - theirs) / (mine + theirs + 1).",
                        lambda s, p, got: explain.mobility_parts(game, s, p) + explain.yours(got))


@tour.told_over_time("connect_four_windows")
def check_connect_four_windows(connect_four_windows: Callable[..., Any]) -> int:
    """Open windows weighted 1, 3, 9, over 9 * windows + 1, on sampled positions, for both players, exactly."""
    game = pos.CONNECT_FOUR
    positions = [s for _, s in pos.connect_four_series()] + pos.connect_four_states("connect_four_windows")
    inputs = _both_players(game, positions) + [(f"{what} for {p!r}", (s, p)) for what, s in
                                               pos.connect_four_sizes("connect_four_windows") for p in game.players]
    return exact_values(connect_four_windows, "connect_four_windows", inputs, ref.windows,
                        ref.WINDOWS_MISTAKES, lambda args: game.display(args[0]),
                        "For each window count the player's discs and the opponent's: a window with discs of one "
                        "side only adds 1, 3 or 9 (one, two, three discs) to that side; return the player's total "
                        "minus the opponent's, divided by 9 * len(windows) + 1.",
                        lambda s, p, got: explain.windows_parts(
                            s, p, ref.window_lines(len(s.board) // len(s.heights), len(s.heights)), ref.WINDOW_WEIGHTS,
                            got))


@tour.told_over_time("chess_material")
def check_chess_material(chess_material: Callable[..., Any]) -> int:
    """Material on FEN positions: pawn 1, knight and bishop 3, rook 5, queen 9, king 0; both sides' views."""
    inputs = [(f"{what} ({fen!r}) for {p!r}", (fen, p)) for what, fen in pos.chess_cases() for p in ("w", "b")]
    return exact_values(chess_material, "chess_material", inputs, ref.material, ref.MATERIAL_MISTAKES,
                        lambda args: "", "Pawn 1, knight 3, bishop 3, rook 5, queen 9, king 0 (the king is never "
                        "captured); upper case letters are White's, lower case Black's; digits are runs of empty "
                        "squares and '/' separates the ranks.",
                        lambda fen, p, got: explain.material_parts(fen, p, ref.PIECES) + explain.yours(got))


# -- the open evaluations: properties, ranking, tournament --------------------------------------------

RANK_HINT_ISOLATION = ("count what matters for both players: the more moves P1 has (and the fewer P2 has), the "
                       "better for P1. A value that goes DOWN along the series is from the wrong player's view.")


@tour.told_over_time("isolation_improved", games=True)
def check_isolation_improved(isolation_improved: Callable[..., Any]) -> int:
    """Your better Isolation evaluation: properties, ranking, and a tournament at depth 3."""
    name, game, depth = "isolation_improved", pos.ISOLATION, tour.ISOLATION_DEPTH
    n = tour.check_properties(isolation_improved, name, game, pos.isolation_states(name))
    for series, player in pos.isolation_series():
        tour.check_ranking(isolation_improved, name, game, series, player, RANK_HINT_ISOLATION)
    games = tour.play_tournament(isolation_improved, name, pos.isolation_openings(name), depth,
                                 tour.isolation_baselines(depth), tag=f"{LAB}/{name}",
                                 yardstick=tour.Yardstick("a correct isolation_mobility",
                                                          lambda s, p: ref.mobility(game, s, p)),
                                 title=f"Isolation 5x5: depth-{depth} alpha-beta with your {name}")
    return n + games


@tour.told_over_time("food_grid_evaluate", games=True)
def check_food_grid_evaluate(food_grid_evaluate: Callable[..., Any]) -> int:
    """Score difference plus distance to food: properties, ranking, and a tournament at depth 3."""
    name, depth, plies = "food_grid_evaluate", tour.FOOD_DEPTH, tour.FOOD_MAX_PLIES
    n = 0
    for g, s in pos.food_states(name):
        n += tour.check_properties(food_grid_evaluate, name, g, [s])
    g, series = pos.food_series()
    tour.check_ranking(food_grid_evaluate, name, g, series, "A",
                       "the score difference comes first: one piece of food eaten must outweigh any difference in "
                       "distance (keep the distance part smaller than 1 before you scale). With equal scores, "
                       "being nearer the food than before is better.")
    g, pair = pos.food_one_more_eaten()
    tour.check_outweighs(food_grid_evaluate, name, g, pair, "A",
                         "the score difference comes first: one piece of food eaten must outweigh any difference "
                         "in distances, even the widest. Your distance part is exactly opposite for A and B, so "
                         "keep it strictly between -0.5 and 0.5 before you divide by the total food: then no two "
                         "positions differ in it by a whole piece of food.")
    games = tour.play_tournament(food_grid_evaluate, name, pos.food_openings(name), depth,
                                 tour.food_baselines(depth), max_plies=plies, adjudicate=tour.food_adjudicate,
                                 tag=f"{LAB}/{name}",
                                 yardstick=tour.Yardstick("a correct food_grid_evaluate (breadth-first distances)",
                                                          ref.food_evaluation),
                                 title=f"food-gathering game, random 7x7 boards: depth-{depth} alpha-beta with "
                                       f"your {name} (games stopped after {plies} plies go to whoever ate more)")
    return n + games


#: Each search group's public cases and correct model: what `python -m coursetools golden` writes down.
GOLDEN = {
    "value_cutoff": (data.value_trees, with_evaluator(ref.depth_limited_value)),
    "value_games": (data.value_games, with_evaluator(ref.depth_limited_value)),
    "decision": (data.decision_public, with_evaluator(ref.depth_limited_decision)),
    "quiescence": (data.quiescence_public, with_evaluator(ref.quiescence_value)),
}
