"""Lab 02 (minimax): `reference` (the models), `cases` (the cases as data), `profile` (one mistake costs
points once), `groups` (the checks)."""

from .groups import (GOLDEN, check_decision, check_decision_second_player, check_decision_ties, check_decision_trace,
                     check_quick_win, check_value, check_value_second_player, check_value_trace)

__all__ = ["GOLDEN", "check_decision", "check_decision_second_player", "check_decision_ties", "check_decision_trace",
           "check_quick_win", "check_value", "check_value_second_player", "check_value_trace"]
