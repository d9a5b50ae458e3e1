"""Optional interactive tools: a stepper through a search trace and a board to play against a decision function.

Neither is needed to pass a lab and neither belongs in a graded cell. Both use
ipywidgets 7 or 8 (imported when one is built) and show themselves as widgets in
JupyterLab, Notebook, VS Code and Google Colab (where Colab's widget manager is switched
on for them). Where widgets cannot render (nbconvert, a viewer without a widget manager)
the same output carries a static picture with a one-line note instead, and where
ipywidgets is missing or fails the picture comes alone, its note saying why. Their parts
are attributes (`slider`, `squares`, `message`...), so they can be driven from code and
tested without a browser. `play_in_terminal` is the plain-text version of the board for
a terminal.
"""

from __future__ import annotations

import base64
import html
import os
import sys
from typing import Any, Callable, Sequence

from .annotations import action_text, search_annotations
from .draw import Drawing, Picture, draw_board, draw_tree
from .trace import Traced

STATIC_NOTE = "static picture: this viewer cannot run widgets (open the notebook in JupyterLab to interact)"
NO_IPYWIDGETS = "static picture: ipywidgets is not installed here (pip install ipywidgets, then rerun the cell)"
VIEW_MIME = "application/vnd.jupyter.widget-view+json"


def _ipywidgets() -> tuple[Any, str]:
    """The ipywidgets module (None when it cannot be used) and, when None, the one-line reason."""
    try:
        import ipywidgets
    except ImportError:
        return None, NO_IPYWIDGETS
    major = str(getattr(ipywidgets, "__version__", "0")).split(".")[0]
    if major not in ("7", "8"):
        return None, f"static picture: ipywidgets {ipywidgets.__version__} is not supported here (7 or 8 is)"
    _colab_widget_manager()
    return ipywidgets, ""


def _colab_widget_manager() -> None:
    """On Google Colab, switch on its widget manager so ipywidgets render; elsewhere do nothing."""
    if "google.colab" not in sys.modules:
        return
    try:
        from google.colab import output
        output.enable_custom_widget_manager()
    except (ImportError, AttributeError):  # an older Colab: its own manager renders ipywidgets 7
        pass


def live(inner_html: str) -> str:
    """`inner_html` in a polite live region, so that a screen reader says it when it changes.

    ipywidgets 7 and 8 have no attribute for ARIA roles, so the region travels in the HTML
    widget's value; both versions put that value into the page as it is.

    >>> live("<b>Your move.</b>")
    '<div role="status" aria-live="polite" aria-atomic="true"><b>Your move.</b></div>'
    """
    return f'<div role="status" aria-live="polite" aria-atomic="true">{inner_html}</div>'


def _broken(exc: Exception) -> str:
    """The one-line note for widgets that failed to build."""
    return f"static picture: the widgets could not be built here ({type(exc).__name__}: {exc})"


def widget_view(box: Any) -> dict:
    """The widget-view part of a display bundle, the same for ipywidgets 7 and 8 (empty for a closed widget).

    ipywidgets 8 widgets have `_repr_mimebundle_`; ipywidgets 7 widgets display through
    `_ipython_display_`, which cannot be combined with a static picture, so the view is
    written out here as both versions write it.
    """
    if box is None or getattr(box, "_view_name", None) is None or getattr(box, "comm", True) is None:
        return {}
    if hasattr(box, "_repr_mimebundle_"):
        bundle = box._repr_mimebundle_() or {}
        bundle = bundle[0] if isinstance(bundle, tuple) else bundle
        return {k: v for k, v in bundle.items() if k == VIEW_MIME}
    return {VIEW_MIME: {"version_major": 2, "version_minor": 0, "model_id": box.model_id}}


def _bundle(box: Any, picture: Picture | None, text: str) -> tuple[dict, dict]:
    """A widget view with a static PNG (also as an ``<img alt=...>``, and its alt in the metadata, where
    nbconvert reads it) and a text note for viewers without a widget manager: (data, metadata)."""
    data: dict = widget_view(box)
    metadata: dict = {}
    if picture is not None:
        png = picture.image("png")
        data["image/png"] = png
        data["text/html"] = (f'<img src="data:image/png;base64,{base64.b64encode(png).decode()}" '
                             f'alt="{html.escape(picture.alt)}">')
        metadata["image/png"] = {"alt": picture.alt}
    data["text/plain"] = text
    return data, metadata


# -- stepping through a trace ----------------------------------------------------------

def _describe(event: Any, label: str) -> str:
    if event is None:
        return "before the search starts"
    if event.kind == "generate":
        return f"generate {label} (action {action_text(event.action)} from the parent)"
    if event.kind in ("utility", "evaluate"):
        return f"{event.kind} of {label} = {event.value!r}"
    if event.kind == "terminal_test":
        return f"terminal test of {label}: {event.value}"
    return f"{event.kind} {label}"


class TraceStepper:
    """Previous / next / a stop number through the events of a trace, redrawing the tree at each stop.

    The drawing shows the nodes visited so far, the values known so far (``≥``/``≤``
    while a node is still open), the current alpha and beta at every open node and the
    parts already pruned. `kinds` chooses which events are stops (every generated node
    and every value taken, by default). Parts: `slider` (the stop number: a box that takes
    a typed number or the arrow keys), `prev`, `next`, `caption` (the stop's line, in a live region that a
    screen reader says at each step), `image` (the picture as an
    ``<img>`` with its alt text), `box` (the whole widget) and `drawing` (the current `Drawing`).
    Everything works from the keyboard: Tab to a button and press Enter or Space. `interval`
    is accepted and ignored (there is no play button: its icons have no name a screen reader reads).

    >>> from course_lib.games import GameTree
    >>> game = Traced(GameTree.from_leaves([3, 5], branching=2))
    >>> _ = [game.utility(game.result(game.initial, a), "MAX") for a in game.actions(game.initial)]
    >>> stepper = TraceStepper(game)
    >>> stepper.stops, stepper.drawing.notes.step
    ([0, 2, 3, 4, 5], 0)
    """

    def __init__(self, game: Any, trace: Any = None, *, root: Any = None,
                 kinds: Sequence[str] = ("generate", "utility", "evaluate"), interval: int = 800,
                 **draw_options: Any):
        if trace is None:
            if not isinstance(game, Traced):
                raise ValueError("give the trace, or a Traced game whose search has run")
            trace = game.trace
        self.game, self.trace, self.root = game, trace, root
        self.options = dict(draw_options, window=draw_options.get("window", False))
        events = trace.events()
        self.events = events
        self.stops = [0] + [i + 1 for i, e in enumerate(events) if e.kind in kinds]
        self.drawing: Drawing = self._draw(0)
        self.box = None
        w, self.why = _ipywidgets()
        if w is not None:
            try:
                self._build(w, interval)
            except Exception as exc:  # a broken widget install: fall back to the picture, say why
                self.box, self.why = None, _broken(exc)
        self.available = self.box is not None

    def _build(self, w: Any, interval: int) -> None:
        last = len(self.stops) - 1
        # A number box rather than a slider and a play button: their handles and icon buttons have no name a
        # screen reader can read, and a box takes a typed stop, the arrow keys, or the two buttons beside it.
        self.slider = w.BoundedIntText(value=0, min=0, max=last, description=f"stop (0 to {last})",
                                       continuous_update=True, style={"description_width": "initial"},
                                       layout=w.Layout(width="220px"))
        self.prev = w.Button(description="◀ previous", layout=w.Layout(width="110px"))
        self.next = w.Button(description="next ▶", layout=w.Layout(width="110px"))
        self.caption = w.HTML()  # a live region: a screen reader says the new stop's line at each step
        self.image = w.HTML()  # an <img> with its alt text: ipywidgets' Image has no alt
        self.prev.on_click(lambda _: self.go(self.slider.value - 1))
        self.next.on_click(lambda _: self.go(self.slider.value + 1))
        self.slider.observe(lambda change: self._show(change["new"]), names="value")
        self._show(0)
        self.box = w.VBox([w.HBox([self.prev, self.next, self.slider]), self.caption, self.image])

    def _draw(self, index: int, title: str | None = None) -> Drawing:
        step = self.stops[index]
        return draw_tree(self.game, self.trace, state=self.root, step=step, title=title, **self.options)

    def _show(self, index: int) -> None:
        self.drawing = self._draw(index)
        self.image.value = self.drawing.html(dpi=80)
        self.caption.value = live(html.escape(self.describe(index), quote=False))

    def describe(self, index: int | None = None) -> str:
        """One line about a stop: its number, the event and the open nodes' windows."""
        index = self.slider.value if index is None and self.box is not None else (index or 0)
        notes = self.drawing.notes
        if notes is not None and notes.step != self.stops[index]:  # a stop other than the one shown
            notes = search_annotations(self.game, self.trace, root=self.root, step=self.stops[index],
                                       shape=self.drawing.shape)
        label = self.drawing.shape.label.get(notes.at, str(notes.at)) if notes and notes.at is not None else ""
        text = f"stop {index} of {len(self.stops) - 1} (event {self.stops[index]} of {len(self.events)}): "
        text += _describe(notes.event if notes and self.stops[index] else None, label)
        return text

    def go(self, index: int) -> None:
        """Move to stop `index` (clamped to the first and last stops)."""
        index = max(0, min(index, len(self.stops) - 1))
        if self.box is None:
            self.drawing = self._draw(index)
        else:
            self.slider.value = index

    def static_note(self) -> str:
        """The one line shown with the static picture: why it is static."""
        return STATIC_NOTE if self.box is not None else self.why

    def static(self) -> Drawing:
        """The final picture with the one-line note, for viewers that cannot run widgets."""
        return self._draw(len(self.stops) - 1, title=self.static_note())

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> tuple[dict, dict]:
        return _bundle(self.box, self.static(), self.static_note())


# -- playing against a decision function -------------------------------------------------

def _layout_kind(game: Any, state: Any) -> str:
    if hasattr(state, "heights") and isinstance(getattr(state, "board", None), str):
        return "columns"
    if isinstance(getattr(state, "board", None), str) and hasattr(state, "cols"):
        return "grid"
    return "list"


def _result_text(game: Any, state: Any, human: Any) -> str:
    u = game.utility(state, human)
    return "You win!" if u > 0 else ("The computer wins." if u < 0 else "Draw.")


class GameBoard:
    """Play a game against `decide(game, state) -> action`, for instance your own alpha-beta player.

    TicTacToe-like games get one button per square, ConnectFour-like games one per
    column (any cell of a column plays it), other games one button per legal action.
    Clicks that are not legal are ignored with a note in `message` (a live region: a screen reader says each
    move and the result). Parts: `squares`
    (``{action: Button}``), `new_game`, `computer_starts`, `message`, `box`; the game
    so far is in `state` and `history`.
    """

    def __init__(self, game: Any, decide: Callable[[Any, Any], Any], *, computer_starts: bool = False):
        self.game, self.decide = game, decide
        self.kind = _layout_kind(game, game.initial)
        self.squares: dict = {}
        self.box = None
        w, self.why = _ipywidgets()
        if w is not None:
            try:
                self._build(w)
            except Exception as exc:  # a broken widget install: fall back to the picture, say why
                self.box, self.why = None, _broken(exc)
        if self.box is None:
            self.why += "; to play, use play_in_terminal(game, decide)"
        self.start(computer_first=computer_starts)

    def _build(self, w: Any) -> None:
        self._w = w
        self.message = w.HTML()  # a live region: a screen reader says each move and result
        self.new_game = w.Button(description="new game", button_style="info")
        self.computer_starts = w.Button(description="computer starts")
        self.new_game.on_click(lambda _: self.start(computer_first=False))
        self.computer_starts.on_click(lambda _: self.start(computer_first=True))
        self.board_box = w.VBox()
        self.box = w.VBox([self.board_box, self.message, w.HBox([self.new_game, self.computer_starts])])

    # the game ---------------------------------------------------------------------------

    def start(self, computer_first: bool = False) -> None:
        """A new game; the computer moves first when `computer_first`."""
        self.state = self.game.initial
        self.history: list = []
        first, second = self.game.players[:2]
        self.human = second if computer_first else first
        self.note = ""
        if computer_first:
            self._computer()
        self._refresh()

    def over(self) -> bool:
        """True when the game has ended."""
        return self.game.is_terminal(self.state)

    def click(self, action: Any) -> None:
        """What a click on the button of `action` does: play it if legal, then let the computer reply."""
        if self.over():
            self.note = "The game is over: press “new game” to play again."
        elif self.game.to_move(self.state) != self.human:
            self.note = "It is the computer's turn."
        elif action not in self.game.actions(self.state):
            self.note = {"grid": "That square is taken: choose an empty one.",
                         "columns": "That column is full: choose another one."}.get(
                self.kind, f"{action!r} is not a legal move here.")
        else:
            self.note = ""
            self._play(action, self.human)
            if not self.over():
                self._computer()
        self._refresh()

    def _play(self, action: Any, who: Any) -> None:
        self.state = self.game.result(self.state, action)
        self.history.append((who, action))

    def _computer(self) -> None:
        while not self.over() and self.game.to_move(self.state) != self.human:
            try:
                action = self.decide(self.game, self.state)
            except Exception as exc:  # the student's function: report, do not crash the board
                self.note = f"decide(game, state) raised {type(exc).__name__}: {exc}"
                return
            legal = self.game.actions(self.state)
            if action not in legal:
                self.note = f"decide(game, state) returned {action!r}, which is not legal here; legal: {legal!r}"
                return
            self._play(action, self.game.to_move(self.state))

    # drawing -------------------------------------------------------------------------------

    def status(self) -> str:
        """The result, or whose turn it is, followed by the last note."""
        if self.over():
            text = _result_text(self.game, self.state, self.human)
        else:
            text = f"You play {self.human}. Your move." if self.game.to_move(self.state) == self.human else \
                "The computer's move."
        return f"{text} {self.note}".strip()

    def _refresh(self) -> None:
        if self.box is None:
            return
        w = self._w
        words = {"X": "X", "O": "O", ".": "empty"}
        if self.kind == "grid":
            cols = self.state.cols
            board = self.state.board
            self._squares(w, [[((r, c), "" if board[r * cols + c] == "." else board[r * cols + c],
                                f"row {r}, column {c}: {words.get(board[r * cols + c], board[r * cols + c])}", "",
                                (r, c)) for c in range(cols)] for r in range(len(board) // cols)])
        elif self.kind == "columns":
            cols = len(self.state.heights)
            board = self.state.board
            tops = [(c, f"↓{c}", f"drop in column {c}", "", c) for c in range(cols)]
            self._squares(w, [tops] + [[(None, "" if board[r * cols + c] == "." else board[r * cols + c],
                                         f"column {c}, row {r}: {words.get(board[r * cols + c], board[r * cols + c])}",
                                         "danger" if board[r * cols + c] == "X" else
                                         ("primary" if board[r * cols + c] == "O" else ""), c)
                                        for c in range(cols)] for r in range(len(board) // cols)])
        else:
            rows: list = [w.HTML("<pre>" + _escape(self.game.display(self.state)) + "</pre>")]
            self.squares = {}
            buttons = []
            for a in self.game.actions(self.state):
                b = w.Button(description=str(a))
                b.on_click(lambda _, a=a: self.click(a))
                self.squares[a] = b
                buttons.append(b)
            rows.append(w.HBox(buttons))
            old = self.board_box.children
            self.board_box.children = rows
            self._shape = None
            _close(old)
        self.message.value = live(f"<b>{_escape(self.status())}</b>")

    def _squares(self, w: Any, specs: list[list[tuple]]) -> None:
        """Rows of buttons from ``(key, text, tooltip, style, action)``; a board of the same layout is changed in
        place, so that keyboard focus stays on the square just played (Tab to a square, Enter or Space plays it)."""
        shape = [[spec[0] for spec in row] for row in specs]
        if shape == getattr(self, "_shape", None) and self.board_box.children:
            for row_specs, row_box in zip(specs, self.board_box.children):
                for (_, text, tip, style, _), b in zip(row_specs, row_box.children):
                    b.description, b.tooltip, b.button_style = text, tip, style
            return
        size = w.Layout(width="46px", height="46px")
        rows, self.squares = [], {}
        for row_specs in specs:
            row = []
            for key, text, tip, style, action in row_specs:
                b = w.Button(description=text, tooltip=tip, button_style=style, layout=size)
                b.on_click(lambda _, a=action: self.click(a))
                if key is not None:
                    self.squares[key] = b
                row.append(b)
            rows.append(w.HBox(row))
        old = self.board_box.children
        self.board_box.children = rows
        self._shape = shape
        _close(old)

    def static_note(self) -> str:
        """The one line shown with the static board: why it is static."""
        return STATIC_NOTE if self.box is not None else self.why

    def static(self) -> Picture | None:
        """The board as a picture with the one-line note (grid games), for viewers that cannot run widgets."""
        if self.kind == "list":
            return None
        return draw_board(self.state, title=self.static_note().replace("static picture", "static board"))

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> tuple[dict, dict]:
        text = f"{self.game.display(self.state)}\n{self.static_note()}"
        return _bundle(self.box, self.static(), text)


def _close(widgets: Sequence[Any]) -> None:
    """Close replaced widgets (and the widgets inside them) so their comms do not pile up."""
    for widget in widgets:
        _close(getattr(widget, "children", ()))
        widget.close()


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# -- the terminal version ---------------------------------------------------------------

def parse_move(game: Any, state: Any, text: str) -> Any:
    """The legal action meant by `text` (``"1 1"`` or ``"1,1"`` for a square, ``"3"`` for a column), or None.

    >>> from course_lib.games import TicTacToe
    >>> parse_move(TicTacToe(), TicTacToe().initial, "1, 2"), parse_move(TicTacToe(), TicTacToe().initial, "9 9")
    ((1, 2), None)
    """
    legal = game.actions(state)
    words = text.replace(",", " ").replace("(", " ").replace(")", " ").split()
    numbers = [int(x) for x in words if x.lstrip("-").isdigit()]
    if numbers and len(numbers) == len(words):
        guess: Any = numbers[0] if len(numbers) == 1 else tuple(numbers)
        return guess if guess in legal else None
    for a in legal:
        if str(a) == text.strip():
            return a
    return None


def play_in_terminal(game: Any, decide: Callable[[Any, Any], Any], *, computer_starts: bool = False,
                     ask: Callable[[str], str] = input, say: Callable[[str], Any] = print) -> Any:
    """Play `game` in a terminal against `decide(game, state)`; type ``q`` to stop. Returns the last state.

    It reads moves with `input()`, so it must never run in a graded cell: under nbgrader
    (``NBGRADER_EXECUTION`` set) it returns at once without asking anything.
    """
    if os.environ.get("NBGRADER_EXECUTION"):
        say("play_in_terminal needs a person at the keyboard; skipped while grading.")
        return None
    state = game.initial
    first, second = game.players[:2]
    human = second if computer_starts else first
    while not game.is_terminal(state):
        say(game.display(state))
        if game.to_move(state) == human:
            text = ask(f"your move as {human} (q to quit): ").strip()
            if text.lower() in ("q", "quit", "exit"):
                say("Stopped.")
                return state
            action = parse_move(game, state, text)
            if action is None:
                say(f"{text!r} is not a legal move; legal moves: {game.actions(state)!r}")
                continue
        else:
            action = decide(game, state)
            if action not in game.actions(state):
                say(f"decide(game, state) returned {action!r}, which is not legal here; stopping.")
                return state
            say(f"the computer plays {action!r}")
        state = game.result(state, action)
    say(game.display(state))
    say(_result_text(game, state, human))
    return state
