"""Charts of measured numbers: nodes per depth, move orderings compared, tournament results.

Each function takes plain numbers (what your own searches counted) and returns a
`course_lib.draw.Picture`, a static image in a notebook. matplotlib is imported only
when a chart is drawn.
"""

from __future__ import annotations

import sys
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


def _tick_name(axis: Any, at: float) -> str:
    """The name a tick at `at` shows when the chart names its ticks (categories, set labels), else the number."""
    formatter = axis.get_major_formatter()
    kind = type(formatter).__name__
    if kind == "StrCategoryFormatter":
        return str(formatter(at))
    locs = [round(float(t), 6) for t in axis.get_ticklocs()]
    if kind == "FixedFormatter" and round(at, 6) in locs:
        return str(formatter(at, locs.index(round(at, 6))))
    return f"{at:g}"


def axes_alt(ax: Any) -> str:
    """What one matplotlib axes shows, read from its artists: title, axis labels, each bar's and line's numbers."""
    from matplotlib.container import BarContainer

    parts = [ax.get_title() or "a chart"]
    labels = [t for t in (ax.get_xlabel(), ax.get_ylabel()) if t]
    if labels:
        parts.append("axes: " + " against ".join(reversed(labels)) if len(labels) == 2 else "axis: " + labels[0])
    for k, bars in enumerate(c for c in ax.containers if isinstance(c, BarContainer)):
        name = bars.get_label() if not str(bars.get_label()).startswith("_") else f"bars {k + 1}"
        said = []
        for rect in bars.patches:
            if bars.orientation == "horizontal":
                at, size = rect.get_y() + rect.get_height() / 2, rect.get_width()
                where = _tick_name(ax.yaxis, at)
            else:
                at, size = rect.get_x() + rect.get_width() / 2, rect.get_height()
                where = _tick_name(ax.xaxis, at)
            said.append(f"{' '.join(where.split())}: {size:,.3g}")
        parts.append(f"{name}: " + ", ".join(said))
    for points in ax.collections:  # scatter plots with a label
        name = points.get_label()
        if str(name).startswith("_") or not len(points.get_offsets()):
            continue
        parts.append(f"{name}: " + ", ".join(f"{_tick_name(ax.xaxis, float(x))} at {_tick_name(ax.yaxis, float(y))}"
                                            for x, y in points.get_offsets()))
    for line in ax.get_lines():
        xs, ys = line.get_xdata(), line.get_ydata()
        name = line.get_label()
        if str(name).startswith("_") or len(ys) == 0:
            continue
        if len(ys) > 12:  # a long curve: where it starts, its extremes and where it ends
            hi, lo = max(range(len(ys)), key=lambda i: ys[i]), min(range(len(ys)), key=lambda i: ys[i])
            said = (f"{len(ys)} points from x={xs[0]:g} (y={ys[0]:.3g}) to x={xs[-1]:g} (y={ys[-1]:.3g}), "
                    f"highest {ys[hi]:.3g} at x={xs[hi]:g}, lowest {ys[lo]:.3g} at x={xs[lo]:g}")
        else:
            said = ", ".join(f"x={x:g}: {y:.3g}" for x, y in zip(xs, ys))
        parts.append(f"line {name}: {said}")
    return "; ".join(parts) + "."


def picture(figure: Any, alt: str | None = None) -> Picture:
    """Show a matplotlib figure you drew yourself as a `Picture`: a static image with a text alternative.

    Without `alt`, the text is read from the figure itself (`axes_alt` of each axes). Use it in place of
    ``plt.show()``: the figure is closed in pyplot, so it is shown once.

    >>> from matplotlib.figure import Figure
    >>> fig = Figure()
    >>> ax = fig.add_subplot()
    >>> _ = ax.bar([1, 2], [9, 72], label="minimax")
    >>> _ = ax.set_title("nodes per depth")
    >>> picture(fig).alt
    'Figure: nodes per depth; minimax: 1: 9, 2: 72.'
    """
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is not None:
        pyplot.close(figure)
    axes = [ax for ax in figure.get_axes() if ax.get_label() != "<colorbar>"]
    text = alt or "Figure: " + " ".join(axes_alt(ax) for ax in axes)
    return Picture(figure, axes[0] if axes else None, alt=text)
