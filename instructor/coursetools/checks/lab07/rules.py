"""Lab 07's rule table (see `checks/rules.py`): each rule of the release notebook, with the cases that catch it.

Case ids are those of `cases.py`. A clock case runs with `COMPANIONS` beside it: the clock group fails a run in
which no clock binds.
"""

from __future__ import annotations

from ..rules import Rule

#: Cases run beside a listed case when it is run on its own (the clock group needs one binding clock).
COMPANIONS = {"clock": ("ttt-budget",)}

RULES = [
    Rule("ucb1-unvisited-infinity", "ucb1", "ucb1",
         "A child with **no** visit yet scores **infinity** (`math.inf`): every child is tried once before any is "
         "tried twice.",
         ("row (0, 0, 5, 1.4142135623730951)", "row (0, 0, 1, 0.5)")),
    Rule("ucb1-parent-over-child", "ucb1", "ucb1",
         "the second grows for children visited rarely compared with their parent (exploration)",
         ("row (3, 4, 10, 1.0)", "row (-2, 3, 7, 1.4142135623730951)", "row (0.5, 2, 9, 0.7)")),
    Rule("ucb1-square-root", "ucb1", "ucb1",
         "The UCB1 score of a child: mean reward plus c times the exploration term; math.inf when unvisited.",
         ("row (3, 4, 10, 1.0)", "row (-2, 3, 7, 1.4142135623730951)", "row (0.5, 2, 9, 0.7)")),
    Rule("ucb1-mean-reward", "ucb1", "ucb1",
         "At a node with `parent_visits` visits, a child that was visited `visits` times with a total reward "
         "`total` scores",
         ("row (3, 4, 10, 1.0)", "row (-2, 3, 7, 1.4142135623730951)", "row (0.5, 2, 9, 0.7)")),
    Rule("rollout-one-draw-per-move", "rollout", "rollout",
         "Each move of a rollout is exactly `rng.choice(game.actions(s))`: one draw per move, nothing else.",
         ("ttt-centre", "ttt-start", "tree-root")),
    Rule("rollout-terminal-no-draw", "rollout", "rollout",
         "Return the terminal state reached (the `state` itself when it is terminal already, with no draw).",
         ("ttt-centre", "ttt-start", "ttt-terminal")),
    Rule("rollout-given-rng", "rollout", "rollout",
         "Never create a new `random.Random()` inside your functions, and never call the `random` module's own "
         "functions (`random.choice`, ...)",
         ("ttt-centre", "ttt-start", "tree-root")),
    Rule("search-untried-first", "mcts_search", "search_trees",
         "**selection**: while `node.untried` is empty and `node.children` is not, go to the child with the largest "
         "`ucb1(child.total, child.visits, node.visits, c)`, the first one on ties;",
         ("two-by-two", "three-moves", "depth-three")),
    Rule("search-parent-visits", "mcts_search", "search_games",
         "**selection**: while `node.untried` is empty and `node.children` is not, go to the child with the largest "
         "`ucb1(child.total, child.visits, node.visits, c)`, the first one on ties;",
         ("ttt-threat",)),
    Rule("search-selection-ties", "mcts_search", "search_trees",
         "**Ties** are broken as everywhere in this course: the first in `actions()` order wins, both in selection "
         "and in the final decision.",
         ("uneven",)),
    Rule("search-one-child", "mcts_search", "search_trees",
         "One new node per iteration.",
         ("two-by-two", "three-moves", "depth-three")),
    Rule("search-first-untried", "mcts_search", "search_trees",
         "**expansion**: if `node.untried` is not empty, take the first action, `node.untried.pop(0)`;",
         ("two-by-two", "three-moves", "depth-three")),
    Rule("search-rollout-outside-tree", "mcts_search", "search_trees",
         "The states of the rollout are not added to the tree.",
         ("two-by-two", "three-moves", "depth-three")),
    Rule("search-reward-for-mover", "mcts_search", "search_trees",
         "every node but the root adds to its total the **utility of the final state for the player who moved into "
         "that node**.",
         ("two-by-two", "three-moves", "depth-three")),
    Rule("search-reward-not-opponent", "mcts_search", "search_games",
         "every node but the root adds to its total the **utility of the final state for the player who moved into "
         "that node**.",
         ("ttt-threat", "ttt-win-now", "ttt-o-to-move")),
    Rule("search-terminal-node", "mcts_search", "search_trees",
         "**rollout** from the new node's state (from the node's own state when nothing was expanded);",
         ("two-by-two", "three-moves", "depth-three")),
    Rule("decision-most-visited", "mcts_decision", "decision",
         "After the search, the move to play is the root's **most visited** child, the first in `actions()` order on "
         "ties.",
         ("three-moves", "ttt-lucky-child", "ttt-both")),
    Rule("decision-first-on-ties", "mcts_decision", "decision",
         "After the search, the move to play is the root's **most visited** child, the first in `actions()` order on "
         "ties.",
         ("three-moves", "ttt-tied-visits", "ttt-both")),
    Rule("decision-search-once", "mcts_decision", "decision",
         "Call `root = mcts_search(game, state, iterations, rng, c, clock)` once, then return the action of its most "
         "visited child.",
         ("two-by-two-tie", "three-moves", "depth-three")),
    Rule("decision-no-child", "mcts_decision", "decision",
         "If the root has no child at all (no iteration ran), return the first action, `game.actions(state)[0]`.",
         ("no-iteration",)),
    Rule("clock-before-each-iteration", "mcts_search", "clock",
         "ask `clock.expired()` **before each iteration**, never inside one.",
         ("tree-budget", "ttt-budget")),
    Rule("clock-iteration-finishes", "mcts_search", "clock",
         "An iteration that starts always finishes, so the answer is the best move of the last finished iteration.",
         ("tree-budget", "ttt-budget-early")),
    Rule("clock-watched-game", "mcts_search", "clock",
         "when `clock` is not `None`, play on `clock.watch(game)`",
         ("ttt-plain-game",)),
    Rule("clock-iterations-cap", "mcts_search", "clock",
         "`iterations` still caps the number of iterations, and must stay finite",
         ("ttt-iterations-first", "tree-iterations-first")),
]
