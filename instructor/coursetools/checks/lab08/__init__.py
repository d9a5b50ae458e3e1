"""Lab 08 (learning an evaluation from self-play): `reference` (the models), `cases` (the cases), `groups` (checks)."""

from .groups import GOLDEN, check_move_values, check_self_play, check_td_leaf, check_td_update, check_traces

__all__ = ["GOLDEN", "check_move_values", "check_self_play", "check_td_leaf", "check_td_update", "check_traces"]
