"""Hidden tests of the toy lab of `coursetools.quality.toycourse` (the pipeline's tests and benchmarks)."""

from __future__ import annotations

from typing import Any, Callable

from . import common


def _exact(fn: Callable[..., Any], args: tuple, expected: int) -> None:
    got = common.call(fn, *args)
    if not common.same(got, expected):
        common.fail(f"{fn.__name__}{args}: expected {expected!r}, yours returned {got!r:.80}")


def check_add_visible(add: Callable[..., Any]) -> int:
    _exact(add, (1, 2), 3)
    return 1


def check_add(add: Callable[..., Any]) -> int:
    _exact(add, (-5, 5), 0)
    _exact(add, (2, 2), 4)
    return 2


def check_mul(mul: Callable[..., Any]) -> int:
    _exact(mul, (7, -3), -21)
    _exact(mul, (2, 3), 6)
    return 2
