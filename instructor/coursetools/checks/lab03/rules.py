"""Lab 03's rule table (see `checks/rules.py`): each rule of the release notebook, with the cases that catch it.

Case ids are those of `cases.py`. A mistake is charged once, in the group that grades it (`profile.py`): each
rule's group is the one whose cases fail when that rule alone is broken.
"""

from __future__ import annotations

from ..rules import Rule

RULES = [
    Rule("value-root-player", "alphabeta_value", "value",
         "Values are from the point of view of the **player to move in the state you were given** "
         "(`game.to_move(state)`): that player maximises, the other one minimises.",
         ("aima-min", "tie-min-cut", "sixteen-from-P2.1")),
    Rule("value-keep-player", "alphabeta_value", "value",
         "Keep `player = game.to_move(state)` from the first call: every utility is taken from that player's point "
         "of view, also deep in the tree where the other player moves.",
         ("sixteen-from-P2.1", "ttt-o", "race-3-p2")),
    Rule("value-returns-number", "alphabeta_value", "value",
         "Return the value of `state` for the player to move there, following the conventions above.",
         ("sixteen", "eight", "aima")),
    Rule("children-in-order", "alphabeta_value", "children",
         "Children are searched in the order `game.actions(s)` lists them",
         ("sixteen", "eight", "aima")),
    Rule("children-made-when-searched", "alphabeta_value", "children",
         "a child is made with `game.result(s, a)` only when it is about to be searched.",
         ("sixteen", "eight", "aima")),
    Rule("utility-once", "alphabeta_value", "children",
         "Terminal states are valued with `game.utility(s, player)`, once each, and nothing else is.",
         ("sixteen", "eight", "aima")),
    Rule("utility-terminal-only", "alphabeta_value", "children",
         "Terminal states are valued with `game.utility(s, player)`, once each, and nothing else is.",
         ("sixteen", "eight", "aima")),
    Rule("prune-stops", "alphabeta_value", "pruning",
         "A MIN node whose value drops to alpha or below will not be chosen by the MAX nodes above it: stop.",
         ("sixteen", "eight", "aima")),
    Rule("prune-updated-window", "alphabeta_value", "pruning",
         "After each child, a MAX node raises alpha to its value so far and a MIN node lowers beta; the *next* "
         "child gets the updated window.",
         ("sixteen", "eight", "aima")),
    Rule("prune-parent-window", "alphabeta_value", "pruning",
         "A node starts with the `(alpha, beta)` window of its parent.",
         ("sixteen", "eight", "aima")),
    Rule("prune-on-equality", "alphabeta_value", "equality",
         "**Prune on equality**: a MAX node stops as soon as its value `v >= beta`, a MIN node as soon as "
         "`v <= alpha`.",
         ("tie-pairs", "tie-at-max", "tie-three-down")),
    Rule("deep-cut", "alphabeta_value", "deep",
         "A search that passes down only \"its own\" bound, `(alpha, +inf)` from MAX nodes and `(-inf, beta)` from "
         "MIN nodes, loses this cut.",
         ("deep-at-min", "deep-at-max", "two-deep-cuts")),
    Rule("fail-soft", "alphabeta_value", "window",
         "**Fail-soft**: when a node stops early, it returns the `v` it had found (not alpha or beta).",
         ("eight-13-20", "eight-4-10", "sixteen-0-6.5")),
    Rule("fail-soft-at-the-end", "alphabeta_value", "window",
         "A **fail-hard** search returns alpha or beta instead (and at the end the updated alpha or beta).",
         ("eight-13-20", "eight-4-10", "sixteen-0-6.5")),
    Rule("caller-window", "alphabeta_value", "window",
         "The root starts from `(-inf, +inf)` unless the caller gives a narrower window.",
         ("eight-13-20", "eight-4-10", "eight-0-2")),
    Rule("decision-first-best", "alphabeta_decision", "decision",
         "`alphabeta_decision` returns the **first** best action of the player to move",
         ("tie-cut", "tie-min-cut", "three-equal")),
    Rule("decision-actions-order", "alphabeta_decision", "decision",
         "A decision returns the **first** best action in `actions()` order.",
         ("tie-cut", "tie-min-cut", "three-equal")),
    Rule("decision-every-move", "alphabeta_decision", "decision",
         "it searches the first move with the full window, and every later move with `alpha` = the best value "
         "found so far",
         ("sixteen", "eight", "aima-min")),
    Rule("decision-returns-move", "alphabeta_decision", "decision", "A game program needs a move, not a value.",
         ("sixteen", "eight", "aima")),
    Rule("decision-player-to-move", "alphabeta_decision", "decision",
         "`alphabeta_decision` returns the **first** best action of the player to move",
         ("aima-min", "ttt-o-blocks", "race-3-p2")),
    Rule("decision-root-alpha", "alphabeta_decision", "decision_pruning",
         "every later move with `alpha` = the best value found so far, so a move that cannot beat it is cut off as "
         "early as possible.",
         ("sixteen", "aima", "aima-min")),
]
