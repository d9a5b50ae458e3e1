"""Lab 08's models (grader only): one TD(0) step, the values of the moves of a one-ply search, and a self-play
episode with eligibility traces, each with the mistake models that name a student's mistake when they reproduce
what the student did.

The lab's rules, followed step for step by `step` (one update) and `self_play_episode`:

- the value of a position is ``value(w, features(s, p))`` for p, the player to move there;
- a move's value for the player who makes it is the reward of a finished game (1, 0.5, 0), else 1 minus the
  value of the position reached for the player to move there;
- at each position: one ``rng.random()``; below epsilon the move is ``rng.choice(game.actions(s))``, else the
  first move of largest value;
- the target is the largest move value (whatever move is played); the TD error is target - value;
- the trace becomes ``-lam * trace + v * (1 - v) * features`` (a new trace of zeros at the start of each game);
  each weight moves by ``alpha * error * trace``; with lam = 0 that is `td_update`.

TDLeaf (`td_leaf_update`): the value of a position for its player to move p is the value for p of the leaf of the
principal variation of a depth-limited alpha-beta search (`pv_leaf`); the target is the next position's value for
p (its reward when finished, else 1 - its own leaf's value for its player to move); the weights move along the
gradient of the LEAF's value (none for a finished leaf).
"""

from __future__ import annotations

import math
from functools import partial
from typing import Any, Callable, Sequence

from course_lib.learning import LeafStep, Step, features, reward, value

from ..kit import Mistake


# -- one TD(0) step ------------------------------------------------------------------------------------

def td_update(weights: Sequence[float], feats: Sequence[float], target: float, alpha: float,
              bug: str = "") -> list[float]:
    """New weights: w + alpha * (target - v) * v * (1 - v) * features, v = value(w, features).

    >>> td_update([0.0, 0.0], [1.0, 2.0], 1.0, 0.5)
    [0.0625, 0.125]
    """
    v = value(weights, feats)
    error = (v - target) if bug == "sign" else (target - v)
    slope = 1.0 if bug == "no_slope" else v * (1 - v)
    return [w + alpha * error * slope * f for w, f in zip(weights, feats)]


TD_MISTAKES = [
    Mistake("no_squash_gradient", "the step follows the slope of the squashed value: each weight moves by "
            "alpha * error * v * (1 - v) * feature; yours leaves the factor v * (1 - v) out",
            partial(td_update, bug="no_slope")),
    Mistake("error_sign", "the TD error is target - value (the value moves TOWARDS the target); yours uses "
            "value - target, which moves it away", partial(td_update, bug="sign")),
]


# -- the values of the moves ---------------------------------------------------------------------------

def move_values(game: Any, state: Any, weights: Sequence[float], bug: str = "") -> list[tuple[Any, float]]:
    """(action, its value for the player to move at `state`) for every action, in actions() order."""
    p = game.to_move(state)
    out = []
    for a in game.actions(state):
        child = game.result(state, a)
        if game.is_terminal(child) and bug != "no_reward":
            out.append((a, reward(game, child, p)))
        elif bug == "view":
            out.append((a, value(weights, features(child, game.to_move(child)))))
        else:
            out.append((a, 1 - value(weights, features(child, game.to_move(child)))))
    return out


MOVE_MISTAKES = [
    Mistake("target_wrong_view", "a move's value is for the player who MAKES it: 1 - value(weights, features(child, "
            "q)), q being the player to move in the child; yours takes the value for q itself, the opponent",
            partial(move_values, bug="view")),
    Mistake("no_terminal_reward", "a move that ends the game is worth its reward (1 for a win, 0.5 for a draw, 0 for "
            "a loss, for the player who makes it); yours values the finished game with the evaluation instead",
            partial(move_values, bug="no_reward")),
]


# -- self-play ------------------------------------------------------------------------------------------

def step(game: Any, state: Any, weights: Sequence[float], trace: Sequence[float], rng: Any, alpha: float,
         epsilon: float, lam: float, *, values: Callable[..., Any] = move_values, bug: str = "",
         action: Any = None, given: tuple | None = None) -> Step:
    """One update from `state` with `weights` and `trace`. `action` plays that move instead of drawing (the
    draws are still made); `given` = (value, target, error) takes those from a record (only the trace and the
    weights are then computed)."""
    p = game.to_move(state)
    f = features(state, p)
    v = value(weights, f)
    moves = list(values(game, state, weights))
    best = max(range(len(moves)), key=lambda i: (moves[i][1], -i))
    drawn = rng.random()
    explore = drawn <= epsilon if bug == "explore_at_epsilon" else drawn < epsilon
    a = rng.choice(game.actions(state)) if explore else moves[best][0]
    if action is not None:
        a = action
    target = moves[best][1]
    if bug == "explore_value":
        target = dict(moves)[a]
    elif bug == "current":
        target = v
    error = target - v
    if given is not None:
        v, target, error = given
    fu = features(game.result(state, a), p) if bug == "after_move" else f
    g = [v * (1 - v) * x for x in fu]
    if bug == "no_decay":
        new_trace = [e + x for e, x in zip(trace, g)]
    elif bug == "no_sign":
        new_trace = [lam * e + x for e, x in zip(trace, g)]
    else:
        new_trace = [-lam * e + x for e, x in zip(trace, g)]
    new_w = [w + alpha * error * e for w, e in zip(weights, new_trace)]
    return Step(state, a, v, target, error, new_trace, new_w)


def self_play_episode(game: Any, weights: Sequence[float], rng: Any, alpha: float, epsilon: float,
                      lam: float = 0.0, *, bug: str = "", carry: list | None = None) -> tuple[list, list]:
    """One game of self-play from the start: (the weights after it, its record of `Step`s). `carry` (a list
    holding a trace) keeps the trace from one game to the next (a mistake model)."""
    w = list(weights)
    trace = list(carry[0]) if carry and carry[0] is not None else [0.0] * len(w)
    s, history = game.initial, []
    while not game.is_terminal(s):
        st = step(game, s, w, trace, rng, alpha, epsilon, lam, bug=bug)
        history.append(st)
        w, trace = st.weights, st.trace
        s = game.result(s, st.action)
    if carry is not None:
        carry[0] = trace
    return w, history


def carried() -> Callable[..., Any]:
    """A self-play whose trace lives on from one game to the next (never reset)."""
    box: list = [None]
    return partial(self_play_episode, carry=box)


#: (key, hint, how to make a fresh model for one run). A model is made afresh for each run of a case.
SELF_PLAY_MISTAKES = [
    Mistake("target_current_value", "the target is the value of the BEST MOVE of the one-ply search (the next "
            "position's value), not the current position's own value: yours moves the value towards itself, so the "
            "TD error is always 0 and nothing is learned", lambda: partial(self_play_episode, bug="current")),
    Mistake("explore_value", "the target is the largest move value even when an exploratory (random) move is "
            "played: yours updates towards the value of the random move", lambda: partial(self_play_episode,
                                                                                         bug="explore_value")),
    Mistake("features_after_move", "the update uses the features of the position BEFORE the move (the one whose "
            "value is corrected); yours uses the features of the position after it",
            lambda: partial(self_play_episode, bug="after_move")),
    Mistake("explore_at_epsilon", "a move explores only when rng.random() is BELOW epsilon (rng.random() < epsilon); "
            "yours explores when the number equals epsilon too (<=)",
            lambda: partial(self_play_episode, bug="explore_at_epsilon")),
]

NO_DECAY = Mistake("trace_not_decayed", "each step multiplies the trace by -lam before adding the new gradient; yours "
            "adds to the trace without decaying it (with lam = 0 the trace is just the new gradient)",
                   lambda: partial(self_play_episode, bug="no_decay"))
SELF_PLAY_MISTAKES.append(NO_DECAY)

TRACE_MISTAKES = [
    NO_DECAY,
    Mistake("trace_no_sign", "the trace is multiplied by -lam, not lam: the previous position's value is the OTHER "
            "player's, so an error for this player counts against it", lambda: partial(self_play_episode,
                                                                                       bug="no_sign")),
    Mistake("trace_not_reset", "each game starts with a trace of zeros; yours carries the trace of the previous "
            "game into the next one", carried),
] + SELF_PLAY_MISTAKES[:-1]  # a self-play mistake shows in the traces too: named there as well


# -- TDLeaf ---------------------------------------------------------------------------------------------

def pv_leaf(game: Any, state: Any, depth: int, weights: Sequence[float]) -> Any:
    """The last position of the principal variation of a fail-soft alpha-beta search `depth` plies deep from
    `state`, children in actions() order, MAX the player p to move at `state`: a finished game scores
    reward(game, s, p), any other position at depth 0 value(weights, features(s, p)). The first best child is kept
    (a later one only when strictly better), so the leaf is the one plain minimax would give."""
    p = game.to_move(state)

    def search(s: Any, d: int, alpha: float, beta: float) -> tuple[float, Any]:
        if game.is_terminal(s):
            return reward(game, s, p), s
        if d == 0:
            return value(weights, features(s, p)), s
        maximise = game.to_move(s) == p
        best, leaf = (-math.inf if maximise else math.inf), s
        for a in game.actions(s):
            v, at = search(game.result(s, a), d - 1, alpha, beta)
            if (v > best) if maximise else (v < best):
                best, leaf = v, at
            if maximise:
                alpha = max(alpha, best)
                if best >= beta:
                    break
            else:
                beta = min(beta, best)
                if best <= alpha:
                    break
        return best, leaf

    return search(state, depth, -math.inf, math.inf)[1]


def td_leaf_update(game: Any, weights: Sequence[float], state: Any, next_state: Any, search: Callable[..., Any],
                   depth: int, alpha: float, bug: str = "") -> LeafStep:
    """One TDLeaf(0) update of the value of `state` towards the value of `next_state` (the position after the move
    played), both from the leaves ``search(state, depth, weights)`` returns."""
    p = game.to_move(state)
    w = list(weights)
    leaf = search(state, depth, w)
    view = game.to_move(leaf) if bug == "view" else p
    if game.is_terminal(leaf):
        v, grad = reward(game, leaf, p), [0.0] * len(w)
    else:
        f = features(leaf, view)
        v = value(w, f)
        grad = [v * (1 - v) * x for x in (features(state, p) if bug == "root" else f)]
    if game.is_terminal(next_state):
        target = reward(game, next_state, p)
    else:
        nleaf = next_state if bug == "next_static" else search(next_state, depth, w)
        if game.is_terminal(nleaf):
            target = reward(game, nleaf, p)
        else:
            q = game.to_move(nleaf) if bug == "view" else game.to_move(next_state)
            target = 1 - value(w, features(nleaf, q))
    error = target - v
    return LeafStep(leaf, v, target, error, [x + alpha * error * g for x, g in zip(w, grad)])


def searched(game: Any, state: Any, next_state: Any, depth: int) -> list[tuple]:
    """The searches the correct update asks for: (board, depth, with the weights before the update)."""
    out = [(state.board, depth, True)]
    if not game.is_terminal(next_state):
        out.append((next_state.board, depth, True))
    return out


LEAF_MISTAKES = [
    Mistake("leaf_root_features", "the update moves the weights along the gradient of the LEAF's value: v * (1 - v) "
            "* features(leaf, p); yours uses the features of the searched position itself (the root)",
            partial(td_leaf_update, bug="root")),
    Mistake("leaf_wrong_view", "the leaf is valued for the player to move at the SEARCHED position (p for this "
            "position, q for the next one), whoever is to move at the leaf; yours takes the features for the player "
            "to move at the leaf", partial(td_leaf_update, bug="view")),
    Mistake("leaf_next_not_searched", "the target comes from the leaf of a search from the next position, as the "
            "value does; yours values the next position itself, without searching it",
            partial(td_leaf_update, bug="next_static")),
]
