"""Small helpers for games played on a rectangular grid of squares."""

from __future__ import annotations

EMPTY = "."


def lines_through(rows: int, cols: int, k: int) -> list[tuple[tuple[int, ...], ...]]:
    """For each square (row-major index), the k-in-a-row windows that contain it.

    >>> [len(w) for w in lines_through(3, 3, 3)]
    [3, 2, 3, 2, 4, 2, 3, 2, 3]
    """
    windows = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                if 0 <= end_r < rows and 0 <= end_c < cols:
                    windows.append(tuple((r + dr * i) * cols + c + dc * i for i in range(k)))
    through: list[list[tuple[int, ...]]] = [[] for _ in range(rows * cols)]
    for w in windows:
        for i in w:
            through[i].append(w)
    return [tuple(ws) for ws in through]


def grid_text(cells: str, cols: int, header: bool = True) -> str:
    """A row-major string of cells drawn as a grid with row and column numbers.

    >>> print(grid_text("X.O......", 3))
      0 1 2
    0 X . O
    1 . . .
    2 . . .
    """
    rows = [cells[i:i + cols] for i in range(0, len(cells), cols)]
    width = len(str(len(rows) - 1))
    body = [f"{r:>{width}} " + " ".join(row) for r, row in enumerate(rows)]
    if not header:
        return "\n".join(" ".join(row) for row in rows)
    top = " " * (width + 1) + " ".join(str(c % 10) for c in range(cols))
    return "\n".join([top] + body)
