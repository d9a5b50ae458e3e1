"""Lab 07's models (grader only): UCB1, the random rollout, Monte Carlo tree search and its decision,
each with the mistake models that name a student's mistake when they reproduce what the student did.

The lab's rules, followed step for step by `mcts_search`:

- a node is created with its untried actions, ``[]`` for a terminal state, else ``game.actions(state)``;
- selection descends while the node has no untried action and has children, to the child with the
  largest UCB1 (its own total and visits, the parent's visits), the first in actions order on ties;
- expansion takes the first untried action (one new child per iteration, in actions order);
- the rollout plays ``rng.choice(game.actions(s))`` until a terminal state;
- backup adds 1 visit to every node of the path and, to each node but the root, the utility of the
  terminal state for the player who moved into that node;
- with a clock the search plays on ``clock.watch(game)`` and asks ``clock.expired()`` before each
  iteration, never inside one;
- the decision is the most visited child of the root, the first in actions order on ties.
"""

from __future__ import annotations

import math
from functools import partial
from typing import Any

from ..kit import Mistake

SQRT2 = math.sqrt(2)


class Node:
    """One node of the search tree (the same fields as the lab's `Node`)."""

    def __init__(self, state: Any, parent: Any = None, action: Any = None, player: Any = None,
                 untried: Any = ()) -> None:
        self.state, self.parent, self.action, self.player = state, parent, action, player
        self.untried = list(untried)
        self.children: list = []
        self.visits = 0
        self.total = 0


# -- UCB1 ----------------------------------------------------------------------------------------------

def ucb1(total: float, visits: int, parent_visits: int, c: float, bug: str = "") -> float:
    """total/visits + c*sqrt(ln(parent_visits)/visits); infinity for an unvisited child.

    >>> round(ucb1(3, 4, 10, 1.0), 6), ucb1(0, 0, 5, 1.4)
    (1.508714, inf)
    """
    if visits == 0:
        return 0.0 if bug == "unvisited_zero" else math.inf
    if bug == "swapped":
        return total / visits + c * math.sqrt(math.log(visits) / parent_visits)
    if bug == "no_sqrt":
        return total / visits + c * math.log(parent_visits) / visits
    if bug == "parent_mean":
        return total / parent_visits + c * math.sqrt(math.log(parent_visits) / visits)
    return total / visits + c * math.sqrt(math.log(parent_visits) / visits)


UCB1_MISTAKES = [
    Mistake("ucb_unvisited_zero", "an unvisited child (visits == 0) must score infinity (math.inf), so that "
            "every child is tried once before any is tried twice; yours gives it 0", partial(ucb1, bug="unvisited_zero")),
    Mistake("ucb_swapped_counts", "the exploration term is c * sqrt(ln(parent_visits) / visits): the log of the "
            "PARENT's visits over the child's own visits; yours swaps the two counts", partial(ucb1, bug="swapped")),
    Mistake("ucb_no_sqrt", "the exploration term takes the square root of ln(parent_visits) / visits; yours "
            "leaves the square root out", partial(ucb1, bug="no_sqrt")),
    Mistake("ucb_parent_mean", "the first term is the child's mean reward, total / visits (the child's own "
            "visits), not total / parent_visits", partial(ucb1, bug="parent_mean")),
]


# -- the rollout ---------------------------------------------------------------------------------------

def rollout(game: Any, state: Any, rng: Any) -> Any:
    """Random moves, ``rng.choice(game.actions(s))``, from `state` to a terminal state; returns it."""
    s = state
    while not game.is_terminal(s):
        s = game.result(s, rng.choice(game.actions(s)))
    return s


# -- the search ----------------------------------------------------------------------------------------

def new_node(game: Any, state: Any, parent: Any = None, action: Any = None, player: Any = None) -> Node:
    """A fresh tree node for `state`, its untried actions all of the state's (none when it is terminal)."""
    return Node(state, parent, action, player, [] if game.is_terminal(state) else game.actions(state))


def mcts_search(game: Any, state: Any, iterations: Any, rng: Any, c: float = SQRT2, clock: Any = None, *,
                view: str = "mover", select: str = "untried_first", counts: str = "parent", expand: str = "one",
                tree_rollout: bool = False, honour_clock: str = "before", ucb: Any = ucb1, roll: Any = None) -> Node:
    """The root of the tree grown by `iterations` iterations of MCTS (fewer when `clock` expires first).

    The keyword arguments after `clock` make a mistake model: ``view`` ``"root"`` or ``"opponent"``
    (rewards for the wrong player), ``select="children"`` (descends as soon as a node has a child),
    ``counts="root"`` (the root's visits in the exploration term), ``expand="all"`` (every child
    made at once), ``tree_rollout`` (the rollout's states join the tree), ``honour_clock`` ``"never"``
    ``"inside"`` (also asked inside the rollout, and the unfinished iteration dropped), ``"expansion"`` (also asked
    between expansion and rollout, the same), ``"unwatched"`` (asked, but the game is not watched) or
    ``"discarded"`` (watched, but the search plays on the game it was given) or ``"uncapped"`` (with a clock,
    `iterations` ignored: only the clock stops the search).
    ``ucb`` and ``roll`` are the UCB1 score and the rollout it calls (``roll(game, state, rng)``, by default the
    lab's random moves): the search graded with a student's own ucb1 and rollout, graded in their own groups.

    >>> from course_lib.games import GameTree
    >>> import random
    >>> tree = GameTree.from_nested([[1, -1], [0, 0]])
    >>> root = mcts_search(tree, tree.initial, 6, random.Random(1))
    >>> [(ch.action, ch.visits, ch.total) for ch in root.children]
    [(0, 4, 0), (1, 2, 0)]
    """
    if clock is not None and honour_clock == "discarded":
        clock.watch(game)  # the watched game thrown away: counted only when `game` is one the clock watches already
    elif clock is not None and honour_clock != "unwatched":
        game = clock.watch(game)
    root = new_node(game, state)
    done = 0
    while done < iterations or (honour_clock == "uncapped" and clock is not None):
        if clock is not None and honour_clock != "never" and clock.expired():
            break
        node = root
        # selection
        while (node.children if select == "children" else (not node.untried and node.children)):
            parent_visits = root.visits if counts == "root" else node.visits
            scores = [ucb(ch.total, ch.visits, parent_visits, c) for ch in node.children]
            node = node.children[scores.index(max(scores))]
        # expansion
        if node.untried:
            mover = game.to_move(node.state)
            if expand == "all":
                for a in node.untried:
                    node.children.append(new_node(game, game.result(node.state, a), node, a, mover))
                node.untried = []
                scores = [ucb(ch.total, ch.visits, node.visits, c) for ch in node.children]
                node = node.children[scores.index(max(scores))]
            else:
                a = node.untried.pop(0)
                child = new_node(game, game.result(node.state, a), node, a, mover)
                node.children.append(child)
                node = child
        if honour_clock == "expansion" and clock is not None and clock.expired():
            break
        # rollout
        s, stopped = node.state, False
        if roll is not None:
            s = roll(game, s, rng)
        while roll is None and not game.is_terminal(s):
            if honour_clock == "inside" and clock is not None and clock.expired():
                stopped = True
                break
            a = rng.choice(game.actions(s))
            if tree_rollout:
                mover = game.to_move(s)
                if a in node.untried:
                    node.untried.remove(a)
                s = game.result(s, a)
                child = new_node(game, s, node, a, mover)
                node.children.append(child)
                node = child
            else:
                s = game.result(s, a)
        if stopped:
            break
        # backup
        while node is not None:
            node.visits += 1
            if node.player is not None:
                if view == "root":
                    node.total += game.utility(s, game.to_move(root.state))
                elif view == "opponent":
                    node.total -= game.utility(s, node.player)
                else:
                    node.total += game.utility(s, node.player)
            node = node.parent
        done += 1
    return root


def with_helpers(ucb: Any = None, roll: Any = None) -> Any:
    """The correct search calling the given ucb1 and rollout (a student's own, graded in their own groups); None
    when neither is given."""
    if ucb is None and roll is None:
        return None
    return partial(mcts_search, ucb=ucb1 if ucb is None else ucb, roll=roll)


def best_child(root: Node, rule: str = "visits") -> Any:
    """The root's most visited child (first in actions order on ties); None without children."""
    best = None
    for ch in root.children:
        if best is None:
            best = ch
        elif rule == "value" and ch.total / ch.visits > best.total / best.visits:
            best = ch
        elif rule == "last" and ch.visits >= best.visits:
            best = ch
        elif rule == "visits" and ch.visits > best.visits:
            best = ch
    return best


def picked(kids: tuple, rule: str) -> Any:
    """The action `best_child` picks under `rule` among children given as (action, visits, total); None when there is
    none (or a mean is undefined)."""
    root = Node(None)
    for a, v, t in kids:
        ch = Node(None, root, a)
        ch.visits, ch.total = v, t
        root.children.append(ch)
    best = best_child(root, rule) if rule != "value" or all(k[1] for k in kids) else None
    return None if best is None else best.action


def mcts_decision(game: Any, state: Any, iterations: Any, rng: Any, c: float = SQRT2, clock: Any = None, *,
                  rule: str = "visits", **search: Any) -> Any:
    """The action of the root's most visited child after `mcts_search`; the first action without any."""
    root = mcts_search(game, state, iterations, rng, c, clock, **search)
    best = best_child(root, rule)
    return game.actions(state)[0] if best is None else best.action


SEARCH_MISTAKES = [
    Mistake("reward_wrong_player", "at backup a node's total must grow by the utility of the terminal state for "
            "the player who MOVED INTO that node (node.player); yours adds the root player's utility at every "
            "node, so the opponent's nodes are chosen as if the opponent helped you", partial(mcts_search, view="root")),
    Mistake("reward_opponent_view", "at backup a node's total must grow by the utility for the player who moved "
            "into that node; yours adds the utility for the other player (the player to move there)",
            partial(mcts_search, view="opponent")),
    Mistake("unvisited_not_first", "selection must stop at a node that still has untried actions and expand the "
            "next one: yours descends into an existing child as soon as a node has one, so some children are "
            "never tried", partial(mcts_search, select="children")),
    Mistake("ucb_root_counts", "the exploration term of a child uses the visits of its own PARENT; yours uses "
            "the root's visits at every level", partial(mcts_search, counts="root")),
    Mistake("expands_all_children", "expansion adds ONE child per iteration (the first untried action); yours "
            "generates every child of a node at once", partial(mcts_search, expand="all")),
    Mistake("rollout_mutates_tree", "the rollout's states must stay out of the tree: add one node per iteration and "
            "play the rest of the game without creating nodes", partial(mcts_search, tree_rollout=True)),
]

#: A search that follows a wrong ucb1 (an unvisited child scoring 0 changes nothing in this search: every child
#: it scores has a visit).
SEARCH_MISTAKES += [
    Mistake(f"search_{m.key}", f"your search follows your ucb1, which is wrong (see test_ucb1): {m.hint}",
            partial(mcts_search, ucb=m.model))
    for m in UCB1_MISTAKES if m.key != "ucb_unvisited_zero"
]

DECISION_MISTAKES = [
    Mistake("most_valued_child", "the decision is the root's MOST VISITED child, not the one with the best mean "
            "reward: a child tried once and won once has the best mean by luck", partial(mcts_decision, rule="value")),
    Mistake("decision_last_tie", "on equal visit counts take the FIRST child in actions() order; yours takes the "
            "last (replace the best only when a child has strictly more visits)", partial(mcts_decision, rule="last")),
]

CLOCK_MISTAKES = [
    Mistake("ignores_clock", "play on clock.watch(game) and ask clock.expired() before each iteration: yours "
            "went on after the clock had expired", partial(mcts_decision, honour_clock="never")),
    Mistake("clock_inside_iteration", "ask clock.expired() only BEFORE each iteration, so every iteration that "
            "starts also finishes and backs up; yours also stops inside a rollout",
            partial(mcts_decision, honour_clock="inside")),
    Mistake("clock_game_unwatched", "the clock counts only the states generated on game = clock.watch(game): yours "
            "asks clock.expired() but plays on the game it was given, so the clock never sees a state",
            partial(mcts_decision, honour_clock="unwatched")),
    Mistake("clock_watch_discarded", "play on the game clock.watch(game) returns (game = clock.watch(game)): yours "
            "calls clock.watch(game) but keeps playing on the game it was given, so the clock counts its states only "
            "when that game is one it already watches", partial(mcts_decision, honour_clock="discarded")),
    Mistake("clock_no_iterations_cap", "with a clock, `iterations` still caps the search: stop after `iterations` "
            "iterations even when the clock has not expired; yours goes on until the clock expires",
            partial(mcts_decision, honour_clock="uncapped")),
    Mistake("clock_after_expansion", "ask clock.expired() only BEFORE each iteration, so every iteration that "
            "starts also finishes and backs up; yours also asks it between the expansion and the rollout, and "
            "leaves the iteration there", partial(mcts_decision, honour_clock="expansion")),
]
