"""Pictures of a Monte Carlo tree search: the tree it grew, how the root's choice settles, a match.

Each function reads what a search really did: the nodes your own ``mcts_search`` returned (any
object with ``children``, ``action``, ``visits`` and ``total``, like the lab's `Node`), or counts
your code recorded. matplotlib is imported only when a picture is drawn.

>>> class N:
...     def __init__(self, action=None, visits=0, total=0, children=()):
...         self.action, self.visits, self.total, self.children = action, visits, total, list(children)
>>> root = N(None, 5, 0, [N(0, 3, 2), N(1, 2, -1, [N(0, 1, 1)])])
>>> [(row.path, row.visits, row.total) for row in tree_rows(root)]
[((), 5, 0), ((0,), 3, 2), ((1,), 2, -1), ((1, 0), 1, 1)]
>>> sorted(draw_search_tree(root).texts("node").items())[:2]
[('', 'n=5'), ('0', 'n=3\\nv=+0.67')]
"""

from __future__ import annotations

from typing import Any, Mapping, NamedTuple, Sequence

from .draw import HATCHES, PALETTE, SERIES, Picture, board_alt, draw_board


class Row(NamedTuple):
    """One node of a grown tree: the actions leading to it, its visits and total, its depth."""

    path: tuple
    visits: int
    total: float
    depth: int


def tree_rows(root: Any, depth: int = 3, min_visits: int = 1) -> list[Row]:
    """The nodes of `root`'s tree down to `depth`, in depth-first order, skipping nodes with fewer than
    `min_visits` visits (the root is always kept)."""
    rows: list[Row] = []

    def walk(node: Any, path: tuple) -> None:
        rows.append(Row(path, node.visits, node.total, len(path)))
        if len(path) >= depth:
            return
        for child in node.children:
            if child.visits >= min_visits:
                walk(child, path + (child.action,))

    walk(root, ())
    return rows


def _text(action: Any) -> str:
    return "(" + ",".join(str(x) for x in action) + ")" if isinstance(action, tuple) else str(action)


def _name(path: tuple) -> str:
    return "/".join(_text(a) for a in path)


def draw_search_tree(root: Any, *, depth: int = 3, min_visits: int = 1, chosen: Any = None,
                     title: str | None = None, fmt: str = "png") -> Picture:
    """The tree a search grew: each node with its visits ``n`` and mean reward ``v`` = total / visits (for the
    player who moved into it); the edge of the root's action `chosen` (a decision) drawn thick."""
    from matplotlib.figure import Figure

    rows = tree_rows(root, depth, min_visits)
    leaves = [r for i, r in enumerate(rows) if i + 1 == len(rows) or rows[i + 1].depth <= r.depth]
    xs: dict[tuple, float] = {r.path: float(i) for i, r in enumerate(leaves)}
    for r in sorted(rows, key=lambda r: -r.depth):
        if r.path not in xs:
            kids = [xs[q.path] for q in rows if q.depth == r.depth + 1 and q.path[:-1] == r.path]
            xs[r.path] = sum(kids) / len(kids)
    levels = max(r.depth for r in rows) + 1
    figure = Figure(figsize=(max(4.0, 1.05 * len(leaves) + 1), 1.3 * levels + 0.6), layout="constrained")
    ax = figure.add_subplot()
    for r in rows:
        if r.path:
            parent = r.path[:-1]
            thick = len(r.path) == 1 and r.path[0] == chosen
            ax.plot([xs[parent], xs[r.path]], [-(r.depth - 1), -r.depth], color="#333333" if thick else "#999999",
                    lw=3 if thick else 1, zorder=1, gid=f"edge:{_name(r.path)}")
            ax.text((xs[parent] + xs[r.path]) / 2, -(r.depth - 0.5), _text(r.path[-1]), fontsize=8, ha="center",
                    va="center", color="#555555", backgroundcolor="white", gid=f"action:{_name(r.path)}")
    for r in rows:
        label = f"n={r.visits}" if not r.path else f"n={r.visits}\nv={r.total / max(r.visits, 1):+.2f}"
        mean = 0.0 if not r.path or not r.visits else r.total / r.visits
        colour = "#f7f7f7" if not r.path else ("#CFE8F7" if mean > 0 else "#FBE3C2" if mean < 0 else "#eeeeee")
        ax.text(xs[r.path], -r.depth, label, ha="center", va="center", fontsize=8, zorder=2, gid=f"node:{_name(r.path)}",
                bbox={"boxstyle": "round,pad=0.3", "facecolor": colour, "edgecolor": "#555555"})
    ax.set_xlim(-0.7, len(leaves) - 0.3)
    ax.set_ylim(-(levels - 1) - 0.5, 0.5)
    ax.set_axis_off()
    ax.set_title(title or f"the tree after {root.visits} iterations (n = visits, v = mean reward for the mover)",
                 fontsize=10)
    kids = [r for r in rows if r.depth == 1]
    alt = (f"Search tree after {root.visits} iterations, {len(rows)} nodes drawn to depth {levels - 1}. Root's moves: "
           + "; ".join(f"{_text(r.path[0])}: {r.visits} visits, mean reward {r.total / max(r.visits, 1):+.2f}"
                       + (" (chosen)" if r.path[0] == chosen and chosen is not None else "") for r in kids) + ".")
    return Picture(figure, ax, fmt, alt=(f"{title}. " if title else "") + alt)


def root_choice_chart(history: Mapping[int, Sequence[tuple[Any, int]]], *, title: str | None = None,
                      fmt: str = "png") -> Picture:
    """For each iteration count N, the share of the root's visits each action had after N iterations
    (`history[N]` = [(action, visits), ...]); the most visited action at each N is marked.

    >>> p = root_choice_chart({10: [("a", 6), ("b", 4)], 20: [("a", 8), ("b", 12)]})
    >>> p.gids("choice")
    ['choice:10', 'choice:20']
    """
    from matplotlib.figure import Figure

    ns = sorted(history)
    actions: list = []
    for n in ns:
        for a, _ in history[n]:
            if a not in actions:
                actions.append(a)
    figure = Figure(figsize=(6.4, 3.4), layout="constrained")
    ax = figure.add_subplot()
    for a in actions:
        shares = []
        for n in ns:
            total = sum(v for _, v in history[n]) or 1
            shares.append(dict(history[n]).get(a, 0) / total)
        k = actions.index(a)
        ax.plot(ns, shares, marker="osD^v<>ph"[k % 9], ms=3, color=SERIES[k % len(SERIES)],
                linestyle=["-", "--", "-.", ":"][k % 4], label=_text(a), gid=f"share:{_text(a)}")
    for n in ns:
        pairs = list(history[n])
        if pairs:
            best = max(range(len(pairs)), key=lambda i: (pairs[i][1], -i))
            total = sum(v for _, v in pairs) or 1
            ax.plot([n], [pairs[best][1] / total], marker="*", ms=11, color="black", zorder=3, gid=f"choice:{n}")
    ax.set_xscale("log")
    ax.set_xlabel("iterations")
    ax.set_ylabel("share of the root's visits")
    ax.set_ylim(0, 1.02)
    ax.legend(title="root action", fontsize=8, title_fontsize=8, loc="upper left", ncol=2)
    ax.set_title(title or "how the root's choice settles (star: the most visited action)", fontsize=10)
    said = []
    for n in ns:
        pairs = list(history[n])
        total = sum(v for _, v in pairs) or 1
        if pairs:
            best = max(range(len(pairs)), key=lambda i: (pairs[i][1], -i))
            said.append(f"after {n}: {_text(pairs[best][0])} with {100 * pairs[best][1] / total:.0f}%")
    alt = "Line chart of the share of the root's visits per action; most visited action " + "; ".join(said) + "."
    return Picture(figure, ax, fmt, alt=(f"{title}. " if title else "") + alt)


def match_picture(final_state: Any, moves: Sequence[tuple], *, title: str | None = None,
                  fmt: str = "png") -> Picture:
    """A finished match: the final board, and the states each player generated for each of its moves.

    `moves` = [(player name, action, states generated[, note]), ...] in the order played; a note (for
    example how deep a search got) is written on the move's bar.

    >>> from course_lib.games import ConnectFour
    >>> c4 = ConnectFour()
    >>> p = match_picture(c4.play([3, 3]), [("A", 3, 10, "it=2"), ("B", 3, 12, "d=1")])
    >>> p.gids("moves"), sorted(p.texts("note").values())
    (['moves:A', 'moves:B'], ['d=1', 'it=2'])
    """
    from matplotlib.figure import Figure

    figure = Figure(figsize=(9.0, 3.4), layout="constrained")
    board_ax, ax = figure.subplots(1, 2, width_ratios=[1, 1.6])
    draw_board(final_state, ax=board_ax, title="final position")
    names = list(dict.fromkeys(m[0] for m in moves))
    colours = [PALETTE["vermilion"], PALETTE["blue"], PALETTE["green"]]
    for k, name in enumerate(names):
        xs = [i + 1 for i, m in enumerate(moves) if m[0] == name]
        ys = [m[2] for m in moves if m[0] == name]
        ax.bar(xs, ys, color=colours[k % 3], hatch=HATCHES[k % 3], edgecolor="black", label=name,
               gid=f"moves:{name}")
    for i, m in enumerate(moves):
        if len(m) > 3 and m[3] is not None:
            ax.text(i + 1, m[2] / 2, str(m[3]), rotation=90, ha="center", va="center", fontsize=8, color="white",
                    bbox={"boxstyle": "round,pad=0.15", "fc": "#333333", "ec": "none"},
                    gid=f"note:{i + 1}")
    ax.set_xlabel("move number")
    ax.set_ylabel("states generated for the move")
    ax.set_ylim(0, 1.3 * max([m[2] for m in moves] + [1]))
    ax.legend(fontsize=8, loc="upper left", ncol=2)
    ax.set_title(title or "states generated per move", fontsize=10)
    played = "; ".join(f"move {i + 1} by {m[0]}: {m[1]!r}, {m[2]} states" + (f" ({m[3]})" if len(m) > 3 and m[3] else "")
                       for i, m in enumerate(moves))
    alt = f"A finished match. {board_alt(final_state, 'Final position')} Moves: {played}."
    return Picture(figure, ax, fmt, alt=(f"{title}. " if title else "") + alt)
