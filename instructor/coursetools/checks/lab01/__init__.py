"""Lab 01 (game trees): `reference` (the models), `cases` (the cases as data), `groups` (the checks)."""

from .groups import (GOLDEN, check_count_nodes, check_nim_illegal, check_nim_immutable, check_nim_rules,
                     check_tree_stats_branching, check_tree_stats_depth, check_tree_stats_leaves)

__all__ = ["GOLDEN", "check_count_nodes", "check_nim_illegal", "check_nim_immutable", "check_nim_rules",
           "check_tree_stats_branching", "check_tree_stats_depth", "check_tree_stats_leaves"]
