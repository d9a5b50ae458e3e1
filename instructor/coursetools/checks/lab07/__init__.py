"""Lab 07 (Monte Carlo tree search): `reference` (the models), `cases` (the cases as data), `groups` (the checks)."""

from .groups import (GOLDEN, check_clock, check_decision, check_rollout, check_search_games, check_search_trees,
                     check_ucb1)

__all__ = ["GOLDEN", "check_clock", "check_decision", "check_rollout", "check_search_games", "check_search_trees",
           "check_ucb1"]
