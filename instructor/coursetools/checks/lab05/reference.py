"""Lab 05's models (grader only): depth-limited alpha-beta and the evaluations the lab specifies
exactly, each with the mistake models that name a student's mistake when they reproduce it.

The course's conventions: values from the point of view of the player to move at the root,
terminal states valued by `utility` at any depth, ``evaluate(state, root_player)`` only on
non-terminal states at depth 0, fail-soft pruning on equality (MAX stops at ``v >= beta``,
MIN at ``v <= alpha``), children in actions() order, the first best action at the root.

`depth_limited_value` and `depth_limited_decision` are the reference depth-limited alpha-beta
with a given evaluation: other grader tools (a class tournament) may use them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial
from typing import Any, Callable

from course_lib.games import Isolation

from ..kit import Mistake

INF = math.inf
Evaluate = Callable[[Any, Any], float]


@dataclass(frozen=True)
class Flags:
    """How a search departs from the correct one (all defaults: the correct search).

    ``cut``: the depth at which the search stops (1 stops a ply early, -1 a ply late);
    ``terminal_first=False`` tests the depth before `is_terminal`; ``guess_everywhere`` calls
    evaluate at every non-terminal node on the way down; ``mover_view`` asks evaluate for the
    player to move at the cut-off node; ``prune=False`` is depth-limited minimax.
    """

    cut: int = 0
    terminal_first: bool = True
    guess_everywhere: bool = False
    mover_view: bool = False
    prune: bool = True


CORRECT = Flags()


def search(game: Any, state: Any, depth: int, alpha: float, beta: float, player: Any, evaluate: Evaluate,
           flags: Flags = CORRECT) -> float:
    """Depth-limited alpha-beta value of `state` for `player` (the root player)."""
    if flags.terminal_first and game.is_terminal(state):
        return game.utility(state, player)
    if flags.guess_everywhere:
        guess = evaluate(state, player)
        if depth == flags.cut:
            return guess
    elif depth == flags.cut:
        return evaluate(state, game.to_move(state) if flags.mover_view else player)
    if not flags.terminal_first and game.is_terminal(state):
        return game.utility(state, player)
    maximizing = game.to_move(state) == player
    v = -INF if maximizing else INF
    for a in game.actions(state):
        w = search(game, game.result(state, a), depth - 1, alpha, beta, player, evaluate, flags)
        if maximizing:
            v = max(v, w)
            if flags.prune and v >= beta:
                return v
            alpha = max(alpha, v)
        else:
            v = min(v, w)
            if flags.prune and v <= alpha:
                return v
            beta = min(beta, v)
    return v


def depth_limited_value(game: Any, state: Any, depth: int, evaluate: Evaluate, flags: Flags = CORRECT) -> float:
    """Alpha-beta value of `state` for the player to move there, `depth` plies deep (0: evaluate now).

    >>> from course_lib.games import GameTree
    >>> tree = GameTree.from_nested([[3, [1, 2]], [[4, 5], 7]])
    >>> depth_limited_value(tree, tree.initial, 0, lambda state, player: 0.5)
    0.5
    >>> depth_limited_value(tree, tree.initial, 3, lambda state, player: 0.5)  # every leaf reached
    5
    """
    return search(game, state, depth, -INF, INF, game.to_move(state), evaluate, flags)


def depth_limited_decision(game: Any, state: Any, depth: int, evaluate: Evaluate, flags: Flags = CORRECT,
                           last_best: bool = False, root_window: bool = True) -> Any:
    """The first best action, each root action searched ``depth - 1`` plies below its child with the best
    value so far as alpha. ``last_best`` keeps the last best action (>=), ``root_window=False`` searches
    every root action with the full window (-inf, inf)."""
    player = game.to_move(state)
    best, alpha = None, -INF
    for a in game.actions(state):
        v = search(game, game.result(state, a), depth - 1, alpha if root_window else -INF, INF, player, evaluate,
                   flags)
        if best is None or v > alpha or (last_best and v == alpha):
            best, alpha = a, v
    return best


def searcher(depth: int, evaluate: Evaluate) -> Callable[[Any, Any], Any]:
    """An agent ``(game, state) -> action`` that plays the reference `depth_limited_decision` with `evaluate`."""
    return lambda game, state: depth_limited_decision(game, state, depth, evaluate)


# -- mistakes of the search ------------------------------------------------------------------------

def _value_model(flags: Flags) -> Callable[..., float]:
    return partial(depth_limited_value, flags=flags)


VALUE_FLAGS = {
    "evaluate_at_terminal": Flags(terminal_first=False),
    "evaluate_internal_nodes": Flags(guess_everywhere=True),
    "depth_stops_early": Flags(cut=1),
    "depth_goes_deeper": Flags(cut=-1),
    "evaluate_mover_view": Flags(mover_view=True),
    "depth_limited_minimax": Flags(prune=False),
}

VALUE_HINTS = {
    "evaluate_at_terminal": "your search is what you get by testing depth == 0 BEFORE game.is_terminal(state): a "
                            "finished game at the cut-off got evaluate's guess. Terminal states are valued by "
                            "game.utility whatever the depth: test is_terminal first.",
    "evaluate_internal_nodes": "your search is what you get by calling evaluate at every node on the way down, "
                               "not only at the cut-off. Call evaluate only when depth == 0 (and the state is "
                               "not terminal), never on nodes you then search below.",
    "depth_stops_early": "your search is what you get by cutting off when depth == 1: it stops one ply too early. "
                         "Depth counts plies: depth=0 evaluates the state itself, "
                         "depth=1 evaluates its children; search each child with depth - 1.",
    "depth_goes_deeper": "your search is what you get by cutting off one ply too deep (at depth == -1). Depth "
                         "counts plies: depth=0 evaluates the state itself (when it is not terminal).",
    "evaluate_mover_view": "your search is what you get by calling evaluate(state, player_to_move_there) at the "
                           "cut-off. Values are from the point of view of the player to move at the ROOT: call "
                           "evaluate(state, root_player) at every cut-off.",
    "depth_limited_minimax": "your search is what you get by searching every child without pruning (depth-limited "
                             "minimax). It is depth-limited ALPHA-BETA: stop at the root player's nodes as soon "
                             "as v >= beta, at the opponent's as soon as v <= alpha, and pass the updated "
                             "alpha/beta to the next child.",
}

VALUE_MISTAKES = [Mistake(key, VALUE_HINTS[key], _value_model(flags)) for key, flags in VALUE_FLAGS.items()]

DECISION_MISTAKES = [
    Mistake("decision_last_best", "your decision is what you get by keeping the LAST best root action (>= instead "
            "of >). Return the first best action in actions() order: change the best action only when a value "
            "is strictly greater.", partial(depth_limited_decision, last_best=True)),
    Mistake("decision_full_window", "your decision is what you get by searching every root action with the full "
            "window (-inf, inf). Pass the best value found so far as alpha to each later root action, so its "
            "subtree can be pruned.", partial(depth_limited_decision, root_window=False)),
    *[Mistake(f"decision_{key}", VALUE_HINTS[key].replace("your search is", "your decision's search is"),
              partial(depth_limited_decision, flags=flags)) for key, flags in VALUE_FLAGS.items()],
]


# -- the evaluations the lab specifies exactly -----------------------------------------------------

def mobility(game: Any, state: Any, player: Any, *, sign: int = 1, scaled: bool = True, own_only: bool = False
             ) -> float:
    """Isolation mobility: (mine - theirs) / (mine + theirs + 1), from `player`'s view."""
    mine, theirs = game.mobility(state, player), game.mobility(state, game.opponent(player))
    top = mine if own_only else sign * (mine - theirs)
    return top / (mine + theirs + 1) if scaled else top


def mobility_mistakes(game: Any) -> list[Mistake]:
    """Known mistakes of isolation_mobility, as models ``(state, player) -> value``."""
    return [
        Mistake("mobility_wrong_view", "your values are theirs minus mine: the opponent's moves minus the "
                "player's. Count the moves of `player` minus the moves of the opponent.",
                lambda s, p: mobility(game, s, p, sign=-1)),
        Mistake("mobility_unscaled", "your values are the plain difference of the moves, not divided: divide "
                "by (mine + theirs + 1) so the value stays strictly between -1 and 1.",
                lambda s, p: mobility(game, s, p, scaled=False)),
        Mistake("mobility_own_only", "your values count only the player's own moves (over mine + theirs + 1): "
                "subtract the opponent's moves.", lambda s, p: mobility(game, s, p, own_only=True)),
    ]


#: The known mistakes of isolation_mobility on the 5x5 board (the class report names them by key).
MOBILITY_MISTAKES = mobility_mistakes(Isolation(5))

WINDOW_WEIGHTS = (0, 1, 3, 9, 0)


def window_lines(rows: int, cols: int, k: int = 4) -> list[tuple[int, ...]]:
    """Every line of k cells on a rows x cols board (across, down, both diagonals), as row-major indices.

    >>> len(window_lines(6, 7)), window_lines(6, 7)[0]
    (69, (0, 1, 2, 3))
    """
    out = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                if 0 <= r + dr * (k - 1) < rows and 0 <= c + dc * (k - 1) < cols:
                    out.append(tuple((r + dr * i) * cols + c + dc * i for i in range(k)))
    return out


def windows(state: Any, player: Any, *, weights: tuple = WINDOW_WEIGHTS, scaled: bool = True,
            blocked_too: bool = False) -> float:
    """Open windows of `player` minus the opponent's, weights 1, 3, 9 by discs, over 9 * windows + 1."""
    cols = len(state.heights)
    lines = window_lines(len(state.board) // cols, cols)
    opponent = "O" if player == "X" else "X"
    total = 0
    for line in lines:
        cells = [state.board[i] for i in line]
        mine, theirs = cells.count(player), cells.count(opponent)
        if mine and (blocked_too or not theirs):
            total += weights[mine]
        if theirs and (blocked_too or not mine):
            total -= weights[theirs]
    return total / (WINDOW_WEIGHTS[3] * len(lines) + 1) if scaled else total


#: Known mistakes of connect_four_windows, as models ``(state, player) -> value``.
WINDOWS_MISTAKES = [
        Mistake("windows_unscaled", "your values are the weighted counts, not divided: divide by 9 times the "
                "number of windows plus 1 so the value stays strictly between -1 and 1.",
                partial(windows, scaled=False)),
        Mistake("windows_blocked_counted", "your values also count windows that hold discs of both players: "
                "such a window can never become four in a row for anyone. Count a window for a player only when "
                "it holds none of the opponent's discs.", partial(windows, blocked_too=True)),
        Mistake("windows_flat_weights", "your values weigh every open window 1, whatever its number of discs: "
                "use the weights 1, 3 and 9 for one, two and three discs.",
                partial(windows, weights=(0, 1, 1, 1, 0))),
]


PIECES = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 9, "k": 0}


def material(fen: str, player: str, *, whole: bool = False, flip: bool = True) -> int:
    """The player's material minus the opponent's, from the placement field (``whole``: every character)."""
    text = fen if whole else fen.split()[0]
    total = sum(PIECES[ch.lower()] * (1 if ch.isupper() else -1) for ch in text if ch.lower() in PIECES)
    return total if player == "w" or not flip else -total


MATERIAL_MISTAKES = [
    Mistake("chess_whole_fen", "your values count letters of the whole FEN string: count only the first field of "
            "the FEN (the piece placement, before the first space); the other fields (side to move 'w'/'b', "
            "castling rights 'KQkq', ...) are not pieces.", partial(material, whole=True)),
    Mistake("chess_white_view_only", "your values are White's material minus Black's whoever the player is: for "
            "player 'b' return Black's material minus White's (the opposite).", partial(material, flip=False)),
]


# -- an evaluation the lab leaves open, as a yardstick of speed ------------------------------------------

def food_evaluation(state: Any, player: str) -> float:
    """A correct food_grid_evaluate: the score difference plus half the difference of the walks to the nearest
    food (breadth-first around the walls, a player who cannot reach food as far as the board is big), over the
    board's squares plus one, over the total food plus one. The grader only times it (`tournament.pace`)."""
    far = state.width * state.height + 1

    def steps(square: int) -> int:
        seen, frontier, dist = {square}, [square], 0
        while frontier:
            if any(state.food >> i & 1 for i in frontier):
                return dist
            nxt = []
            for i in frontier:
                r, c = divmod(i, state.width)
                for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    j = rr * state.width + cc
                    if 0 <= rr < state.height and 0 <= cc < state.width and j not in seen \
                            and not state.walls >> j & 1:
                        seen.add(j)
                        nxt.append(j)
            frontier, dist = nxt, dist + 1
        return far - 1

    me = 0 if player == "A" else 1
    nearer = 0.5 * (steps(state.positions[1 - me]) - steps(state.positions[me])) / far
    total = bin(state.food).count("1") + state.scores[0] + state.scores[1]
    return (state.scores[me] - state.scores[1 - me] + nearer) / (total + 1)


# -- quiescence search ---------------------------------------------------------------------------------

QUIET, IGNORE_NOISE, ONE_PLY, GUESS_NOISY = "quiet", "ignore", "one_ply", "guess_noisy"


def quiescence(game: Any, state: Any, depth: int, alpha: float, beta: float, player: Any, evaluate: Evaluate,
               rule: str = QUIET) -> float:
    """Depth-limited alpha-beta whose cut-off waits for a quiet state: at ``depth <= 0`` a noisy state
    (``game.is_noisy``) is searched like any other, child by child with ``depth - 1``.

    `rule` makes a mistake model: ``ignore`` evaluates at depth 0 whatever the noise (the horizon effect),
    ``one_ply`` extends a noisy state by one ply only, ``guess_noisy`` also asks evaluate at a noisy state
    before searching below it."""
    if game.is_terminal(state):
        return game.utility(state, player)
    if depth <= 0:
        if rule == GUESS_NOISY and game.is_noisy(state):
            evaluate(state, player)
        if rule == IGNORE_NOISE or (rule == ONE_PLY and depth < 0) or not game.is_noisy(state):
            return evaluate(state, player)
    maximizing = game.to_move(state) == player
    v = -INF if maximizing else INF
    for a in game.actions(state):
        w = quiescence(game, game.result(state, a), depth - 1, alpha, beta, player, evaluate, rule)
        if maximizing:
            v = max(v, w)
            if v >= beta:
                return v
            alpha = max(alpha, v)
        else:
            v = min(v, w)
            if v <= alpha:
                return v
            beta = min(beta, v)
    return v


def quiescence_value(game: Any, state: Any, depth: int, evaluate: Evaluate, rule: str = QUIET) -> float:
    """Alpha-beta value of `state`, `depth` plies deep, never cut off at a noisy state.

    >>> from course_lib.games import ExchangeTree
    >>> t = ExchangeTree.from_nodes({"s": ("MAX", {"QxP": "t", "Nf3": "c"}, 0),
    ...     "t": ("MIN", {"PxQ": -8, "a6": 1}, 1), "c": ("MIN", {"d5": 0, "Bg4": 1}, 0)}, "s", noisy=["t"])
    >>> guess = lambda state, player: t.evaluation(state, player)
    >>> quiescence_value(t, "s", 1, guess), quiescence_value(t, "s", 1, guess, rule="ignore")
    (0, 1)
    """
    return quiescence(game, state, depth, -INF, INF, game.to_move(state), evaluate, rule)


QUIESCENCE_MISTAKES = [
    Mistake("quiescence_ignores_noise", "your search is what you get by evaluating at depth 0 whether the state "
            "is noisy or not: plain depth-limited search, with its horizon effect. At depth <= 0, evaluate only a "
            "quiet state; a noisy one (game.is_noisy(state)) is searched on, child by child.",
            partial(quiescence_value, rule=IGNORE_NOISE)),
    Mistake("quiescence_one_ply", "your search is what you get by extending a noisy state by ONE ply only and "
            "then evaluating whatever comes: an exchange can last several plies. Keep searching while the state "
            "is noisy (depth goes on down: -1, -2, ...), and evaluate the first quiet state.",
            partial(quiescence_value, rule=ONE_PLY)),
    Mistake("quiescence_guesses_noisy", "your search is what you get by calling evaluate at a noisy state before "
            "searching below it: a guess in the middle of an exchange is exactly what quiescence avoids. At "
            "depth <= 0 test game.is_noisy(state) first and call evaluate only on quiet states.",
            partial(quiescence_value, rule=GUESS_NOISY)),
]
