"""Lab 05's rule table (see `checks/rules.py`): each rule of the release notebook, with the cases that catch it.

Search groups: case ids of `cases.py`. Exactly specified evaluations: the label of the input (``position 3 for
'X'``, ``a 5x5 position #1 for 'O'``). Open evaluations: ``properties``, ``ranking`` or ``tournament``, the parts
of their groups, and ``one-more-eaten`` (the food group's pair of positions after its ranking). `ALONE` runs an
evaluation group on those inputs or parts only.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

from ..rules import Rule
from . import groups, tournament

#: The parts of an open evaluation's group, each a function of `tournament` a listed id keeps.
PARTS = {"properties": "check_properties", "ranking": "check_ranking", "one-more-eaten": "check_outweighs",
         "tournament": "play_tournament"}


@contextmanager
def ALONE(ids: Any, met: dict) -> Iterator[None]:  # noqa: N802 - the name `rules.alone` looks for
    """Exact evaluations on the inputs labelled in `ids` only; open ones on the parts named in `ids` only."""
    exact = groups.exact_values

    def some_values(fn: Any, name: str, inputs: Any, *args: Any, **kwargs: Any) -> int:
        kept = [(what, a) for what, a in inputs if what in ids]
        met.update((what, what) for what, _ in kept)
        return exact(fn, name, kept, *args, **kwargs) if kept else 0

    saved = {part: getattr(tournament, fn) for part, fn in PARTS.items()}

    def skipped(part: str) -> Any:
        def run(*args: Any, **kwargs: Any) -> Any:
            if part not in ids:
                return 0
            met[part] = part
            return saved[part](*args, **kwargs)
        return run

    groups.exact_values = some_values
    for part, fn in PARTS.items():
        setattr(tournament, fn, skipped(part))
    try:
        yield
    finally:
        groups.exact_values = exact
        for part, fn in PARTS.items():
            setattr(tournament, fn, saved[part])


RULES = [
    Rule("value-terminal-utility", "depth_limited_value", "value_cutoff",
         "a state where the game is over is valued by `game.utility(state, player)`, **whatever the depth**: a "
         "finished game is a fact, not a guess;",
         ("sixteen-d4", "aima-d2", "mixed-depths-d2")),
    Rule("value-evaluate-at-cutoff-only", "depth_limited_value", "value_cutoff",
         "otherwise, at `depth == 0` the search stops and returns `evaluate(state, player)`, the evaluation "
         "function's guess: this is the **cut-off**;",
         ("sixteen-d2", "sixteen-d1", "sixteen-d3")),
    Rule("value-depth-plies", "depth_limited_value", "value_cutoff",
         "So `depth=0` evaluates the state itself, `depth=1` evaluates its children, and so on.",
         ("sixteen-d2", "sixteen-d0", "sixteen-d1")),
    Rule("value-depth-not-deeper", "depth_limited_value", "value_cutoff",
         "So `depth=0` evaluates the state itself, `depth=1` evaluates its children, and so on.",
         ("sixteen-d2", "sixteen-d0", "sixteen-d1")),
    Rule("value-root-player", "depth_limited_value", "value_games",
         "call `evaluate(state, player)` and `utility(state, player)` with that player.",
         ("ttt-o", "race-p2", "c4-o")),
    Rule("value-prunes", "depth_limited_value", "value_cutoff",
         "fail-soft pruning on equality (a MAX node stops as soon as `v >= beta`, a MIN node as soon as "
         "`v <= alpha`).",
         ("sixteen-d3", "sixteen-d4", "aima-d2")),
    Rule("value-prunes-on-equality", "depth_limited_value", "value_games",
         "fail-soft pruning on equality (a MAX node stops as soon as `v >= beta`, a MIN node as soon as "
         "`v <= alpha`).",
         ("ttt-x-wins", "ttt-o", "ttt-one-move")),
    Rule("value-children-order", "depth_limited_value", "value_cutoff", "children in `actions()` order",
         ("sixteen-d2", "sixteen-d1", "sixteen-d3")),
    Rule("decision-first-best", "depth_limited_decision", "decision",
         "change the best action only when a value is strictly better.",
         ("iso5-corners", "sixteen-d2", "deep-cut-d3")),
    Rule("decision-root-alpha", "depth_limited_decision", "decision",
         "search each root action with the best value found so far as `alpha`, so that later root actions can be "
         "pruned",
         ("iso5-corners", "sixteen-d2", "sixteen-d4")),
    Rule("decision-depth-minus-one", "depth_limited_decision", "decision",
         "searching each root action `depth - 1` plies below its child (so `depth=1` chooses by the guesses of the "
         "children).",
         ("iso5-corners", "sixteen-d2", "sixteen-d1")),
    Rule("decision-terminal-utility", "depth_limited_decision", "decision",
         "Terminal states are valued by game.utility (at any depth); a non-terminal state at depth 0 by "
         "evaluate(state, player), with the root player.",
         ("sixteen-d4", "root-tie", "ttt-x-wins")),
    Rule("mobility-formula", "isolation_mobility", "isolation_mobility",
         "(state, player) -> float in (-1, 1): player's moves minus the opponent's, scaled.",
         ("position 1 for 'P1'", "position 2 for 'P2'")),
    Rule("mobility-player-minus-opponent", "isolation_mobility", "isolation_mobility",
         "Positive when `player` has more moves than the opponent, 0 when equal, negative when fewer.",
         ("position 1 for 'P1'", "position 3 for 'P2'")),
    Rule("mobility-subtract-opponent", "isolation_mobility", "isolation_mobility",
         "with `mine` the number of moves of `player` and `theirs` the number of moves of the opponent",
         ("position 1 for 'P1'", "position 2 for 'P2'")),
    Rule("windows-weights", "connect_four_windows", "connect_four_windows",
         "add a weight that grows with the number of `player`'s discs in it: **1, 3 and 9** for one, two and three "
         "discs; do the same for the opponent;",
         ("position 1 for 'X'", "position 2 for 'O'")),
    Rule("windows-open-only", "connect_four_windows", "connect_four_windows",
         "for every window that holds at least one disc of `player` and none of the opponent's",
         ("position 3 for 'X'", "position 4 for 'O'")),
    Rule("windows-scaled", "connect_four_windows", "connect_four_windows",
         "return `player`'s total minus the opponent's, divided by **9 × (number of windows) + 1**, so that the "
         "result stays strictly between −1 and 1.",
         ("position 1 for 'X'", "position 2 for 'O'")),
    Rule("windows-board-size", "connect_four_windows", "connect_four_windows",
         "a state knows its size from `len(state.heights)` (columns) and `len(state.board)`.",
         ("a 5x5 position #1 for 'X'", "a 4x6 position #1 for 'O'", "a 7x8 position #1 for 'X'")),
    Rule("chess-placement-only", "chess_material", "chess_material",
         "Only the first field, the **piece placement**, describes the pieces",
         ("Black without a rook and a knight, Black to move"
          " ('r1bqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b Qq - 0 5') for 'w'",)),
    Rule("chess-player-view", "chess_material", "chess_material",
         "Write `chess_material(fen, player)`, with `player` `\"w\"` or `\"b\"`: the player's material minus the "
         "opponent's, in pawns (an `int`).",
         ("White without its queen ('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1') for 'b'",)),
    Rule("chess-placement-field-alone", "chess_material", "chess_material",
         "It also accepts a FEN that has only the placement field.",
         ("the placement field only ('r3k2r/ppp2ppp/2n5/3q4/8/2N2B2/PPP2PPP/R3K2R') for 'w'",)),
    Rule("chess-piece-values", "chess_material", "chess_material",
         "pawn 1, knight 3, bishop 3, rook 5, queen 9 (the king is never captured and counts 0)",
         ("a random position #1 ('1b1p4/7R/1pbQqK2/1q5r/Q7/r1RB4/3Qk3/1qQ4k') for 'w'",)),
    Rule("improved-inside-bounds", "isolation_improved", "isolation_improved",
         "**a plain number strictly between −1 and 1**: a guess must never look as good as a win that the search "
         "can see (or as bad as a loss);",
         ("properties",)),
    Rule("improved-opposite", "isolation_improved", "isolation_improved",
         "**exactly opposite for the two players**: `evaluate(s, opponent) == -evaluate(s, player)`.",
         ("properties",)),
    Rule("improved-deterministic", "isolation_improved", "isolation_improved",
         "**deterministic and cheap**: it depends on the state and the player only",
         ("properties",),
         unobservable="random noise drawn once per state and kept (a dict keyed by the state) gives one value per "
                      "state and player for the whole of a grading run, exactly as a deterministic evaluation with a "
                      "cache or a state-keyed tie-break does; it differs only from one run to the next, and a "
                      "grading is one run in one kernel. The case catches noise drawn afresh on each call."),
    Rule("improved-ranking", "isolation_improved", "isolation_improved",
         "a series of positions increasingly good for one player gets increasing values (more moves for that "
         "player, fewer for the other)",
         ("ranking", "tournament")),
    Rule("improved-tournament", "isolation_improved", "isolation_improved",
         "against random moves (70% needed), a greedy one-ply player using mobility (50%) and depth 3 with "
         "evaluation 0 (70%).",
         ("tournament",)),
    Rule("food-score-first", "food_grid_evaluate", "food_grid_evaluate",
         "the score difference comes first: one piece of food eaten must always outweigh any difference in "
         "distances;",
         ("ranking", "one-more-eaten")),
    Rule("food-nearer-is-better", "food_grid_evaluate", "food_grid_evaluate",
         "with equal scores, a position where `player` is nearer to the nearest food (and the opponent as far as "
         "before) must be worth more;",
         ("ranking",)),
    Rule("food-bounds-and-opposite", "food_grid_evaluate", "food_grid_evaluate",
         "strictly between −1 and 1, exactly opposite for A and B.",
         ("properties",)),
    Rule("quiescence-quiet-only", "quiescence_value", "quiescence",
         "at `depth <= 0` a state where `game.is_noisy(state)` is false is valued by `evaluate(state, player)` (the "
         "root player, as before);",
         ("exchange-d1", "exchange-d2", "long-d1")),
    Rule("quiescence-until-quiet", "quiescence_value", "quiescence",
         "every other state, noisy ones past the cut-off included, is searched with alpha-beta, each child with "
         "`depth - 1`, children in `actions()` order.",
         ("long-d1", "long-d2")),
    Rule("quiescence-never-guess-noisy", "quiescence_value", "quiescence",
         "Never call `evaluate` on a noisy state: its guess is the one quiescence search avoids.",
         ("exchange-d1", "exchange-d2", "long-d1")),
    Rule("quiescence-terminal-utility", "quiescence_value", "quiescence",
         "a finished game is still valued by `game.utility(state, player)`, at any depth;",
         ("exchange-d2", "exchange-d3", "long-d1")),
    Rule("quiescence-root-player", "quiescence_value", "quiescence",
         "at `depth <= 0` a state where `game.is_noisy(state)` is false is valued by `evaluate(state, player)` (the "
         "root player, as before);",
         ("exchange-d1", "long-d1", "from-taken-d0")),
]
