"""Tree figures drawn with matplotlib from a tree and, when given, from the trace of a search.

`draw_tree` returns a `Drawing`: it shows itself as a static PNG (or SVG) in a notebook
and keeps its matplotlib `figure` and `ax`. No pyplot, no interactive backend and no
graphviz are involved, so it works the same in JupyterLab, Notebook 7, VS Code, Colab,
nbconvert and a terminal. matplotlib is imported only when a figure is drawn.

Every element carries a gid that names it, so a program can check what was drawn:

==============================  =================================================
``node:<label>:<status>``        the marker of a node; status is ``visited``,
                                 ``pruned``, ``unreached``, ``pending`` or ``plain``
``edge:<parent>-><child>:<s>``   an edge; s is ``visited``, ``chosen``, ``cut``
                                 (dashed, marked ×), ``pruned``, ``unreached``,
                                 ``pending`` or ``plain``
``cut:<parent>-><child>``        the × on a cut edge
``label:<label>``                the node label (``P1.0``, ``L.3``)
``leaf:<label>``                 a leaf's own value
``value:<label>``                the value a visited node returned (``7``, ``≥6``)
``order:<label>``                when a leaf was valued (``1`` for the first)
``window:<label>``               ``α=… β=…`` (with ``window=True`` or when stepping)
``current:<label>``              the ring around the node of the current event
``board:<label>``                a tiny board picture
``more``                         the "… N more leaves" note of a cut drawing
==============================  =================================================
"""

from __future__ import annotations

import base64
import html
import io
from dataclasses import dataclass
from typing import Any, Mapping

from .alt_text import MARK_WORDS, grid_alt, tree_alt
from .annotations import (Annotations, TreeShape, first_state, fmt_value, game_shape, search_annotations, tree_shape,
                          visited_ids)
from .games.isolation import IsolationState
from .games.tree import CHANCE, MAX, MIN, TERMINAL, GameTree
from .trace import Traced

# Okabe and Ito's palette: told apart with the common colour-vision deficiencies (protan, deutan, tritan).
# Colour never carries a meaning alone: node kinds have shapes, edges line styles, marks letters.
PALETTE = {"orange": "#E69F00", "sky": "#56B4E9", "green": "#009E73", "yellow": "#F0E442", "blue": "#0072B2",
           "vermilion": "#D55E00", "purple": "#CC79A7", "black": "#000000"}
SERIES = [PALETTE[k] for k in ("blue", "orange", "green", "vermilion", "purple", "sky", "yellow", "black")]
HATCHES = ["", "//", "..", "xx", "\\\\", "oo", "++", "--"]  # bars: a pattern beside each colour
MARKERS = {MAX: "^", MIN: "v", CHANCE: "o", TERMINAL: "s"}
PLAYER_MARKERS = "DphH8*"
FACE = {MAX: "#F5C26B", MIN: "#9FD3F2", CHANCE: "#ffffff", TERMINAL: "#f0f0f0"}  # light orange, light sky
PLAYER_FACES = ("#F5C26B", "#9FD3F2", "#66C2A5", "#F7EE8F", "#E0A8C8", "#bababa")  # P1, P2, ... of max^n
NAMES = {MAX: "MAX ▲", MIN: "MIN ▼", CHANCE: "CHANCE ○", TERMINAL: "terminal □"}
CHOSEN = PALETTE["vermilion"]
FAINT = "#bbbbbb"
MARK_COLOURS = {"X": PALETTE["vermilion"], "O": PALETTE["blue"]}
HALO = {"boxstyle": "square,pad=0.05", "fc": "white", "ec": "none", "alpha": 0.85}


class Picture:
    """A finished matplotlib figure that shows itself as a static PNG (or SVG) in a notebook.

    `figure` and `ax` are the matplotlib objects; elements carry gids (see the module text).
    `alt` is its text alternative, written from the same numbers as the figure.
    """

    def __init__(self, figure: Any, ax: Any, fmt: str = "png", tight: bool = True, alt: str = ""):
        if fmt not in ("png", "svg"):
            raise ValueError(f"fmt must be 'png' or 'svg', not {fmt!r}")
        self.figure, self.ax, self.fmt, self.tight = figure, ax, fmt, tight
        self.alt = alt or f"Figure: {ax.get_title() or 'a picture'}"

    def _repr_png_(self) -> bytes | None:
        return self.image("png") if self.fmt == "png" else None

    def _repr_svg_(self) -> str | None:
        return self.image("svg").decode() if self.fmt == "svg" else None

    def html(self, dpi: int = 100) -> str:
        """An ``<img>`` with the picture inline and its `alt` text, which every front end puts in its page."""
        data = self.image(self.fmt, dpi=dpi)
        mime = "image/png" if self.fmt == "png" else "image/svg+xml"
        return (f'<img src="data:{mime};base64,{base64.b64encode(data).decode()}" '
                f'alt="{html.escape(self.alt)}" style="max-width:100%">')

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> tuple[dict, dict]:
        """The picture, an HTML ``<img alt=...>`` of it and the alt text as plain text.

        JupyterLab 4 and Notebook 7 show the HTML (their image renderer drops `alt` from the
        metadata), as do VS Code and Colab; nbconvert reads `alt` from the image's metadata.
        """
        data = self.image(self.fmt)
        mime = "image/png" if self.fmt == "png" else "image/svg+xml"
        encoded = base64.b64encode(data).decode()
        bundle = {mime: data if self.fmt == "png" else data.decode(),
                  "text/html": f'<img src="data:{mime};base64,{encoded}" alt="{html.escape(self.alt)}">',
                  "text/plain": self.alt}
        return bundle, {mime: {"alt": self.alt}}

    def image(self, fmt: str = "png", dpi: int = 100) -> bytes:
        """The figure as PNG or SVG bytes."""
        buf = io.BytesIO()
        self.figure.savefig(buf, format=fmt, dpi=dpi, bbox_inches="tight" if self.tight else None)
        return buf.getvalue()

    def savefig(self, path: Any, **kwargs: Any) -> None:
        """Save the figure (`matplotlib.figure.Figure.savefig` arguments)."""
        if self.tight:
            kwargs.setdefault("bbox_inches", "tight")
        self.figure.savefig(path, **kwargs)

    def gids(self, prefix: str = "") -> list[str]:
        """Gids of the drawn elements that start with `prefix`, in drawing order."""
        return [a.get_gid() for a in self.ax.get_children() if (a.get_gid() or "").startswith(prefix)]

    def find(self, gid: str) -> Any:
        """The element with this gid, or None."""
        for a in self.ax.get_children():
            if a.get_gid() == gid:
                return a
        return None

    def texts(self, kind: str) -> dict[str, str]:
        """``{name: text}`` of the texts whose gid is ``kind:name`` (``value``, ``leaf``, ``order``...)."""
        out = {}
        for a in self.ax.texts:
            gid = a.get_gid() or ""
            if gid.startswith(kind + ":"):
                out[gid[len(kind) + 1:]] = a.get_text()
        return out

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {self.ax.get_title() or 'figure'}>"


class Drawing(Picture):
    """A tree figure: a `Picture` that also keeps the `shape` drawn and the `notes` read from the trace."""

    def __init__(self, figure: Any, ax: Any, shape: TreeShape, notes: Annotations | None,
                 positions: dict, hidden_leaves: int, fmt: str = "png", tight: bool = True, alt: str = ""):
        super().__init__(figure, ax, fmt, tight, alt)
        self.shape, self.notes = shape, notes
        self.positions, self.hidden_leaves = positions, hidden_leaves

    def styled(self, status: str) -> list[str]:
        """Labels of the nodes drawn with `status` (``pruned``, ``visited``...), left to right."""
        found = []
        for gid in self.gids("node:"):
            _, label, s = gid.split(":")
            if s == status:
                found.append(label)
        return sorted(found, key=lambda label: self.positions[label])

    def edges(self, style: str) -> list[tuple[str, str]]:
        """``(parent label, child label)`` of the edges drawn with `style`."""
        out = []
        for gid in self.gids("edge:"):
            body, s = gid[5:].rsplit(":", 1)
            if s == style:
                p, c = body.split("->")
                out.append((p, c))
        return out

    def __repr__(self) -> str:
        return f"<Drawing of {len(self.positions)} nodes>"


def draw_board(state: Any, *, title: str | None = None, ax: Any = None, fmt: str = "png") -> Picture:
    """A grid board (TicTacToe, ConnectFour: states with a row-major ``board`` string) as a picture.

    >>> from course_lib.games import TicTacToe
    >>> p = draw_board(TicTacToe().state_from(["X.O", ".X.", "..."]))
    >>> sorted(p.texts("mark").items())[:2]
    [('0,0', 'X'), ('0,2', 'O')]
    """
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle

    grid = _grid(state)
    if grid is None:
        raise TypeError("draw_board needs a state with a row-major `board` string and `cols` (or `heights`)")
    board, cols = grid
    rows = len(board) // cols
    if ax is None:
        figure = Figure(figsize=(0.5 * cols + 0.4, 0.5 * rows + 0.6), layout="constrained")
        ax = figure.add_subplot()
    else:
        figure = ax.figure
    for r in range(rows):
        for c in range(cols):
            ax.add_patch(Rectangle((c, rows - 1 - r), 1, 1, facecolor="white", edgecolor="#444444", gid=f"square:{r},{c}"))
            mark = board[r * cols + c]
            if mark != ".":
                ax.text(c + 0.5, rows - 0.5 - r, mark, ha="center", va="center", fontsize=16, fontweight="bold",
                        color=MARK_COLOURS.get(mark, "black"), gid=f"mark:{r},{c}")
    ax.set_xlim(0, cols)
    ax.set_ylim(0, rows)
    ax.set_aspect("equal")
    ax.set_axis_off()
    if title:
        ax.set_title(title, fontsize=10)
    return Picture(figure, ax, fmt, alt=board_alt(state, title))


def _layout(shape: TreeShape, keep: set) -> dict:
    """x from the leaves' order (evenly spaced), parents centred over their children; y = -depth."""
    pos: dict = {}
    next_x = [0.0]

    def place(n: Any, depth: int) -> float:
        kids = [c for c in shape.children.get(n, []) if c in keep]
        if not kids:
            x = next_x[0]
            next_x[0] += 1
        else:
            xs = [place(c, depth + 1) for c in kids]
            x = (xs[0] + xs[-1]) / 2
        pos[n] = (x, -depth)
        return x

    import sys

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        place(shape.root, 0)
    finally:
        sys.setrecursionlimit(limit)
    return pos


def _kept(shape: TreeShape, max_leaves: int) -> tuple[set, int]:
    """Nodes on the way to the first `max_leaves` leaves, and how many leaves are left out."""
    leaves = shape.leaves()
    if len(leaves) <= max_leaves:
        return set(shape.nodes()), 0
    keep: set = set()
    for leaf in leaves[:max_leaves]:
        n = leaf
        while n not in keep:
            keep.add(n)
            if n == shape.root:
                break
            n = shape.parent[n]
    return keep, len(leaves) - max_leaves


def _grid(state: Any) -> tuple[str, int] | None:
    """``(board, cols)`` of a grid state (a row-major `board` string and `cols` or `heights`), else None.

    >>> from course_lib.games import ConnectFour, RaceTo
    >>> _grid(ConnectFour().initial)[1], _grid(RaceTo().initial)
    (7, None)
    """
    if isinstance(state, IsolationState):  # the pieces of P1 and P2 as X and O, blocked squares as #
        return state.cells("XO"), state.size
    board, cols = getattr(state, "board", None), getattr(state, "cols", None)
    if cols is None and hasattr(state, "heights"):
        cols = len(state.heights)
    if not isinstance(board, str) or not cols:
        return None
    return board, cols


def board_alt(state: Any, title: str | None = None) -> str:
    """The text alternative of `draw_board`'s picture: the board row by row."""
    board, cols = _grid(state) or ("", 1)
    name = {"TicTacToeState": "Tic-Tac-Toe board", "ConnectFourState": "Connect Four board",
            "IsolationState": "Isolation board (X is P1, O is P2)"}.get(type(state).__name__, "Board")
    return (f"{title}. " if title else "") + grid_alt(board, cols, name)


def _board_text(state: Any) -> str | None:
    """A grid state as rows of text (``·`` for an empty square), or None for other states."""
    grid = _grid(state)
    if grid is None:
        return None
    board, cols = grid
    return "\n".join(board[i:i + cols].replace(".", "·") for i in range(0, len(board), cols))


def draw_tree(game: Any, trace: Any = None, *, state: Any = None, depth: int | None = None,
              step: int | None = None, move: Any = None, window: bool = False, values: Mapping | None = None,
              boards: bool | None = None, labels: bool | None = None, max_leaves: int = 100,
              title: str | None = None, ax: Any = None, fmt: str = "png") -> Drawing:
    """Draw a `GameTree`, or any game from `state` down to `depth` plies, styled by `trace`.

    With a trace: visited nodes solid and never-visited ones faint, pruned edges dashed
    with a × where the search cut, returned values (``≥``/``≤`` for bounds), the order
    in which leaves were valued, the best root move highlighted (or `move`, an action at
    the root), and alpha/beta with `window=True`. `step` draws the situation after the
    first `step` events (used by the stepper). Without a trace, `values` may map node ids
    to numbers to write beside them. Trees with more than `max_leaves` leaves are cut
    with a "… N more leaves" note. `boards` draws tiny boards for TicTacToe-like states.

    >>> d = draw_tree(GameTree.from_leaves([3, 5, 2, 9], branching=2))
    >>> d.styled("plain"), d.texts("leaf")["L.2"]
    (['L.0', 'P2.0', 'L.1', 'P1.0', 'L.2', 'P2.1', 'L.3'], '2')
    """
    plain = game.game if isinstance(game, Traced) else game
    if trace is None and isinstance(game, Traced) and len(game.trace):
        trace = game.trace
    if isinstance(plain, GameTree):
        shape = tree_shape(plain, state)
        root = shape.root
    else:
        root = state if state is not None else first_state(plain, trace) if trace is not None else plain.initial
        if depth is None:
            depth = 0 if trace is not None else 2
        seen = visited_ids(plain, trace, root) if trace is not None else ()
        shape = game_shape(plain, root, depth, visited=seen, max_nodes=max(4 * max_leaves, 400))
    notes = search_annotations(plain, trace, root=root, step=step, shape=shape) if trace is not None else None
    if boards is None:
        boards = bool(shape.state) and len(shape.nodes()) <= 40 and _board_text(shape.state[shape.root]) is not None
    keep, hidden = _kept(shape, max_leaves)
    pos = _layout(shape, keep)
    n_leaves = sum(1 for n in keep if not any(c in keep for c in shape.children.get(n, [])))
    if labels is None:
        labels = n_leaves <= 40
    drawing = _render(shape, notes, pos, keep, hidden, n_leaves, move=move, window=window, values=values,
                      boards=boards, labels=labels, title=title, ax=ax, fmt=fmt)
    name = "" if isinstance(plain, GameTree) else repr(plain)
    grid = _grid(root) if name else None
    if grid is not None:
        rows = [grid[0][i:i + grid[1]] for i in range(0, len(grid[0]), grid[1])]
        name += " from the position " + " / ".join(" ".join(MARK_WORDS.get(m, m) for m in row) for row in rows)
    elif name and len(repr(root)) <= 60:
        name += f" from {root!r}"
    drawing.alt = tree_alt(shape, notes, keep=keep, hidden=hidden, name=name, title=title)
    return drawing


EDGE_LINES = {"visited": ("-", "black", 1.4), "plain": ("-", "black", 1.2), "chosen": ("-", CHOSEN, 4.0),
              "cut": ("--", FAINT, 1.2), "pruned": ("--", FAINT, 1.0), "unreached": (":", FAINT, 1.0),
              "pending": ("-", "#dddddd", 1.0)}


@dataclass
class _Scene:
    """What the three drawing passes (edges, nodes, legend) share: the axes, the tree, the notes, the sizes."""

    ax: Any
    shape: TreeShape
    notes: Annotations | None
    pos: dict       # id -> (x, y) in axes units
    keep: set       # the ids drawn
    boards: bool
    fs: int         # font size
    ms: int         # marker size

    def __post_init__(self) -> None:
        self.ids = {n: self.shape.label[n] for n in self.keep}
        players = sorted({k for k in self.shape.kind.values() if k not in MARKERS})
        self.players = players
        self.marker_of = dict(MARKERS, **{p: PLAYER_MARKERS[i % len(PLAYER_MARKERS)] for i, p in enumerate(players)})
        self.face_of = dict(FACE, **{p: PLAYER_FACES[i % len(PLAYER_FACES)] for i, p in enumerate(players)})

    def status(self, n: Any) -> str:
        return "plain" if self.notes is None else self.notes.status(n)


def _chosen(shape: TreeShape, notes: Annotations | None, keep: set, move: Any) -> Any:
    """The root child to highlight: `move` when given, else the best one the search found."""
    chosen = notes.chosen if notes is not None else None
    if move is not None:
        kids = shape.children.get(shape.root, [])
        if isinstance(shape.root, tuple):
            chosen = shape.root + (move,)
        elif isinstance(move, int) and 0 <= move < len(kids):
            chosen = kids[move]
        if chosen not in keep:
            raise ValueError(f"move {move!r} is not an action at the root of this drawing")
    return chosen


def _render(shape: TreeShape, notes: Annotations | None, pos: dict, keep: set, hidden: int, n_leaves: int, *,
            move: Any, window: bool, values: Mapping | None, boards: bool, labels: bool, title: str | None,
            ax: Any, fmt: str) -> Drawing:
    from matplotlib.figure import Figure

    depth = max(-y for _, y in pos.values())
    gap = 2.2 if boards else 1.0
    pos = {n: (x, y * gap) for n, (x, y) in pos.items()}
    own = ax is None
    if own:  # fixed margins, room for the legend on the right: one rendering pass per image
        width = min(max(6.0, 0.5 * n_leaves + 3.0), 26.0)
        height = min(max(3.0, 1.15 * gap * (depth + 1) + 1.2), 20.0)
        figure = Figure(figsize=(width, height))
        ax = figure.add_axes((0.01, 0.01, 1 - 1.9 / width, 0.98 - (0.35 / height if title else 0)))
    else:
        figure = ax.figure
    small = n_leaves > 32
    scene = _Scene(ax, shape, notes, pos, keep, boards, fs=7 if small else 9, ms=8 if small else 14)
    chosen = _chosen(shape, notes, keep, move)
    _draw_edges(scene, chosen)  # first, so that markers sit on top of them
    _draw_nodes(scene, small=small, labels=labels, values=values, window=window)
    xs = [x for x, _ in pos.values()]
    ys = [y for _, y in pos.values()]
    if hidden:
        ax.text(max(xs) + 0.8, min(ys), f"… {hidden} more leaves", fontsize=scene.fs + 1, ha="left", va="center",
                color="#555555", gid="more")
    ax.set_xlim(min(xs) - 1.0, max(xs) + (3.5 if hidden else 1.0))
    ax.set_ylim(min(ys) - (1.6 if boards else 0.9), max(ys) + 0.6)
    ax.set_axis_off()
    _draw_legend(scene, chosen)
    if title:
        ax.set_title(title)
    return Drawing(figure, ax, shape, notes, {scene.ids[n]: pos[n][0] for n in keep}, hidden, fmt, tight=not own)


def _draw_edges(sc: _Scene, chosen: Any) -> None:
    """Every drawn edge styled by its child's status, the × on cut edges, and the action texts."""
    ax, shape, ids, fs, ms = sc.ax, sc.shape, sc.ids, sc.fs, sc.ms
    cuts = set(sc.notes.cut_edges) if sc.notes is not None else set()
    for p in sc.keep:
        for c in shape.children.get(p, []):
            if c not in sc.keep:
                continue
            (x0, y0), (x1, y1) = sc.pos[p], sc.pos[c]
            if (p, c) in cuts:
                style = "cut"
            elif c == chosen and p == shape.root:
                style = "chosen"
            else:
                style = sc.status(c)
            line = EDGE_LINES[style]
            ax.plot([x0, x1], [y0, y1], linestyle=line[0], color=line[1], linewidth=line[2], zorder=1,
                    gid=f"edge:{ids[p]}->{ids[c]}:{style}")
            if style == "cut":
                ax.plot([(x0 + x1) / 2], [(y0 + y1) / 2], marker="x", color="#d7301f", markersize=ms * 0.7,
                        markeredgewidth=2, zorder=3, gid=f"cut:{ids[p]}->{ids[c]}")
            if c in shape.edge_text and (not sc.boards or shape.kind[p] == CHANCE):
                ax.text(0.4 * x0 + 0.6 * x1, 0.4 * y0 + 0.6 * y1, shape.edge_text[c], fontsize=fs - 1, color="#555555",
                        ha="center", va="center", zorder=2, gid=f"action:{ids[c]}",
                        bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.8})


def _draw_nodes(sc: _Scene, *, small: bool, labels: bool, values: Mapping | None, window: bool) -> None:
    """Markers, leaf values, labels, returned values, evaluation order, windows, tiny boards, the current ring."""
    ax, shape, notes, ids, fs, ms = sc.ax, sc.shape, sc.notes, sc.ids, sc.fs, sc.ms
    open_nodes = set(notes.open) if notes is not None else set()
    current = notes.at if notes is not None and notes.step < notes.total_steps else None
    for n in sc.keep:
        x, y = sc.pos[n]
        kind, s = shape.kind[n], sc.status(n)
        faint = s in ("pruned", "unreached", "pending")
        face = "white" if faint else sc.face_of[kind]
        edge = FAINT if faint else "black"
        vector_leaf = kind == TERMINAL and isinstance(shape.value[n], tuple)
        # A vector does not fit in a leaf's square: its text gets a box of its own instead.
        ax.plot([x], [y], marker=sc.marker_of[kind], markersize=ms * (1.15 if kind == TERMINAL else 1.0),
                markerfacecolor=face, markeredgecolor=edge, linestyle="none", zorder=4, gid=f"node:{ids[n]}:{s}",
                alpha=0.0 if vector_leaf else 1.0)
        color = "#999999" if faint else "black"
        if kind == TERMINAL:
            box = {"boxstyle": "square,pad=0.25", "fc": face, "ec": edge, "lw": 1.0} if vector_leaf else None
            ax.text(x, y, fmt_value(shape.value[n]), fontsize=fs - 2 if vector_leaf or small else fs, ha="center",
                    va="center", color=color, zorder=5, gid=f"leaf:{ids[n]}", bbox=box)
        if labels:
            if kind == TERMINAL or not shape.children.get(n):
                ax.text(x, y - 0.3, ids[n], fontsize=fs - 2, ha="center", va="top", color="#777777", zorder=5,
                        gid=f"label:{ids[n]}")
            else:
                ax.text(x - 0.18, y + 0.05, ids[n], fontsize=fs - 1, ha="right", va="bottom", color="#555555",
                        zorder=5, gid=f"label:{ids[n]}", bbox=HALO)
        text = ""
        if notes is not None and s == "visited":
            text = notes.text(n)
        elif values is not None and n in values:
            text = fmt_value(values[n])
        if text and (kind != TERMINAL or text != fmt_value(shape.value[n])):
            ax.text(x + 0.2, y + 0.05, text, fontsize=fs + 1, ha="left", va="bottom", color="#b2182b",
                    fontweight="bold", zorder=5, gid=f"value:{ids[n]}", bbox=HALO)
        if notes is not None and n in notes.order:
            ax.text(x + 0.28, y - 0.18, ",".join(str(k) for k in notes.order[n]), fontsize=fs - 2, ha="center",
                    va="center", color="white", zorder=6, gid=f"order:{ids[n]}",
                    bbox={"boxstyle": "circle,pad=0.15", "fc": "#1b7837", "ec": "none"})
        if notes is not None and kind not in (TERMINAL, CHANCE) and (window or n in open_nodes):
            now = n in open_nodes
            w = notes.window_text(n, now=now)
            if w:
                ax.text(x + 0.2, y - 0.08, w, fontsize=fs - 2, ha="left", va="top", zorder=5,
                        color="#d95f02" if now else "#555555", gid=f"window:{ids[n]}", bbox=HALO)
        if sc.boards and n in shape.state:
            board = _board_text(shape.state[n])
            if board:
                ax.text(x, y - 0.42, board, fontsize=fs - 2, family="monospace", ha="center", va="top",
                        linespacing=1.0, zorder=5, gid=f"board:{ids[n]}", color=color,
                        bbox={"boxstyle": "square,pad=0.2", "fc": "white", "ec": edge, "lw": 0.6})
        if shape.more.get(n):
            ax.text(x, y - 0.45, f"+{shape.more[n]}", fontsize=fs - 2, ha="center", va="top", color="#777777",
                    gid=f"hidden:{ids[n]}")
    if current is not None and current in sc.keep:
        x, y = sc.pos[current]
        ax.plot([x], [y], marker="o", markersize=ms * 1.9, markerfacecolor="none", markeredgecolor=CHOSEN,
                markeredgewidth=2, linestyle="none", zorder=3, gid=f"current:{ids[current]}")


def _draw_legend(sc: _Scene, chosen: Any) -> None:
    """The node kinds drawn and, with a trace, what the edge styles, bounds and order badges mean."""
    from matplotlib.lines import Line2D

    notes, keep = sc.notes, sc.keep
    drawn_kinds = {sc.shape.kind[n] for n in keep}
    handles = [Line2D([], [], marker=sc.marker_of[k], linestyle="none", markerfacecolor=sc.face_of[k],
                      markeredgecolor="black", markersize=9, label=NAMES.get(k, k))
               for k in [MAX, MIN, CHANCE, TERMINAL] + sc.players if k in drawn_kinds]
    if notes is not None:
        handles.append(Line2D([], [], color="black", label="visited"))
        seen = {notes.status(n) for n in keep}
        if "pruned" in seen:
            handles.append(Line2D([], [], color=FAINT, linestyle="--", marker="x", markeredgecolor="#d7301f",
                                  label="never visited (× cut)"))
        if "unreached" in seen:
            handles.append(Line2D([], [], color=FAINT, linestyle=":", label="beyond the horizon"))
        if any(isinstance(notes.value.get(n), tuple) and notes.interval.get(n, ("exact",))[0] == "bound"
               for n in keep):
            handles.append(Line2D([], [], linestyle="none", label="≥ on an entry: a bound"))
        if chosen is not None:
            handles.append(Line2D([], [], color=CHOSEN, linewidth=4, label="chosen move"))
        if notes.order:
            handles.append(Line2D([], [], marker="o", linestyle="none", markerfacecolor="#1b7837",
                                  markeredgecolor="none", label="order valued"))
    legend = sc.ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8, frameon=False)
    legend.set_gid("legend")
