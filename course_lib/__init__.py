"""course_lib: games, search traces and drawings for the adversarial-search labs.

Nothing heavy happens at import time: import the parts you need, for example
``from course_lib.games import TicTacToe`` and ``from course_lib.trace import Traced``.
"""

__version__ = "0.1.0"
