"""Lab 03 (alpha-beta): `reference` (the models), `cases` (the cases as data), `profile` (one mistake
costs points once), `groups` (the checks)."""

from .groups import (GOLDEN, check_children, check_decision, check_decision_pruning, check_deep, check_equality,
                     check_pruning, check_value, check_window)

__all__ = ["GOLDEN", "check_children", "check_decision", "check_decision_pruning", "check_deep", "check_equality",
           "check_pruning", "check_value", "check_window"]
