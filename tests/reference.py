"""Reference searches for the library's own tests: the grader's, so there is one copy.

They live with the instructor's checks (never in course_lib, which ships no search).
"""

from coursetools.checks.reference import alphabeta_decision, alphabeta_value, minimax_decision, minimax_value

__all__ = ["alphabeta_decision", "alphabeta_value", "minimax_decision", "minimax_value"]
