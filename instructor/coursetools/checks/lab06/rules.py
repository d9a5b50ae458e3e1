"""Lab 06's rule table (see `checks/rules.py`): each rule of the release notebook, with the cases that catch it.

Case ids are those of `cases.py`.
"""

from __future__ import annotations

from ..rules import Rule

RULES = [
    Rule("expectimax-average", "expectimax_value", "expectimax_trees",
         "The value of a chance node is what its children are worth **on average**",
         ("three-gambles", "max-chance-min", "depth-four")),
    Rule("expectimax-probabilities", "expectimax_value", "expectimax_trees",
         "at a chance node weight each child by its probability from `game.outcomes(s)`",
         ("three-gambles", "max-chance-min", "depth-four")),
    Rule("expectimax-max-min", "expectimax_value", "expectimax_trees",
         "at the other nodes take the maximum when it is the root player's turn and the minimum otherwise.",
         ("max-chance-min", "depth-four", "mixed-depths")),
    Rule("expectimax-root-utility", "expectimax_value", "expectimax_trees",
         "Terminal states use `game.utility(s, player)` for that player",
         ("max-chance-min", "depth-four", "min-root")),
    Rule("expectimax-to-move", "expectimax_value", "expectimax_dice",
         "Ask `game.to_move(s)` at every node: after a roll of the die the same player may move again, so turns do "
         "not simply alternate.",
         ("pig-start", "pig-b-to-move", "pig-b-turn-total")),
    Rule("expectimax-order-once", "expectimax_value", "expectimax_trees",
         "Visit the children in order, and value each child once.",
         ("three-gambles", "max-chance-min", "depth-four")),
    Rule("expectimax-value-once", "expectimax_value", "expectimax_trees",
         "Visit the children in order, and value each child once.",
         ("three-gambles", "max-chance-min", "depth-four")),
    Rule("expectimax-cutoff", "expectimax_value", "expectimax_dice",
         "Test `game.is_terminal(s)` first, before asking who moves: under `CutOff` a chance node at the depth "
         "limit is terminal too, and its utility is the evaluation's guess.",
         ("pig-cut-1", "pig-cut-3")),
    Rule("maxn-own-entry", "maxn_value", "maxn_trees",
         "Elsewhere the player to move, `game.to_move(s)`, keeps the first child whose entry for her is largest.",
         ("three-levels-from-p3", "mixed-depths")),
    Rule("maxn-first-best", "maxn_value", "maxn_turns",
         "On a tie, the first such child in `actions()` order is kept, as in the earlier labs.",
         ("tie-p2", "tie-p1-root", "ties-p3-below-p2")),
    Rule("maxn-move-twice", "maxn_value", "maxn_turns",
         "Players need not move in turn (a player may move twice in a row), so ask `to_move` at every node.",
         ("p1-twice", "order-p1-p3-p2", "order-p1-p3-p2-from-p3")),
    Rule("maxn-players-order", "maxn_value", "maxn_trees",
         "Return the max^n vector of `state` as a tuple, entry $i$ for `game.players[i]` **whoever moves** (do not "
         "reorder it around the player to move).",
         ("p1-over-p2", "three-levels", "three-levels-from-p2")),
    Rule("maxn-not-rotated", "maxn_value", "maxn_trees",
         "Return the max^n vector of `state` as a tuple, entry $i$ for `game.players[i]` **whoever moves** (do not "
         "reorder it around the player to move).",
         ("three-levels-from-p2", "three-levels-from-p3", "p3-root")),
    Rule("shallow-prunes", "maxn_shallow_value", "maxn_shallow",
         "after each child (in `actions()` order) it updates its best vector (first best on ties) and stops when "
         "`best[j] >= max_sum - bound`, pruning on equality;",
         ("cut-below-root", "cut-at-bound", "bound-raised")),
    Rule("shallow-on-equality", "maxn_shallow_value", "maxn_shallow",
         "after each child (in `actions()` order) it updates its best vector (first best on ties) and stops when "
         "`best[j] >= max_sum - bound`, pruning on equality;",
         ("cut-at-bound", "bound-raised", "sums-below-12")),
    Rule("shallow-parent-bound-only", "maxn_shallow_value", "maxn_shallow",
         "it uses the bound of the **parent** only.",
         ("deep-would-differ",)),
    Rule("shallow-sum-bound", "maxn_shallow_value", "maxn_shallow",
         "As soon as that child has found a vector `best` with `best[j] >= max_sum - bound`, it can stop",
         ("three-levels", "three-levels-from-p2", "deep-would-differ")),
    Rule("shallow-same-player", "maxn_shallow_value", "maxn_shallow",
         "A node whose player is its parent's (a player who moves twice in a row) **never prunes**",
         ("p1-twice-no-cut",)),
]
