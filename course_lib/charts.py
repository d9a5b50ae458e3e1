"""Charts of measured numbers: nodes per depth, move orderings compared, tournament results.

Each function takes plain numbers (what your own searches counted) and returns a
`course_lib.draw.Picture`, a static image in a notebook. matplotlib is imported only
when a chart is drawn.
"""

from __future__ import annotations

import textwrap
from typing import Any, Mapping, Sequence

from .alt_text import series_alt
from .draw import HATCHES, SERIES, Picture

Series = Sequence[float] | Mapping[int, float]
LINESTYLES = ["-", "--", "-.", ":"]


def _axes(ax: Any, size: tuple[float, float]) -> tuple[Any, Any]:
    if ax is not None:
        return ax.figure, ax
    from matplotlib.figure import Figure

    figure = Figure(figsize=size, layout="constrained")
    return figure, figure.add_subplot()


def _points(series: Series, depths: Sequence[int] | None) -> tuple[list, list]:
    if isinstance(series, Mapping):
        pairs = sorted(series.items())
        return [d for d, _ in pairs], [v for _, v in pairs]
    xs = list(depths) if depths is not None else list(range(1, len(series) + 1))
    if len(xs) != len(series):
        raise ValueError(f"{len(series)} counts for {len(xs)} depths")
    return xs, list(series)


def nodes_by_depth(results: Mapping[str, Series], depths: Sequence[int] | None = None, *,
                   ylabel: str = "nodes visited", title: str | None = None, ax: Any = None) -> Picture:
    """Nodes visited (or any count) against search depth, one line per search, on a log scale.

    `results` maps a search's name to its counts: a list (for `depths`, by default
    1, 2, ...) or a ``{depth: count}`` mapping. Each line has the gid ``line:<name>``.

    >>> p = nodes_by_depth({"minimax": [9, 72, 504], "alpha-beta": {1: 9, 2: 41, 3: 150}})
    >>> p.ax.get_yscale(), p.gids("line:")
    ('log', ['line:minimax', 'line:alpha-beta'])
    """
    figure, ax = _axes(ax, (6.0, 4.0))
    markers = "osD^v<>ph*"
    for i, (name, series) in enumerate(results.items()):
        xs, ys = _points(series, depths)
        if any(y <= 0 for y in ys):
            raise ValueError(f"{name}: counts must be positive on a log scale, got {ys}")
        ax.plot(xs, ys, marker=markers[i % len(markers)], color=SERIES[i % len(SERIES)],
                linestyle=LINESTYLES[i % len(LINESTYLES)], label=name, gid=f"line:{name}")
    ax.set_yscale("log")
    ax.set_xlabel("depth (plies)")
    ax.set_ylabel(ylabel + " (log scale)")
    ax.grid(True, which="major", alpha=0.3)
    all_x = sorted({x for s in results.values() for x in _points(s, depths)[0]})
    ax.set_xticks(all_x)
    ax.legend()
    if title:
        ax.set_title(title)
    alt = series_alt("Line chart (log scale)", {name: list(zip(*_points(series, depths))) for name, series
                                                in results.items()}, "depth", ylabel)
    return Picture(figure, ax, alt=(f"{title}. " if title else "") + alt)


def ordering_bars(counts: Mapping[str, float] | Mapping[str, Mapping[str, float]], *, baseline: str | None = None,
                  log: bool = False, ylabel: str = "nodes visited", title: str | None = None, ax: Any = None) -> Picture:
    """Bars comparing move orderings: ``{ordering: count}``, or ``{position: {ordering: count}}`` for groups.

    Each bar is written with its count and, when `baseline` names one ordering, the
    percentage of the baseline's count; `log` puts the counts on a log scale. Bars have gids ``bar:<ordering>`` (or
    ``bar:<position>:<ordering>``) and their texts ``count:...``.

    >>> p = ordering_bars({"row-major": 18297, "centre first": 7300}, baseline="row-major")
    >>> p.texts("count")
    {'row-major': '18,297', 'centre first': '7,300 (40%)'}
    """
    figure, ax = _axes(ax, (6.0, 4.0))
    groups: dict[str, Mapping[str, float]]
    grouped = all(isinstance(v, Mapping) for v in counts.values())
    groups = dict(counts) if grouped else {"": counts}  # type: ignore[arg-type]
    names = list(dict.fromkeys(k for g in groups.values() for k in g))
    said: list[str] = []
    width = 0.8 / len(names)
    for j, name in enumerate(names):
        for i, (group, values) in enumerate(groups.items()):
            if name not in values:
                continue
            x = i + (j - (len(names) - 1) / 2) * width
            key = f"{group}:{name}" if grouped else name
            v = values[name]
            (bar,) = ax.bar([x], [v], width=width * 0.95, color=SERIES[j % len(SERIES)], edgecolor="black",
                            hatch=HATCHES[j % len(HATCHES)], label=name if i == 0 else None)
            bar.set_gid(f"bar:{key}")
            text = f"{v:,.0f}" if float(v).is_integer() else f"{v:,.3g}"
            if baseline is not None and name != baseline and values.get(baseline):
                text += f" ({100 * v / values[baseline]:.0f}%)"
            ax.text(x, v, text, ha="center", va="bottom", fontsize=8, gid=f"count:{key}")
            said.append(f"{group + ', ' if grouped else ''}{name}: {text}")
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(list(groups) if grouped else [""])
    if not grouped:
        ax.set_xticks([(j - (len(names) - 1) / 2) * width for j in range(len(names))])
        ax.set_xticklabels([textwrap.fill(name, 16) for name in names])
    else:
        ax.legend()
    if log:
        ax.set_yscale("log")
    ax.set_ylabel(ylabel + (" (log scale)" if log else ""))
    ax.margins(y=0.15)
    if title:
        ax.set_title(title)
    alt = f"Bar chart of {ylabel}{' on a log scale' if log else ''}: " + "; ".join(said) + "."
    if baseline is not None:
        alt += f" Percentages are of {baseline}."
    return Picture(figure, ax, alt=(f"{title}. " if title else "") + alt)


def tournament_table(scores: Mapping[str, Mapping[str, float]], *, title: str | None = None,
                     label: str = "score of the row player", fmt: str = "{:g}", ax: Any = None) -> Picture:
    """A heat map of a tournament: ``scores[row][col]`` is what `row` scored against `col`.

    Missing pairs (a player against itself, say) stay blank. Cells carry gids
    ``cell:<row>:<col>`` with their numbers as text.

    >>> p = tournament_table({"random": {"greedy": 0.1}, "greedy": {"random": 0.9}})
    >>> p.texts("cell")
    {'random:greedy': '0.1', 'greedy:random': '0.9'}
    """
    names = list(dict.fromkeys(list(scores) + [c for row in scores.values() for c in row]))
    figure, ax = _axes(ax, (1.1 * len(names) + 2.5, 0.8 * len(names) + 1.5))
    nan = float("nan")
    grid = [[scores.get(r, {}).get(c, nan) for c in names] for r in names]
    image = ax.imshow(grid, cmap="cividis", aspect="auto")  # readable with every common colour-vision deficiency
    for i, r in enumerate(names):
        for j, c in enumerate(names):
            v = grid[i][j]
            if v == v:
                light = image.norm(v) > 0.55  # dark text on the light (yellow) end of cividis
                ax.text(j, i, fmt.format(v), ha="center", va="center", fontsize=9, gid=f"cell:{r}:{c}",
                        color="black" if light else "white")
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=30, ha="right")
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names)
    ax.set_xlabel("opponent")
    figure.colorbar(image, ax=ax, label=label)
    if title:
        ax.set_title(title)
    pairs = "; ".join(f"{r} against {c}: {fmt.format(v)}" for r in names for c in names
                      if (v := scores.get(r, {}).get(c)) is not None)
    alt = f"Tournament table, {label}: {pairs}."
    return Picture(figure, ax, alt=(f"{title}. " if title else "") + alt)


def tournament_text(scores: Mapping[str, Mapping[str, float]], fmt: str = "{:g}") -> str:
    """The same table as plain text, with each row's total.

    >>> print(tournament_text({"random": {"greedy": 0.1}, "greedy": {"random": 0.9}}))
    row \\ col  random  greedy  total
    random          ·     0.1    0.1
    greedy        0.9       ·    0.9
    """
    names = list(dict.fromkeys(list(scores) + [c for row in scores.values() for c in row]))
    head = ["row \\ col"] + names + ["total"]
    rows = []
    for r in names:
        vals = [scores.get(r, {}).get(c) for c in names]
        cells = ["·" if v is None else fmt.format(v) for v in vals]
        rows.append([r] + cells + [fmt.format(sum(v for v in vals if v is not None))])
    widths = [max(len(x[i]) for x in [head] + rows) for i in range(len(head))]
    lines = [head] + rows
    return "\n".join(
        "  ".join(cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(line)).rstrip()
        for line in lines)
