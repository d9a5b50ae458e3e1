"""Lab 08's rule table (see `checks/rules.py`): each rule of the release notebook, with the cases that catch it.

Case ids are those of `cases.py`.
"""

from __future__ import annotations

from ..rules import Rule

RULES = [
    Rule("td-slope", "td_update", "td_update",
         "$v(1-v)$ is the slope of the logistic function at $v$",
         ("zero-win", "zero-loss", "hand-draw")),
    Rule("td-error-sign", "td_update", "td_update",
         "where $\\delta = \\text{target} - v$ is the **TD error**",
         ("zero-win", "zero-loss", "hand-draw")),
    Rule("td-new-list", "td_update", "td_update",
         "Return the **new** weights as a new list (leave the list you were given unchanged).",
         ("zero-win", "zero-loss", "hand-draw")),
    Rule("td-value-once", "td_update", "td_update",
         "Compute $v$ once, from the weights before the step.",
         ("zero-win", "zero-loss", "hand-draw")),
    Rule("moves-terminal-reward", "move_values", "move_values",
         "if the move ends the game, its value is the **reward** of the finished game for `p`:",
         ("x-wins-now", "last-square-draw", "o-wins-or-blocks")),
    Rule("moves-one-minus-opponent", "move_values", "move_values",
         "a win for one is a loss for the other, so the move is worth `1 - value(weights, features(child, q))` to "
         "`p`.",
         ("o-to-move", "o-wins-or-blocks")),
    Rule("moves-actions-order", "move_values", "move_values",
         "Return a list of `(action, value)` pairs, one per action, in `game.actions(state)` order.",
         ("x-wins-now", "o-to-move", "o-wins-or-blocks")),
    Rule("play-value-before-move", "self_play_episode", "self_play",
         "the value of the position **before** the move, for the player to move;",
         ("greedy-zero", "explore-hand", "all-random")),
    Rule("play-best-first", "self_play_episode", "self_play",
         "the **best move**: the first one of largest value;",
         ("greedy-zero", "explore-hand", "explore-zero")),
    Rule("play-one-draw", "self_play_episode", "self_play",
         "The number is drawn **even when `epsilon` is 0** (it is then never below `epsilon`, so the best move is "
         "played).",
         ("greedy-zero",)),
    Rule("play-target-best-move", "self_play_episode", "self_play",
         "the **target** is the best move's value, **whichever move is played**",
         ("explore-hand", "all-random", "explore-zero")),
    Rule("play-target-not-own-value", "self_play_episode", "self_play",
         "the **target** is the best move's value, **whichever move is played**",
         ("greedy-zero", "explore-hand", "all-random")),
    Rule("play-weights-unchanged", "self_play_episode", "self_play",
         "Leave the list of weights you were given unchanged.",
         ("greedy-zero", "explore-hand", "all-random")),
    Rule("play-record-copies", "self_play_episode", "self_play",
         "append `Step(state, action, v, target, error, trace, weights)` with copies of the trace and the new "
         "weights, then play the move.",
         ("greedy-zero", "explore-hand", "all-random")),
    Rule("trace-minus-lam", "self_play_episode", "traces",
         "the **trace** becomes `-lam * trace + v * (1 - v) * f` (one number per feature).",
         ("lam-half", "lam-one", "lam-greedy")),
    Rule("trace-decays", "self_play_episode", "traces",
         "the **trace** becomes `-lam * trace + v * (1 - v) * f` (one number per feature).",
         ("lam-half", "lam-one", "lam-greedy")),
    Rule("trace-new-each-game", "self_play_episode", "traces",
         "the trace is reset every game, never carried over from the previous one.",
         ("lam-half", "lam-one", "lam-greedy")),
    Rule("leaf-features", "td_leaf_update", "td_leaf",
         "each weight moves by `alpha * error * v * (1 - v) * features(leaf, p)[i]`, the gradient of the **leaf's** "
         "value.",
         ("hand-depth-2", "hand-depth-1", "o-wins-depth-3")),
    Rule("leaf-view-searched-player", "td_leaf_update", "td_leaf",
         "the value `v` is the leaf's value **for `p`**, the player to move at the searched position, whoever is to "
         "move at the leaf",
         ("hand-depth-1", "o-wins-depth-3", "seeded-depth-1")),
    Rule("leaf-next-searched", "td_leaf_update", "td_leaf",
         "else search it the same way (same `depth`, same weights), take its leaf's value `u` for "
         "`q = game.to_move(next_state)`",
         ("hand-depth-2", "hand-depth-1", "o-wins-depth-3")),
    Rule("leaf-finished-no-gradient", "td_leaf_update", "td_leaf",
         "A finished leaf's value does not depend on the weights: they stay as they are;",
         ("o-wins-depth-3",)),
    Rule("leaf-new-list", "td_leaf_update", "td_leaf",
         "return `LeafStep(leaf, v, target, error, new_weights)`, the new weights as a new list (leave the list you "
         "were given unchanged).",
         ("hand-depth-2", "hand-depth-1", "o-wins-depth-3")),
    Rule("leaf-weights-before", "td_leaf_update", "td_leaf",
         "With `p = game.to_move(state)`, and the weights as they are **before** the update for everything:",
         ("hand-depth-2", "hand-depth-1", "o-wins-depth-3")),
]
