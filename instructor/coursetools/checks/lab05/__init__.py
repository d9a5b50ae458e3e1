"""Lab 05 (heuristics): `reference` (the models), `cases` (the cases as data), `positions` (the
positions its evaluation functions are checked on), `tournament` (the
tournaments and properties of the open evaluations), `groups` (the checks)."""

from .groups import (GOLDEN, check_chess_material, check_connect_four_windows, check_decision,
                     check_food_grid_evaluate, check_isolation_improved, check_isolation_mobility, check_quiescence,
                     check_value_cutoff, check_value_games)

__all__ = ["GOLDEN", "check_chess_material", "check_connect_four_windows", "check_decision",
           "check_food_grid_evaluate", "check_isolation_improved", "check_isolation_mobility", "check_quiescence",
           "check_value_cutoff", "check_value_games"]
