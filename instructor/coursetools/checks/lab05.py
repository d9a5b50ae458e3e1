"""Hidden tests of lab 05 (heuristics and tournaments).

Groups of the depth-limited search (compared, call by call, with
`reference_heuristics` on traced games):

====================  ======================================================================
``value_cutoff``      `depth_limited_value` on explicit trees with an estimate at every node:
                      the value, and exactly which nodes were valued, in order, by utility
                      (terminal states, at any depth) or by evaluate (the cut-off), depth 0
``value_games``       the same on positions of real games, either player to move
``decision``          `depth_limited_decision`: the first best action and the same trace;
                      its first case is Isolation 5x5 at depth 2, where a search that does
                      not stop at the cut-off never returns
====================  ======================================================================

Groups of the evaluation functions: properties on many positions (a plain number,
strictly inside (-1, 1), the same value twice, exactly opposite for the two players,
a series of positions increasingly good for one side ranked in order) and, except for
``isolation_mobility``, a seeded tournament: the reference depth-limited alpha-beta
with the student's evaluation against baseline agents (random play, a greedy one-ply
player, the same search with a constant evaluation), from every opening once on each
side. The table is printed in the output. ``chess_material`` checks FEN positions.

Public cases are fixed; with ``COURSE_SECRET_SEED`` set, seeded cases (and the
tournaments' openings) come from the secret seed. No clock decides anything.
"""

from __future__ import annotations

import math
import random
import zlib
from dataclasses import dataclass
from typing import Any, Callable, Hashable, Sequence

from course_lib.games import ConnectFour, FoodGrid, GameTree, Isolation, RaceTo, TicTacToe
from course_lib.games.connect_four import ConnectFourState
from course_lib.games.food_grid import FoodGridState
from course_lib.games.isolation import IsolationState
from course_lib.games.race import RaceState
from course_lib.trace import Traced

from . import common, kit, trees
from . import reference_heuristics as ref
from .reference_heuristics import Baseline, Opening
from .kit import example_path, path_namer

LAB = "05_heuristics"
INF = math.inf

HINTS = {
    "terminal": "terminal states always use game.utility, whatever the depth: test game.is_terminal(state) "
                "BEFORE testing depth == 0 (a finished game is not a guess).",
    "internal": "evaluate was called on nodes your search then went on to search below: call it only at the "
                "cut-off (depth == 0), never on the way down (not for ordering, printing or checking).",
    "shallow": "depth off by one: your search stops one ply too early. depth counts plies: depth=1 looks at "
               "the children and evaluates them, depth=0 evaluates the state itself; pass depth - 1 to each "
               "child and cut when depth == 0.",
    "deep": "depth off by one: your search goes one ply too deep. depth=0 evaluates the state itself (if it is "
            "not terminal), depth=1 evaluates the children; pass depth - 1 to each child and cut when depth == 0.",
    "never": "your search never called evaluate: at depth 0 a non-terminal state is valued by "
             "evaluate(state, player), and each child must be searched with depth - 1.",
    "view": "evaluate from the wrong player's view: values are from the point of view of the player to move at "
            "the ROOT of the search. Call evaluate(state, root_player) with that player at every cut-off, not "
            "with the player to move at the cut-off node.",
    "pruning": "your search evaluated more than alpha-beta does: it is depth-limited ALPHA-BETA. Stop at a MAX "
               "node as soon as v >= beta and at a MIN node as soon as v <= alpha, and pass the updated "
               "alpha/beta to the next child.",
    "twice": "a node valued twice: keep the value of evaluate/utility (or of a child's search) in a variable "
             "instead of calling again.",
    "order": "search the children one at a time, in the order game.actions(state) gives them.",
    "first_best": "return the FIRST best action in actions() order: change the best action only when a move is "
                  "strictly better (>) than the best so far.",
    "root_alpha": "at the root, search each action with the best value found so far as alpha "
                  "(alpha = max(alpha, v)), so later root actions can be pruned.",
}


# -- evaluation functions used by the search tests ------------------------------------------------

def tree_estimates(tree: GameTree, rng: random.Random) -> dict[str, float]:
    """An estimate (MAX's view) for every node; a leaf's differs from its utility on purpose."""
    out: dict[str, float] = {}
    for node in tree.nodes():
        if tree.is_terminal(node):
            out[node] = 100 + tree.value(node)  # never used by a correct search
        else:
            out[node] = rng.randint(-9, 9)
    return out


def tree_evaluation(tree: GameTree, estimates: dict[str, float]) -> Callable[[Any, Any], float]:
    """evaluate(node, player): the node's estimate for MAX, its negation for MIN."""

    def evaluate(state: Any, player: Any) -> float:
        if player not in tree.players:
            raise ValueError(f"evaluate(state, player): player must be one of {list(tree.players)}, not {player!r}")
        v = estimates[state]
        return v if player == tree.players[0] else -v

    return evaluate


def hashed_evaluation(game: Any, levels: int = 7) -> Callable[[Any, Any], float]:
    """A fixed, symmetric evaluation of any state, with ties (a few levels in (-0.5, 0.5))."""
    first = game.players[0]

    def evaluate(state: Any, player: Any) -> float:
        if player not in game.players:
            raise ValueError(f"evaluate(state, player): player must be one of {list(game.players)}, not {player!r}")
        v = (zlib.crc32(repr(state).encode()) % levels - levels // 2) / (levels + 1)
        return v if player == first else -v

    return evaluate


# -- cases of the search tests ---------------------------------------------------------------------

@dataclass
class Case:
    """One search: a game, a state, a depth and the evaluation to use."""

    name: str
    game: Any
    state: Any
    depth: int
    evaluate: Callable[[Any, Any], float]

    @property
    def is_tree(self) -> bool:
        return isinstance(self.game, GameTree)

    def describe(self) -> str:
        return f"{self.name} with depth={self.depth}"


def _tree_case(name: str, tree: GameTree, depth: int, seed: str) -> Case:
    est = tree_estimates(tree, random.Random(f"{LAB}/{seed}/{name}"))
    return Case(name, tree, tree.initial, depth, tree_evaluation(tree, est))


def _nested(spec: Any, root: str = "MAX") -> GameTree:
    return GameTree.from_nested(spec, root=root)


def value_tree_cases(group: str) -> list[Case]:
    """Public trees at chosen depths, then seeded random trees at random depths."""
    pub = trees.tree
    chosen = [
        ("the 16-leaf tree", pub("sixteen"), (2, 0, 1, 3, 4)),
        ("a ternary tree (AIMA's figure)", pub("aima"), (1, 2)),
        ("the same tree with MIN at the root", pub("aima-min"), (1,)),
        ("terminals at mixed depths", pub("mixed-depths"), (2, 3, 1)),
        ("a terminal at the cut-off depth", _nested([[3, [1, 2]], [[4, 5], 7], [[8, [9, 1]], 2]]), (2,)),
        ("an unbalanced tree", pub("unbalanced"), (2,)),
        ("a tie at the cut point", pub("tie-cut"), (1, 2)),
        ("a deep cut-off", pub("deep-cut"), (3, 2)),
        ("a chain of single children", pub("chain"), (3,)),
        ("a terminal root", pub("terminal-root"), (0, 2)),
        ("negative values", pub("negative"), (2,)),
    ]
    cases = [_tree_case(name, tree, d, group) for name, tree, depths in chosen for d in depths]
    for tag, rng, count in _rngs(group, 8, 10):
        for i in range(count):
            tree = trees.random_tree(rng, max_depth=rng.randint(2, 5), max_branching=rng.randint(2, 4))
            depth = rng.randint(0, 4)
            est = tree_estimates(tree, rng)
            cases.append(Case(f"{tag}random tree #{i + 1}", tree, tree.initial, depth, tree_evaluation(tree, est)))
    return cases


def _rngs(group: str, public: int, secret: int) -> list[tuple[str, random.Random, int]]:
    out = [("", common.rng(LAB, group), public)]
    if common.has_secret():
        out.append(("secret ", common.rng(LAB, group, True), secret))
    return out


SMALL_FOOD = "5 5\n#####\n##* #\n##A*#\n# B##\n#####"
MEDIUM_FOOD = "7 6\n#######\n#A  * #\n# # # #\n#* * *#\n#  # B#\n#######"


def game_cases(group: str) -> list[Case]:
    """Positions of real games, either player to move, with terminal states inside the horizon."""
    ttt, c4, race = TicTacToe(), ConnectFour(4, 4), RaceTo(10, 3)
    iso4 = Isolation(4, start=((0, 0), (3, 3)))
    small, medium = FoodGrid(SMALL_FOOD), FoodGrid(MEDIUM_FOOD)
    cases = [
        Case("TicTacToe, X to move (X can win at once)", ttt, ttt.state_from(["XO.", "XO.", "..."], "X"), 2,
             hashed_evaluation(ttt)),
        Case("TicTacToe, O to move", ttt, ttt.state_from(["X..", ".O.", "X.X"], "O"), 3, hashed_evaluation(ttt)),
        Case("TicTacToe after one move, O to move", ttt, ttt.state_from(["...", ".X.", "..."], "O"), 2,
             hashed_evaluation(ttt)),
        Case("RaceTo(10, 3) at total 4, P2 to move", race, RaceState(4, "P2"), 3, hashed_evaluation(race)),
        Case("ConnectFour 4x4, O to move", c4, c4.play([1, 2, 1, 2, 0, 3, 2]), 3, hashed_evaluation(c4)),
        Case("ConnectFour 4x4, X to move", c4, c4.play([0, 1, 1, 2]), 2, hashed_evaluation(c4)),
        Case("Isolation 4x4 from opposite corners", iso4, iso4.initial, 2, hashed_evaluation(iso4)),
        Case("the small food board, A to move", small, small.initial, 3, hashed_evaluation(small)),
        Case("the medium food board, B to move", medium, medium.result(medium.initial, "right"), 2,
             hashed_evaluation(medium)),
        Case("ConnectFour 4x4 at depth 0", c4, c4.play([0, 1]), 0, hashed_evaluation(c4)),
    ]
    for tag, rng, count in _rngs(group + "/positions", 1, 2):
        for i in range(count):
            s = kit.playout(ttt, rng, rng.randint(2, 5))
            cases.append(Case(f"{tag}a TicTacToe position #{i + 1} ({s.to_move} to move)", ttt, s,
                              rng.randint(1, 3), hashed_evaluation(ttt)))
            s = kit.playout(c4, rng, rng.randint(3, 8))
            cases.append(Case(f"{tag}a ConnectFour 4x4 position #{i + 1} ({s.to_move} to move)", c4, s,
                              rng.randint(1, 3), hashed_evaluation(c4)))
            s = kit.playout(iso4, rng, rng.randint(1, 4))
            cases.append(Case(f"{tag}an Isolation 4x4 position #{i + 1} ({s.to_move} to move)", iso4, s,
                              rng.randint(1, 3), hashed_evaluation(iso4)))
    return cases


def decision_cases(group: str) -> list[Case]:
    """The no-cut-off trap first, then trees (ties between root moves) and game positions."""
    iso5 = Isolation(5, start=((0, 0), (4, 4)))
    cases = [Case("Isolation 5x5 from opposite corners", iso5, iso5.initial, 2, hashed_evaluation(iso5))]
    specs = [
        ("the 16-leaf tree", trees.tree("sixteen"), 2),
        ("the 16-leaf tree", trees.tree("sixteen"), 1),
        ("a tie between root moves", _nested([[2, 7], [5, 3], [1, 9], [5, 8]]), 2),
        ("a ternary tree with MIN at the root", _nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]], "MIN"), 1),
        ("terminals at mixed depths", trees.tree("mixed-depths"), 2),
        ("a deep cut-off", trees.tree("deep-cut"), 3),
        ("a single root move", _nested([[[4, 1], [2, 8]]]), 2),
    ]
    cases += [_tree_case(name, tree, d, group) for name, tree, d in specs]
    # root moves that all tie on the estimates: the first must be chosen
    tie = _nested([[1, 2], [3, 4], [5, 6]])
    cases.append(Case("a tree where every root move ties at depth 1", tie, tie.initial, 1,
                      tree_evaluation(tie, {n: (100 if tie.is_terminal(n) else 5) for n in tie.nodes()})))
    for c in game_cases(group):
        if c.depth >= 1:
            cases.append(c)
    for tag, rng, count in _rngs(group, 4, 6):
        for i in range(count):
            tree = trees.random_tree(rng, max_depth=rng.randint(2, 5), max_branching=rng.randint(2, 4))
            depth = rng.randint(1, 4)
            cases.append(Case(f"{tag}random tree #{i + 1}", tree, tree.initial, depth,
                              tree_evaluation(tree, tree_estimates(tree, rng))))
    return cases


# -- running a search and reading what it did ------------------------------------------------------

@dataclass
class Run:
    """A search's result and the traced game it ran on."""

    result: Any
    game: Traced

    def valued(self) -> list[tuple[str, Hashable]]:
        """(kind, node) of every utility and evaluate call, in order."""
        return [(e.kind, e.node) for e in self.game.trace.events("utility", "evaluate")]


def run_reference(case: Case, decision: bool) -> Run:
    game = Traced(case.game)
    evaluate = game.evaluator(case.evaluate)
    search = ref.depth_limited_decision if decision else ref.depth_limited_value
    return Run(search(game, case.state, case.depth, evaluate), game)


def run_student(fn: Callable[..., Any], case: Case) -> Run:
    game = Traced(case.game)
    evaluate = game.evaluator(case.evaluate)
    result = common.call(fn, game, case.state, case.depth, evaluate, where=f"on {case.describe()}")
    return Run(result, game)


def namer(case: Case, *runs: Run) -> Callable[[Hashable], str]:
    """How a node is written in messages: its name in a tree, the moves leading to it in a game."""
    if case.is_tree:
        return str
    return path_namer(case.state, [run.game.trace for run in runs])


def valued_text(items: list[tuple[str, Hashable]], name: Callable[[Hashable], str]) -> list[str]:
    return [f"{kind}({name(node)})" for kind, node in items]


def picture(case: Case, run: Run | None) -> str:
    """The tree drawn with what the student's search did, and the nodes at the cut-off depth."""
    if not case.is_tree:
        return (f"(nodes are written as the moves from this position, for example "
                f"{example_path(case.game, case.state)})\n{case.game.display(case.state)}")
    tree = case.game
    at_cut = [n for n in tree.nodes() if tree.depth(n) == case.depth]
    note = (f"Nodes at depth {case.depth} (the cut-off): {', '.join(at_cut)}" if at_cut
            else f"No node lies at depth {case.depth}: every path ends in a terminal state first.")
    if len(tree.nodes()) > 45:
        return note
    from course_lib.ascii import ascii_tree

    try:
        drawing = ascii_tree(tree, run.game.trace if run is not None else None, max_lines=45)
    except Exception:  # a drawing must never hide the real message
        drawing = ascii_tree(tree, max_lines=45)
    return f"{note}\n(what your search did:)\n{drawing}"


def diagnose(case: Case, mine: Run, expected: Run) -> list[str]:
    """Hint keys for what the student's trace shows, most telling first."""
    game = case.game
    root_player = game.to_move(case.state)
    evals = mine.game.trace.events("evaluate")
    keys = []
    if any(game.is_terminal(e.node) for e in evals):
        keys.append("terminal")
    searched_below = {parent for parent, _, _ in mine.game.trace.edges()}
    nonterminal = [e for e in evals if not game.is_terminal(e.node)]
    if any(e.node in searched_below for e in nonterminal):
        keys.append("internal")
    depths = {e.depth for e in nonterminal}
    exp_evals = expected.game.trace.events("evaluate")
    if nonterminal and depths == {case.depth - 1}:
        keys.append("shallow")
    elif nonterminal and depths == {case.depth + 1}:
        keys.append("deep")
    elif exp_evals and not evals:
        keys.append("never")
    if any(e.player != root_player for e in evals):
        keys.append("view")
    mine_valued, exp_valued = mine.valued(), expected.valued()
    if any(mine_valued.count(v) > exp_valued.count(v) for v in set(mine_valued)) and any(
            a == b for a, b in zip(mine_valued, mine_valued[1:])):
        keys.append("twice")
    elif not keys and len(mine_valued) > len(exp_valued) and _is_subsequence(exp_valued, mine_valued):
        keys.append("pruning")
    return keys


def _is_subsequence(short: list, long: list) -> bool:
    it = iter(long)
    return all(any(x == y for y in it) for x in short)


def _hint(keys: list[str], default: str = "") -> str:
    return " ".join(f"Looks like {HINTS[k]}" for k in keys) if keys else default


def compare(name: str, student: Callable[..., Any], case: Case, decision: bool) -> None:
    """Run the student's search and the reference on the case; fail on the first difference."""
    expected = run_reference(case, decision)
    mine = run_student(student, case)
    nm = namer(case, mine, expected)
    where = f"on {case.describe()}"
    got = mine.result
    if decision:
        legal = case.game.actions(case.state)
        if not any(common.same(got, a) for a in legal):
            common.fail(f"{name} {where} returned {got!r}, which is not one of the legal actions {legal!r}.",
                        "the decision returns an action (an element of game.actions(state)), not a value.",
                        picture(case, mine))
    else:
        common.expect_number(got, f"{name} {where}")
    exp_valued, got_valued = expected.valued(), mine.valued()
    if exp_valued != got_valued:
        keys = diagnose(case, mine, expected)
        if decision and "pruning" in keys and _root_unpruned(case, mine, expected):
            keys = ["root_alpha"]
        raise common.CheckFailed(common.sequence_message(
            "The states your search valued (utility = end of the game, evaluate = estimate at the cut-off)",
            valued_text(exp_valued, nm), valued_text(got_valued, nm), where, picture(case, mine),
            _hint(keys, "compare the two lists: where does your search value a different state?")))
    root_player = case.game.to_move(case.state)
    others = [e for e in mine.game.trace.events("evaluate") if e.player != root_player]
    if others:
        common.fail(f"{name} {where} called evaluate({nm(others[0].node)}, {others[0].player!r}), but the player "
                    f"to move at the root is {root_player!r}.", HINTS["view"], picture(case, mine))
    if not common.same(got, expected.result):
        keys = [k for k in diagnose(case, mine, expected) if k == "view"]
        if decision:
            ties = _tied_best(case)
            if len(ties) > 1 and any(common.same(got, a) for a in ties):
                keys = ["first_best"]
        common.fail(f"{name} {where}: expected {expected.result!r}, yours returned {got!r}.",
                    _hint(keys, "the states valued were right, so look at how the values are combined: the "
                                "max at the root player's nodes, the min at the opponent's, values from the "
                                "root player's view" + (", and the first best action" if decision else "")),
                    picture(case, mine))
    exp_gen, got_gen = expected.game.trace.generated(), mine.game.trace.generated()
    if exp_gen != got_gen:
        raise common.CheckFailed(common.sequence_message(
            "The children your search generated with result() (in order)", [nm(n) for n in exp_gen],
            [nm(n) for n in got_gen], where, picture(case, mine),
            HINTS["order"] + " Generate a child only when you are about to search it."))


def _root_unpruned(case: Case, mine: Run, expected: Run) -> bool:
    """True when the student's valuations are those of searching every root action with a full window."""
    game = Traced(case.game)
    evaluate = game.evaluator(case.evaluate)
    player = game.to_move(case.state)
    for a in game.actions(case.state):
        ref._search(game, game.result(case.state, a), case.depth - 1, -INF, INF, player, evaluate)
    return [(e.kind, e.node) for e in game.trace.events("utility", "evaluate")] == mine.valued()


def _tied_best(case: Case) -> list:
    """Root actions whose depth-limited value equals the best one (full windows, no pruning at the root)."""
    game, player = case.game, case.game.to_move(case.state)
    values = []
    for a in game.actions(case.state):
        v = ref._search(game, game.result(case.state, a), case.depth - 1, -INF, INF, player, case.evaluate)
        values.append((a, v))
    best = max(v for _, v in values)
    return [a for a, v in values if v == best]


def check_value_cutoff(depth_limited_value: Callable[..., Any]) -> int:
    """depth_limited_value on explicit trees: values, the states valued in order, depth 0, terminals."""
    cases = value_tree_cases("value_cutoff")
    for case in cases:
        compare("depth_limited_value", depth_limited_value, case, decision=False)
    return len(cases)


def check_value_games(depth_limited_value: Callable[..., Any]) -> int:
    """depth_limited_value on positions of real games, either player to move."""
    cases = game_cases("value_games")
    for case in cases:
        compare("depth_limited_value", depth_limited_value, case, decision=False)
    return len(cases)


def check_decision(depth_limited_decision: Callable[..., Any]) -> int:
    """depth_limited_decision: the first best action and the states valued, in order."""
    from coursetools.hidden import TIME_LIMIT_SECONDS, CheckTimeout

    cases = decision_cases("decision")
    for case in cases:
        try:
            compare("depth_limited_decision", depth_limited_decision, case, decision=True)
        except CheckTimeout:
            raise common.CheckFailed(
                f"Your depth_limited_decision used more than {TIME_LIMIT_SECONDS} s of processor time on "
                f"{case.describe()} and "
                "was stopped (a correct search takes well under a second there: it looks only "
                f"{case.depth} plies ahead). Does your search stop at the cut-off? Each child must be searched "
                "with depth - 1 and evaluated when depth reaches 0; a search that ignores the depth goes to "
                "the end of the game, about 10**20 positions in Isolation.") from None
    return len(cases)


# -- properties of evaluation functions -------------------------------------------------------------

def _value(fn: Callable[..., Any], name: str, state: Any, player: Any, text: str) -> float:
    v = common.call(fn, state, player, where=f"on this position with player={player!r}:\n{text}\n")
    if not common.is_number(v) or v != v:
        common.fail(f"{name}(state, {player!r}) should return a number (int or float), but it returned "
                    f"{v!r:.80} ({type(v).__name__}) on this position:\n{text}",
                    "return a plain Python number: float(...) turns a numpy number into one.")
    return v


def check_properties(fn: Callable[..., Any], name: str, game: Any, states: Sequence[Any]) -> int:
    """A number strictly inside (-1, 1), the same twice, opposite for the two players, on every state."""
    p1, p2 = game.players[:2]
    for state in states:
        text = game.display(state)
        a = _value(fn, name, state, p1, text)
        b = _value(fn, name, state, p2, text)
        for player, v in ((p1, a), (p2, b)):
            if not -1 < v < 1:
                common.fail(f"{name}(state, {player!r}) = {v!r} on this position:\n{text}\n"
                            "Evaluations must stay strictly between -1 and 1.",
                            "a win is worth +1 and a loss -1 (the utilities): an estimate of an unfinished "
                            "game must never look as good as a win. Divide by a bound of what you count, "
                            "for example (mine - theirs) / (mine + theirs + 1).")
        again = _value(fn, name, state, p1, text)
        if not common.same(again, a):
            common.fail(f"{name} gave two different values for the same position and player "
                        f"({a!r}, then {again!r}):\n{text}",
                        "an evaluation depends only on the state and the player: no randomness, no memory "
                        "of earlier calls.")
        if not common.same(b, -a):
            common.fail(f"{name} is not symmetric between the players on this position:\n{text}\n"
                        f"  {name}(state, {p1!r}) = {a!r}\n  {name}(state, {p2!r}) = {b!r}  "
                        f"(expected {-a!r}, the opposite)",
                        "in a zero-sum game what is good for one player is equally bad for the other: "
                        "evaluate(state, opponent) must be exactly -evaluate(state, player). Count what is "
                        "good for the player MINUS the same thing for the opponent: a heuristic that "
                        "ignores the opponent is not symmetric.")
    return len(states)


def check_ranking(fn: Callable[..., Any], name: str, game: Any, series: Sequence[tuple[str, Any]],
                  player: Any, why: str) -> None:
    """The positions of `series` must get strictly increasing values for `player`."""
    values = [_value(fn, name, s, player, game.display(s)) for _, s in series]
    for i in range(1, len(series)):
        if not values[i] > values[i - 1]:
            (da, a), (db, b) = series[i - 1], series[i]
            common.fail(
                f"{name} does not rank these positions in order for {player!r}. The second is better for "
                f"{player!r} ({db}) than the first ({da}), but yours gives "
                f"{values[i]!r} <= {values[i - 1]!r}.\nFirst:\n{game.display(a)}\nSecond:\n{game.display(b)}\n"
                f"All values along the series: {[round(v, 4) for v in values]}", why)


def _tournament(fn: Callable[..., Any], name: str, openings: list[Opening], depth: int,
                baselines: list[Baseline], *, title: str, max_plies: int = 200,
                adjudicate: Callable[[Any, Any], float] | None = None) -> int:
    """Play the tournament with the reference search and the student's evaluation; print the table.

    An evaluation is a function of (state, player), so each pair is asked once: a position the
    searches meet again (a transposition, the next move's search) costs no second call to the kernel.
    """
    known: dict[tuple[Any, Any], float] = {}

    def guarded(state: Any, player: Any) -> float:
        key = (state, player)
        if key not in known:
            known[key] = judged(state, player)
        return known[key]

    def judged(state: Any, player: Any) -> float:
        try:
            v = fn(state, player)
        except common.CheckFailed:
            raise
        except Exception:
            return _value(fn, name, state, player, str(state))  # reports the error in the student's words
        if not common.is_number(v) or not -1 < v < 1:
            _value(fn, name, state, player, str(state))
            common.fail(f"{name}(state, {player!r}) = {v!r} during a tournament game, on this position:\n"
                        f"{state}\nEvaluations must stay strictly between -1 and 1.")
        return v

    rows = ref.tournament(openings, lambda game: ref.searcher(depth, guarded), baselines,
                          tag=f"{LAB}/{name}", max_plies=max_plies, adjudicate=adjudicate)
    text = ref.table(rows, title)
    print(text)
    bad = [r for r in rows if not r.passed]
    if bad:
        lost = "; ".join(bad[0].lost_games[:4])
        common.fail(f"{name} did not reach the needed score against {', '.join(r.baseline.name for r in bad)}.\n"
                    f"{text}\nSome games lost against {bad[0].baseline.name}: {lost}",
                    "watch a lost game with your agent (the notebook's play cell): where does your "
                    "evaluation prefer a position that turns out badly? Make sure it counts what matters for "
                    "BOTH players.")
    return sum(r.games for r in rows)


def _openings_rng(group: str) -> random.Random:
    """The public openings, or the secret seed's when the grader has one."""
    return common.rng(LAB, group + "/openings", secret=common.has_secret())


# -- Isolation ------------------------------------------------------------------------------------

ISOLATION = Isolation(5)
ISOLATION_DEPTH = 3


def _iso_state(p1: tuple[int, int], p2: tuple[int, int], blocked: Sequence[tuple[int, int]] = (),
               to_move: str = "P1") -> IsolationState:
    mask = 0
    for r, c in blocked:
        mask |= 1 << (r * 5 + c)
    return IsolationState(mask, (p1[0] * 5 + p1[1], p2[0] * 5 + p2[1]), to_move, 5)


def isolation_states(group: str) -> list[IsolationState]:
    """Positions of 5x5 games with both pieces placed, from seeded random games."""
    out = []
    for _tag, rng, count in _rngs(group + "/states", 30, 30):
        goal = len(out) + count
        while len(out) < goal:
            squares = rng.sample([(r, c) for r in range(5) for c in range(5)], 2)
            g = Isolation(5, start=tuple(squares))
            s = g.initial
            for _ in range(rng.randint(0, 12)):
                if g.is_terminal(s):
                    break
                s = g.result(s, rng.choice(g.actions(s)))
            if not g.is_terminal(s):
                out.append(s)
    return out


def isolation_series() -> list[tuple[list[tuple[str, Any]], str]]:
    """Two series of positions increasingly good for P1; P1 to move in all, none terminal."""
    # P2 walled in a corner with two moves; P1's blocked neighbours freed one by one.
    fence = [(3, 3), (4, 3), (1, 4)]
    around_p1 = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0)]
    series1 = []
    for k in range(len(around_p1), -1, -1):
        s = _iso_state((1, 1), (4, 4), fence + around_p1[:k])
        series1.append((f"P1 has {ISOLATION.mobility(s, 'P1')} moves, P2 has {ISOLATION.mobility(s, 'P2')}", s))
    # P1 and P2 in opposite corners; P2's lines blocked one by one, away from P1's lines.
    series2 = []
    p2_exits = [(4, 2), (4, 3), (2, 4), (3, 4)]
    for k in range(len(p2_exits) + 1):
        s = _iso_state((0, 0), (4, 4), p2_exits[:k])
        series2.append((f"P1 has {ISOLATION.mobility(s, 'P1')} moves, P2 has {ISOLATION.mobility(s, 'P2')}", s))
    return [(series1, "P1"), (series2, "P1")]


def isolation_openings(group: str, count: int = 10) -> list[Opening]:
    """Random squares for both pieces, then four random plies; both players keep three moves or more."""
    rng = _openings_rng(group)
    out = []
    squares = [(r, c) for r in range(5) for c in range(5)]
    while len(out) < count:
        a, b = rng.sample(squares, 2)
        s = Isolation(5, start=(a, b)).initial
        for _ in range(4):
            if ISOLATION.is_terminal(s):
                break
            s = ISOLATION.result(s, rng.choice(ISOLATION.actions(s)))
        if ISOLATION.is_terminal(s) or min(ISOLATION.mobility(s, p) for p in ISOLATION.players) < 3:
            continue
        out.append(Opening(ISOLATION, s, f"opening {len(out) + 1}"))
    return out


def zero(state: Any, player: Any) -> float:
    """The constant evaluation: every unfinished position looks like a draw."""
    return 0


def isolation_baselines(depth: int) -> list[Baseline]:
    return [
        Baseline("random moves", lambda g, seed: ref.random_agent(seed), 0.70),
        Baseline("greedy one-ply (mobility)", lambda g, seed: ref.searcher(1, ref.isolation_mobility(g)), 0.50),
        Baseline(f"depth {depth}, evaluation 0", lambda g, seed: ref.searcher(depth, zero), 0.70),
    ]


RANK_HINT_ISOLATION = ("count what matters for both players: the more moves P1 has (and the fewer P2 has), the "
                       "better for P1. A value that goes DOWN along the series is from the wrong player's view.")


def check_isolation_mobility(isolation_mobility: Callable[..., Any]) -> int:
    """Own moves minus the opponent's: properties, sign, ranking."""
    name = "isolation_mobility"
    states = isolation_states("isolation_mobility")
    n = check_properties(isolation_mobility, name, ISOLATION, states)
    for s in states:
        own, opp = ISOLATION.mobility(s, "P1"), ISOLATION.mobility(s, "P2")
        v = isolation_mobility(s, "P1")
        if (v > 0) != (own > opp) or (v < 0) != (own < opp):
            common.fail(f"{name}(state, 'P1') = {v!r}, but P1 has {own} moves and P2 has {opp} on this "
                        f"position:\n{s}\nThe sign must follow own moves minus the opponent's: positive when "
                        "P1 has more, 0 when equal, negative when fewer.",
                        "use game.mobility(state, player) for each player; count the moves of `player` minus "
                        "the moves of the other player.")
    for series, player in isolation_series():
        check_ranking(isolation_mobility, name, ISOLATION, series, player, RANK_HINT_ISOLATION)
    return n + len(states)


def check_isolation_improved(isolation_improved: Callable[..., Any]) -> int:
    """Your better Isolation evaluation: properties, ranking, and a tournament at depth 3."""
    name = "isolation_improved"
    n = check_properties(isolation_improved, name, ISOLATION, isolation_states("isolation_improved"))
    for series, player in isolation_series():
        check_ranking(isolation_improved, name, ISOLATION, series, player, RANK_HINT_ISOLATION)
    games = _tournament(isolation_improved, name, isolation_openings("isolation_improved"), ISOLATION_DEPTH,
                        isolation_baselines(ISOLATION_DEPTH),
                        title=f"Isolation 5x5: depth-{ISOLATION_DEPTH} alpha-beta with your {name}")
    return n + games


# -- ConnectFour -------------------------------------------------------------------------------------

CONNECT_FOUR = ConnectFour()
CONNECT_FOUR_DEPTH = 2


def connect_four_states(group: str) -> list[ConnectFourState]:
    out = []
    for _tag, rng, count in _rngs(group + "/states", 30, 30):
        for _ in range(count):
            for _attempt in range(50):
                s = CONNECT_FOUR.initial
                for _ in range(rng.randint(1, 20)):
                    if CONNECT_FOUR.is_terminal(s):
                        break
                    s = CONNECT_FOUR.result(s, rng.choice(CONNECT_FOUR.actions(s)))
                if not CONNECT_FOUR.is_terminal(s):
                    out.append(s)
                    break
    return out


def _c4_state(rows: list[str], to_move: str = "X") -> ConnectFourState:
    """A 6x7 state from a picture (top row first); heights from the discs."""
    board = "".join(rows)
    heights = tuple(sum(1 for r in range(6) if board[r * 7 + c] != ".") for c in range(7))
    return ConnectFourState(board, heights, to_move, None)


def connect_four_series() -> list[tuple[str, Any]]:
    """X adds discs (each in some window O has not blocked), O's discs stay where they are."""
    empty = ["......."] * 6
    o_discs = {(5, 0): "O", (4, 0): "O", (5, 6): "O"}
    x_steps = [(5, 3), (5, 4), (4, 3), (5, 2), (3, 3)]
    series = []
    for k in range(len(x_steps) + 1):
        cells = [list(r) for r in empty]
        for (r, c), p in o_discs.items():
            cells[r][c] = p
        for r, c in x_steps[:k]:
            cells[r][c] = "X"
        series.append((f"X has {k} disc{'s' if k != 1 else ''} in the middle, O's three discs unchanged",
                       _c4_state(["".join(r) for r in cells])))
    return series


def connect_four_openings(group: str, count: int = 6) -> list[Opening]:
    rng = _openings_rng(group)
    out, seen = [], set()
    while len(out) < count:
        s = CONNECT_FOUR.initial
        for _ in range(2):
            s = CONNECT_FOUR.result(s, rng.choice(CONNECT_FOUR.actions(s)))
        if s in seen:
            continue
        seen.add(s)
        out.append(Opening(CONNECT_FOUR, s, f"opening {len(out) + 1} (X in column {s.board.index('X') % 7}, "
                                            f"O in column {s.board.index('O') % 7})"))
    return out


def connect_four_baselines(depth: int) -> list[Baseline]:
    return [
        Baseline("random moves", lambda g, seed: ref.random_agent(seed), 0.80),
        Baseline("greedy one-ply (centre column)", lambda g, seed: ref.searcher(1, ref.connect_four_centre(g)), 0.70),
        Baseline(f"depth {depth}, evaluation 0", lambda g, seed: ref.searcher(depth, zero), 0.70),
    ]


def check_connect_four_windows(connect_four_windows: Callable[..., Any]) -> int:
    """Open windows: properties, ranking, and a tournament at depth 2 on the 6x7 board."""
    name = "connect_four_windows"
    n = check_properties(connect_four_windows, name, CONNECT_FOUR, connect_four_states("connect_four_windows"))
    check_ranking(connect_four_windows, name, CONNECT_FOUR, connect_four_series(), "X",
                  "each disc X adds lies in windows that O has not blocked, so X's open windows gain weight "
                  "(and O's lose some): the value for X must go up with every disc. Count a window for a "
                  "player when it holds at least one of their discs and none of the opponent's, with a "
                  "weight that grows with the number of discs, and subtract the opponent's total.")
    games = _tournament(connect_four_windows, name, connect_four_openings("connect_four_windows"),
                        CONNECT_FOUR_DEPTH, connect_four_baselines(CONNECT_FOUR_DEPTH),
                        title=f"ConnectFour 6x7: depth-{CONNECT_FOUR_DEPTH} alpha-beta with your {name}")
    return n + games


# -- the food-gathering game ---------------------------------------------------------------------------

FOOD_DEPTH = 3
FOOD_MAX_PLIES = 40


def food_board(rng: random.Random, width: int = 7, height: int = 7, food: int = 5, walls: int = 4) -> str:
    """A random board text: a wall all around, food, inner walls and both start squares inside."""
    inner = [(r, c) for r in range(1, height - 1) for c in range(1, width - 1)]
    picked = rng.sample(inner, food + walls + 2)
    grid = [["#"] * width for _ in range(height)]
    for r, c in inner:
        grid[r][c] = " "
    for r, c in picked[:food]:
        grid[r][c] = "*"
    for r, c in picked[food:food + walls]:
        grid[r][c] = "#"
    (ra, ca), (rb, cb) = picked[-2:]
    grid[ra][ca], grid[rb][cb] = "A", "B"
    return f"{width} {height}\n" + "\n".join("".join(row) for row in grid)


def food_states(group: str) -> list[tuple[FoodGrid, FoodGridState]]:
    out = []
    for _tag, rng, count in _rngs(group + "/states", 30, 30):
        made = 0
        while made < count:
            width, height = rng.randint(5, 8), rng.randint(5, 8)
            room = (width - 2) * (height - 2) - 2  # inner squares left beside the two start squares
            food = rng.randint(1, min(6, room - 1))
            g = FoodGrid(food_board(rng, width, height, food, rng.randint(0, min(4, room - food - 1))))
            s = g.initial
            for _ in range(rng.randint(0, 15)):
                if g.is_terminal(s):
                    break
                s = g.result(s, rng.choice(g.actions(s)))
            if not g.is_terminal(s):
                out.append((g, s))
                made += 1
    return out


FOOD_SERIES_BOARD = "9 5\n#########\n#A      #\n#  *  * #\n#      B#\n#########"


def food_series() -> tuple[FoodGrid, list[tuple[str, Any]]]:
    """Positions increasingly good for A: the score first, then A's distance to the nearest food."""
    g = FoodGrid(FOOD_SERIES_BOARD)
    base = g.initial
    w = base.width

    def at(r: int, c: int) -> int:
        return r * w + c

    b_square = at(3, 7)  # B two steps from the food at (2, 6)
    series = []
    for a_score, b_score in ((0, 1), (1, 1), (2, 1)):
        for r, c, words in ((1, 1, "far from food"), (2, 1, "two steps from food"), (2, 2, "next to food")):
            s = base._replace(positions=(at(r, c), b_square), scores=(a_score, b_score), to_move="A")
            series.append((f"A {a_score} : B {b_score}, A {words}", s))
    return g, series


def food_openings(group: str, count: int = 8) -> list[Opening]:
    rng = _openings_rng(group)
    out = []
    while len(out) < count:
        g = FoodGrid(food_board(rng))
        if not g.is_terminal(g.initial):
            out.append(Opening(g, g.initial, f"board {len(out) + 1}:\n{g.text.split(chr(10), 1)[1]}\n"))
    return out


def food_adjudicate(game: Any, state: Any) -> float:
    """A game stopped after FOOD_MAX_PLIES plies goes to whoever has eaten more."""
    d = state.scores[0] - state.scores[1]
    return (d > 0) - (d < 0)


def food_baselines(depth: int) -> list[Baseline]:
    return [
        Baseline("random moves", lambda g, seed: ref.random_agent(seed), 0.70),
        Baseline("greedy one-ply (score)", lambda g, seed: ref.searcher(1, ref.food_score(g)), 0.60),
        Baseline(f"depth {depth}, score difference only", lambda g, seed: ref.searcher(depth, ref.food_score(g)),
                 0.65),
    ]


def check_food_grid_evaluate(food_grid_evaluate: Callable[..., Any]) -> int:
    """Score difference plus distance to food: properties, ranking, and a tournament at depth 3."""
    name = "food_grid_evaluate"
    n = 0
    for g, s in food_states("food_grid_evaluate"):
        n += check_properties(food_grid_evaluate, name, g, [s])
    g, series = food_series()
    check_ranking(food_grid_evaluate, name, g, series, "A",
                  "the score difference comes first: one piece of food eaten must outweigh any difference in "
                  "distance (keep the distance part smaller than 1 before you scale). With equal scores, "
                  "being nearer the food than before is better.")
    games = _tournament(food_grid_evaluate, name, food_openings("food_grid_evaluate"), FOOD_DEPTH,
                        food_baselines(FOOD_DEPTH), max_plies=FOOD_MAX_PLIES, adjudicate=food_adjudicate,
                        title=f"food-gathering game, random 7x7 boards: depth-{FOOD_DEPTH} alpha-beta with your "
                              f"{name} (games stopped after {FOOD_MAX_PLIES} plies go to whoever ate more)")
    return n + games


# -- chess material ------------------------------------------------------------------------------------

PIECES = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 9, "k": 0}


def material(fen: str, player: str) -> int:
    """Reference: the player's material minus the opponent's, from the placement field."""
    total = 0
    for ch in fen.split()[0]:
        if ch.lower() in PIECES:
            total += PIECES[ch.lower()] * (1 if ch.isupper() else -1)
    return total if player == "w" else -total


CHESS_CASES = [
    ("the starting position", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("White without its queen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1"),
    ("Black without a rook and a knight, Black to move", "r1bqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b Qq - 0 5"),
    ("kings only", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
    ("three white queens after promotions", "4k3/8/8/8/8/8/8/QQQ1K3 w - - 0 1"),
    ("a rook up, Black to move, castling rights K", "4k3/8/8/8/8/8/8/4K2R b K - 0 1"),
    ("the placement field only", "r3k2r/ppp2ppp/2n5/3q4/8/2N2B2/PPP2PPP/R3K2R"),
    ("a middle game", "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 2 9"),
    ("black pawns on the seventh and second rank", "8/3p4/8/k7/8/8/2p5/K7 b - - 0 40"),
]


def check_chess_material(chess_material: Callable[..., Any]) -> int:
    """Material on FEN positions: pawn 1, knight and bishop 3, rook 5, queen 9, king 0; both sides' views."""
    n = 0
    for what, fen in CHESS_CASES:
        for player in ("w", "b"):
            got = common.call(chess_material, fen, player, where=f"on {what} ({fen!r}) for player {player!r}")
            expected = material(fen, player)
            if not common.same(got, expected):
                hint = ("count only the first field of the FEN (the piece placement, before the first space): "
                        "the other fields (side to move 'w'/'b', castling rights 'KQkq', ...) are not pieces."
                        if common.same(got, _whole_string(fen, player)) else
                        "upper case letters are White's pieces, lower case Black's; the value is the player's "
                        "material minus the opponent's, so it changes sign with the player."
                        if common.same(got, -expected) else
                        "pawn 1, knight 3, bishop 3, rook 5, queen 9, king 0 (the king is never captured); "
                        "digits are runs of empty squares, '/' separates the ranks.")
                common.fail(f"chess_material({fen!r}, {player!r}) on {what}: expected {expected}, yours "
                            f"returned {got!r}.", hint)
            n += 1
    return n


def _whole_string(fen: str, player: str) -> int:
    total = sum(PIECES[ch.lower()] * (1 if ch.isupper() else -1) for ch in fen if ch.lower() in PIECES)
    return total if player == "w" else -total
