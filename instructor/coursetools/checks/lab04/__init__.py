"""Lab 04 (move ordering, transposition tables, iterative deepening with a clock): `reference` (the models
and mistake models), `cases` (the cases as data), `groups` (ordering and deepening groups), `tables` (the
transposition-table groups)."""

from .groups import (GOLDEN, check_deepening_clock, check_iterative_deepening, check_ordered_trace,
                     check_ordered_value, check_perfect_ordering)
from .tables import check_tt_depth, check_tt_games, check_tt_trees

__all__ = ["GOLDEN", "check_deepening_clock", "check_iterative_deepening", "check_ordered_trace",
           "check_ordered_value", "check_perfect_ordering", "check_tt_depth", "check_tt_games", "check_tt_trees"]
