"""Play a game against your own decision function, wherever the notebook runs.

One entry point, `play(game, decide)`, picks the front end:

- **a widget board** in a Jupyter kernel with ipywidgets 7 or 8 (JupyterLab, Notebook 7,
  VS Code, Google Colab): click a square (TicTacToe, Isolation) or a column (Connect Four).
  Its output also carries a picture of the board and a note, so a viewer that cannot run
  widgets shows the board and says how to play by typing instead;
- **typed moves** everywhere else (a terminal, a kernel without ipywidgets), or when asked
  with ``front="text"``: the board is shown, then ``input()`` asks for a move. Jupyter
  front ends all answer ``input()`` through the kernel's stdin channel, so this works in
  JupyterLab, Notebook 7, VS Code and Colab too.

A board of HTML links is not offered: in JupyterLab, Notebook 7 and VS Code a click on plain
HTML output cannot reach the kernel (that is exactly what widget comms are for).

The computer moves with a clock (2 seconds a move unless `clock` says otherwise). A
`decide(game, state, clock)` gets a fresh clock for every move and must answer once
``clock.expired()``; `deepening` turns a depth-limited search into one, keeping the best move
of its last finished depth. A plain `decide(game, state)` cannot be stopped: it runs to the
end, and a move that took longer than the clock says so.

While a notebook is graded (``NBGRADER_EXECUTION`` set) `play` returns at once.
"""

from __future__ import annotations

import copy
import inspect
import os
import textwrap
import time
from typing import Any, Callable, NamedTuple

from .clock import Clock, NodeBudget, WallClock
from .draw import Picture, draw_board
from .widgets import STATIC_NOTE, GameBoard, _bundle, _ipywidgets, live, parse_move

FRONTS = ("auto", "widgets", "text")
GRADING_NOTE = "play() needs a person to play against; skipped while the notebook is graded."


# -- the computer's move, on a clock ---------------------------------------------------------

def takes_clock(decide: Callable[..., Any]) -> bool:
    """True when `decide` wants a clock: a parameter named ``clock``, or a third positional one without default.

    >>> takes_clock(lambda game, state: None), takes_clock(lambda game, state, clock: None)
    (False, True)
    >>> takes_clock(lambda game, state, depth=3: None), takes_clock(lambda game, state, *, clock=None: None)
    (False, True)
    """
    try:
        params = inspect.signature(decide).parameters.values()
    except (TypeError, ValueError):  # a builtin without a signature: call it the plain way
        return False
    if any(p.name == "clock" and p.kind is not p.VAR_KEYWORD for p in params):
        return True
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(positional) >= 3 and positional[2].default is inspect.Parameter.empty


def fresh_clock(clock: float | Clock) -> Clock:
    """A new clock like `clock` for the next move (a number is seconds of a `WallClock`).

    >>> fresh_clock(2), fresh_clock(NodeBudget(500)).nodes
    (WallClock(2, remaining=2.00), 500)
    >>> fresh_clock("fast")
    Traceback (most recent call last):
    ...
    ValueError: clock must be seconds (a number), a WallClock or a NodeBudget, not 'fast'
    """
    if isinstance(clock, WallClock):
        return WallClock(clock.seconds)
    if isinstance(clock, NodeBudget):
        return NodeBudget(clock.nodes)
    if isinstance(clock, (int, float)) and not isinstance(clock, bool):
        return WallClock(clock)
    raise ValueError(f"clock must be seconds (a number), a WallClock or a NodeBudget, not {clock!r}")


class Move(NamedTuple):
    """The computer's move: the action, seconds taken, and a note (empty when all went well)."""

    action: Any
    seconds: float
    note: str


class BadDecision(Exception):
    """`decide` raised or returned a move that is not legal; the message says which."""


def computer_move(game: Any, state: Any, decide: Callable[..., Any], clock: float | Clock = 2.0,
                  uses_clock: bool | None = None) -> Move:
    """Ask `decide` for its move in `state`, with a fresh clock when it takes one; check the move is legal.

    >>> from course_lib.games import TicTacToe
    >>> computer_move(TicTacToe(), TicTacToe().initial, lambda g, s: g.actions(s)[-1]).action
    (2, 2)
    """
    uses_clock = takes_clock(decide) if uses_clock is None else uses_clock
    limit = fresh_clock(clock)
    started = time.monotonic()
    try:
        action = decide(game, state, limit) if uses_clock else decide(game, state)
    except Exception as exc:  # the student's function: say what it raised, keep the game
        raise BadDecision(f"decide raised {type(exc).__name__}: {exc}") from exc
    took = time.monotonic() - started
    legal = game.actions(state)
    if action not in legal:
        raise BadDecision(f"decide returned {action!r}, which is not a legal move here; legal moves: {legal!r}")
    note = ""
    if isinstance(limit, WallClock) and took > limit.seconds + 0.5:
        note = (f"The computer took {took:.1f} s, over its {limit.seconds:g} s clock"
                + ("." if uses_clock else ": give decide a clock argument so that it can stop in time."))
    return Move(action, took, note)


class OutOfTime(BaseException):
    """Raised inside a search by `deepening` when its clock runs out (a BaseException: `except Exception` lets it by)."""


def deepening(decide_to_depth: Callable[[Any, Any, int], Any], max_depth: int = 50) -> Callable[[Any, Any, Clock], Any]:
    """A `decide(game, state, clock)` from a `decide_to_depth(game, state, depth)`: iterative deepening on a clock.

    It searches to depth 1 (always to the end), then 2, 3, ... on a copy of the game whose
    ``result`` raises `OutOfTime` once the clock has expired, and returns the move of the
    last depth that finished. It stops early when a depth generated no more states than the
    one before (the whole game tree was searched) or at `max_depth`.

    >>> from course_lib.games import TicTacToe
    >>> seen = []
    >>> def first_move(game, state, depth):
    ...     seen.append(depth)
    ...     return game.actions(state)[0]
    >>> deepening(first_move, max_depth=3)(TicTacToe(), TicTacToe().initial, NodeBudget(10**6)), seen
    ((0, 0), [1, 2, 3])
    """
    def decide(game: Any, state: Any, clock: Clock) -> Any:
        best = decide_to_depth(game, state, 1)
        counted = [0]
        inner = game.result

        def result(s: Any, a: Any) -> Any:
            if clock.expired():
                raise OutOfTime
            counted[0] += 1
            return inner(s, a)

        timed = _with_result(game, result)
        before = -1
        for depth in range(2, max_depth + 1):
            counted[0] = 0
            try:
                best = decide_to_depth(clock.watch(timed), state, depth)
            except OutOfTime:
                break
            if counted[0] == before or clock.expired():
                break
            before = counted[0]
        return best

    decide.__name__ = f"deepening({getattr(decide_to_depth, '__name__', 'decide')})"
    return decide


class _Delegate:
    """Behaves like `game` (every attribute read from it) except for the attributes set on it."""

    def __init__(self, game: Any):
        self._game = game

    def __getattr__(self, name: str) -> Any:
        if name == "_game":
            raise AttributeError(name)
        return getattr(self._game, name)


def _with_result(game: Any, result: Callable[[Any, Any], Any]) -> Any:
    """A copy of `game` whose ``result`` is `result` (a delegate for games that themselves delegate, like `Traced`)."""
    timed = _Delegate(game) if hasattr(type(game), "__getattr__") else copy.copy(game)
    timed.result = result
    return timed


# -- where it runs ------------------------------------------------------------------------------

def _in_kernel() -> bool:
    """True inside a Jupyter kernel (JupyterLab, Notebook, VS Code, Colab), False in a terminal."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def choose_front(front: str = "auto") -> tuple[str, str]:
    """The front end to use (``"widgets"`` or ``"text"``) and why.

    >>> choose_front("text")
    ('text', 'asked for')
    """
    if front not in FRONTS:
        raise ValueError(f"front must be one of {FRONTS}, not {front!r}")
    if front == "text":
        return "text", "asked for"
    w, why = _ipywidgets()
    if front == "widgets":
        if w is None:
            raise ValueError(f"no widget board here: {why.removeprefix('static picture: ')}")
        return "widgets", "asked for"
    if not _in_kernel():
        return "text", "not in a Jupyter kernel"
    if w is None:
        return "text", why.removeprefix("static picture: ")
    return "widgets", "a Jupyter kernel with ipywidgets"


# -- pictures of the board ------------------------------------------------------------------------

def board_picture(game: Any, state: Any, title: str | None = None) -> Picture | None:
    """The board as a picture (TicTacToe, Connect Four, Isolation), or None."""
    try:
        return draw_board(state, title=title)
    except TypeError:
        return None


def how_to_type(game: Any, state: Any) -> str:
    """How to type a move in this game, with an example taken from the legal moves."""
    legal = game.actions(state)
    example = legal[len(legal) // 2] if legal else None
    if isinstance(example, tuple):
        return f"type row and column, for example {' '.join(map(str, example))}"
    if isinstance(example, int):
        return f"type a column number, for example {example}"
    return f"type a move as it is written in the list, for example {example}"


def illegal_text(game: Any, state: Any, what: Any) -> str:
    """The message for a move that is not legal: what was wrong and the legal moves."""
    legal = game.actions(state)
    return f"{what} is not a legal move here. Legal moves: {', '.join(map(str, legal))}"


# -- the widget board ---------------------------------------------------------------------------

class PlayBoard(GameBoard):
    """The widget board of `GameBoard`, with the computer on a clock and a square grid for Isolation.

    Parts as in `GameBoard` (`squares`, `message`, `new_game`, `computer_starts`, `box`),
    plus `moves`: the computer's `Move`s so far in this game.
    """

    def __init__(self, game: Any, decide: Callable[..., Any], *, clock: float | Clock = 2.0,
                 computer_starts: bool = False, uses_clock: bool | None = None):
        fresh_clock(clock)  # a bad clock is reported now, not at the computer's first move
        self.clock = clock
        self.uses_clock = takes_clock(decide) if uses_clock is None else uses_clock
        self.moves: list[Move] = []
        self._isolation = hasattr(game.initial, "positions") and hasattr(game.initial, "blocked")
        super().__init__(game, decide, computer_starts=computer_starts)
        if self._isolation:
            self.kind = "squares"
        self.why = self.why.replace("play_in_terminal(game, decide)", 'play(game, decide, front="text")')

    def start(self, computer_first: bool = False) -> None:
        self.moves = []
        super().start(computer_first)

    def click(self, action: Any) -> None:
        if not self.over() and self.game.to_move(self.state) == self.human and \
                action not in self.game.actions(self.state):
            self.note = illegal_text(self.game, self.state, action)
            self._refresh()
            return
        super().click(action)

    def _computer(self) -> None:
        while not self.over() and self.game.to_move(self.state) != self.human:
            if self.box is not None:
                seconds = f" (up to {self.clock:g} s)" if isinstance(self.clock, (int, float)) else ""
                self.message.value = live(f"<b>The computer is thinking{seconds}…</b>")
            try:
                move = computer_move(self.game, self.state, self.decide, self.clock, self.uses_clock)
            except BadDecision as exc:
                self.note = str(exc)
                return
            self.moves.append(move)
            self._play(move.action, self.game.to_move(self.state))
            self.note = f"The computer played {move.action!r} in {move.seconds:.1f} s. {move.note}".strip()

    def _refresh(self) -> None:
        if self.box is None or not self._isolation:
            super()._refresh()
            return
        state = self.state
        cells = state.cells()
        legal = set(self.game.actions(state)) if self.game.to_move(state) == self.human else set()
        words = {".": "empty", "#": "blocked", "1": "P1", "2": "P2"}
        self._squares(self._w, [[((r, c), {".": "", "#": "■"}.get(cells[r * state.size + c], cells[r * state.size + c]),
                                  f"row {r}, column {c}: {words.get(cells[r * state.size + c], cells[r * state.size + c])}"
                                  + (", a legal move" if (r, c) in legal else ""),
                                  "success" if (r, c) in legal else ("primary" if cells[r * state.size + c] in "12" else ""),
                                  (r, c)) for c in range(state.size)] for r in range(state.size)])
        self.message.value = live("<b>" + self.status().replace("&", "&amp;").replace("<", "&lt;") + "</b>")

    def static_note(self) -> str:
        if self.box is not None:
            return STATIC_NOTE.split(" (")[0] + '; to play here, run play(game, decide, front="text")'
        return self.why

    def static(self) -> Picture | None:
        note = self.static_note().replace("static picture", "static board")
        return board_picture(self.game, self.state, title="\n".join(textwrap.wrap(note, 34)))

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> tuple[dict, dict]:
        return _bundle(self.box, self.static(), f"{self.game.display(self.state)}\n{self.static_note()}")


# -- typed moves ----------------------------------------------------------------------------------

def play_text(game: Any, decide: Callable[..., Any], *, clock: float | Clock = 2.0, human: Any = None,
              uses_clock: bool | None = None, ask: Callable[[str], str] = input,
              say: Callable[[str], Any] = print) -> Any:
    """Play by typed moves (``q`` stops); returns the last state. `ask` and `say` replace `input` and `print`.

    >>> from course_lib.games import TicTacToe
    >>> typed = iter(["1 1", "9 9", "0 1", "q"])
    >>> said = []
    >>> _ = play_text(TicTacToe(), lambda g, s: g.actions(s)[0], ask=lambda _: next(typed), say=said.append)
    >>> [line for line in said if "legal" in line]
    ['9 9 is not a legal move here. Legal moves: (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)']
    """
    fresh_clock(clock)
    uses_clock = takes_clock(decide) if uses_clock is None else uses_clock
    human = game.players[0] if human is None else human
    if human not in game.players[:2]:
        raise ValueError(f"human must be one of the players {game.players[:2]!r}, not {human!r}")
    state = game.initial
    while not game.is_terminal(state):
        if game.to_move(state) == human:
            say(game.display(state))
            try:
                text = ask(f"Your move as {human} ({how_to_type(game, state)}; q stops): ").strip()
            except (EOFError, KeyboardInterrupt):
                text = "q"
            if text.lower() in ("q", "quit", "stop", "exit"):
                say("Stopped.")
                return state
            action = parse_move(game, state, text)
            if action is None:
                say(illegal_text(game, state, text or "an empty line"))
                continue
        else:
            try:
                move = computer_move(game, state, decide, clock, uses_clock)
            except BadDecision as exc:
                say(f"{exc}. Stopping.")
                return state
            action = move.action
            say(f"The computer plays {action!r} ({move.seconds:.1f} s). {move.note}".strip())
        state = game.result(state, action)
    say(game.display(state))
    u = game.utility(state, human)
    say("You win!" if u > 0 else ("The computer wins." if u < 0 else "Draw."))
    return state


# -- the entry point ------------------------------------------------------------------------------

def play(game: Any, decide: Callable[..., Any], *, clock: float | Clock = 2.0, human: Any = None,
         front: str = "auto", uses_clock: bool | None = None) -> None:
    """Play `game` against `decide` in the best front end available here (see the module's text).

    - `decide(game, state)` or `decide(game, state, clock)` (found from its parameters, or
      set `uses_clock`) returns the computer's move;
    - `clock`: seconds per computer move (default 2), or a `WallClock`/`NodeBudget` copied
      afresh for every move;
    - `human`: the player you are (default: the first player, who moves first);
    - `front`: ``"auto"``, ``"widgets"`` or ``"text"``.
    """
    if os.environ.get("NBGRADER_EXECUTION"):
        print(GRADING_NOTE)
        return
    fresh_clock(clock)
    human = game.players[0] if human is None else human
    if human not in game.players[:2]:
        raise ValueError(f"human must be one of the players {game.players[:2]!r}, not {human!r}")
    chosen, _why = choose_front(front)
    if chosen == "widgets":
        from IPython.display import display
        board = PlayBoard(game, decide, clock=clock, uses_clock=uses_clock,
                          computer_starts=human == game.players[1])
        display(board)
        return
    play_text(game, decide, clock=clock, human=human, uses_clock=uses_clock)
