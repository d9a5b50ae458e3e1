"""Lab 06 (beyond two players): `reference` (the models), `cases` (the cases as data), `groups` (the checks)."""

from .groups import (GOLDEN, check_expectimax_dice, check_expectimax_trees, check_maxn_shallow, check_maxn_trees,
                     check_maxn_turns)

__all__ = ["GOLDEN", "check_expectimax_dice", "check_expectimax_trees", "check_maxn_shallow", "check_maxn_trees",
           "check_maxn_turns"]
