"""Lab 02's rule table (see `checks/rules.py`): each rule of the release notebook, with the cases that catch it.

Case ids are those of `cases.py` (``ttt-...``, ``race-...``, ``nim-...``, ``c4-...``, ``reversi-skip-...``,
shared tree ids, seeded ``random-MAX-1``, ...); ``heaps (1, 2)`` is a Nim game of the xor table (group value).
"""

from __future__ import annotations

from ..rules import Rule

RULES = [
    Rule("value-terminal-utility-for-root", "minimax_value", "value_second_player",
         "its **utility for MAX** if it is terminal: `game.utility(state, MAX)`;",
         ("tie-min-cut", "race-10-3-1-P2", "ttt-.XO/.../.X.")),
    Rule("value-max-min", "minimax_value", "value",
         "the **smallest** value among its children if MIN is to move: MIN picks the worst move for MAX.",
         ("sixteen", "eight", "aima")),
    Rule("value-to-move-not-depth", "minimax_value", "value",
         "Who moves at a node is asked with `game.to_move(state)`; never assume it from the depth.",
         ("reversi-skip-W_WBBWB_BBW_B___", "reversi-skip-___B_WBB_BWBBW_W")),
    Rule("value-returns-number", "minimax_value", "value",
         "Write `minimax_value(game, state)`: the minimax value of `state` from the point of view of the player to "
         "move at `state`.",
         ("sixteen", "eight", "aima")),
    Rule("value-second-player", "minimax_value", "value_second_player",
         "the value is always for the player to move at the root.",
         ("aima-min", "tie-min-cut", "race-10-3-1-P2")),
    Rule("value-children-order", "minimax_value", "value_trace", "visit the children in `actions()` order",
         ("sixteen", "eight", "aima")),
    Rule("value-utility-once", "minimax_value", "value_trace",
         "call `utility` only on terminal states, once each.",
         ("sixteen", "eight", "aima")),
    Rule("value-no-depth-limit", "minimax_value", "value",
         "Search every line of play down to a terminal state, however many plies that takes: there is no depth "
         "limit (`RaceTo(10, 1)`, the number-picking game below with every move adding 1, lasts 10 plies, one more "
         "than any game of Tic-Tac-Toe).",
         ("race-10-1-0-P1",)),
    Rule("decision-keeps-action", "minimax_decision", "decision",
         "try each action, compute the value of the state it leads to, keep the action with the largest value.",
         ("sixteen", "eight", "aima")),
    Rule("decision-every-action", "minimax_decision", "decision",
         "Loop over `game.actions(state)`, whatever the game",
         ("sixteen", "eight", "unbalanced")),
    Rule("decision-to-move", "minimax_decision", "decision", "Ask `game.to_move(state)` at every node instead.",
         ("reversi-skip-__W_BWWBWBB_WBBB", "reversi-skip-_W__BBW_BBWWB_B_")),
    Rule("decision-pass-move", "minimax_decision", "decision",
         'It is an action like any other: where `"pass"` is the only action, `minimax_decision` returns `"pass"`.',
         ("reversi-pass-WBBB_WWWWBBB_BBB",)),
    Rule("decision-second-player", "minimax_decision", "decision_second_player",
         "With the second player to move, the decision is the best move *for that player*.",
         ("aima-min", "race-10-3-1-P2", "ttt-.XO/.../.X.")),
    Rule("decision-first-best", "minimax_decision", "decision_ties",
         "When several actions share the best value, return the **first** one in `actions()` order (so keep a new "
         "action only when it is strictly better).",
         ("tie-cut", "ttt-O../X.X/.O.", "ttt-OXX/.../.O.")),
    Rule("decision-children-order", "minimax_decision", "decision_trace",
         "The first action, in actions() order, with the best minimax value for the player to move.",
         ("sixteen", "eight", "aima")),
    Rule("quick-faster-win", "quick_win_decision", "quick_win",
         "a win `d` plies below the root is worth `10 - d`, a loss `d - 10` (that is `utility * (10 - d)`), a draw "
         "0.",
         ("ttt-O../X.X/.O.", "ttt-OOX/.X./...", "ttt-..X/.XO/..O")),
    Rule("quick-slowest-loss", "quick_win_decision", "quick_win",
         "when every move loses, the slowest loss scores highest",
         ("ttt-.X./.OO/.X.", "ttt-..O/XOX/...", "ttt-.OX/.X./...")),
    Rule("quick-first-best", "quick_win_decision", "quick_win",
         "Write `quick_win_decision(game, state)`: the first action, in `actions()` order, whose depth-aware minimax "
         "score is best for the player to move.",
         ("race-10-3-6-P1", "nim-2-2", "ttt-X.O/O.X/...")),
    Rule("quick-same-tree", "quick_win_decision", "quick_win",
         "It searches the same tree, in the same order, as `minimax_decision`; only the leaf scores change",
         ("ttt-O../X.X/.O.", "ttt-OOX/.X./...", "ttt-..X/.XO/..O")),
]
