"""Rule tables: each rule a lab's release notebook states, with the hidden cases that catch it (grader only).

A lab's room holds ``rules.py`` with ``RULES``, a list of `Rule` rows. A row quotes, verbatim, the
sentence of the release notebook that states a rule one graded function must follow, names the test
group whose cases check it, and lists the ids of the cases of that group that fail, each on its own,
for a program that breaks that rule and nothing else. `tests/checks/test_rules.py` holds the tables to
the notebooks and the cases: a sentence that left the notebook, a rule without a case, or a listed case
that does not fail a program breaking the rule fails the test.

`alone` runs a group on some of its cases only (the others are left out of every list of cases the
group asks its ``data`` for), which is how a listed case is shown to fail on its own.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterator

from . import kit


@dataclass(frozen=True)
class Rule:
    """One rule: its id, the graded function, the test group, the sentence quoted, the cases that catch it, and, for a
    rule some programs can break in a way no grading run can see, why (`unobservable`): a rule mutant that breaks it
    that way is reported as surviving, not as a missing case."""

    id: str
    function: str
    group: str
    sentence: str
    cases: tuple[str, ...]
    unobservable: str = ""


def item_id(item: Any) -> str | None:
    """The id of an item of a list of cases: a `Case`'s id (or that of a tuple's first item), ``heaps (1, 2)`` for
    the heaps of a Nim game (labs 01 and 02), ``row (3, 4, 10, 1.0)`` for a row of numbers (lab 07's UCB1 rows),
    None for anything else."""
    if isinstance(item, tuple) and item and isinstance(item[0], kit.Case):
        item = item[0]
    if isinstance(item, kit.Case):
        return item.id
    if isinstance(item, tuple) and item and all(type(h) is int for h in item):
        return f"heaps {item!r}"
    if isinstance(item, tuple) and item and all(type(h) in (int, float) for h in item):
        return f"row {item!r}"
    return None


@contextmanager
def alone(ids: set[str] | frozenset[str], constants: tuple[tuple[Any, str], ...] = (),
          hook: Any = None) -> Iterator[dict[str, str]]:
    """Within the block, every list of cases a group gets from its ``data`` keeps only the items with an id in
    `ids` (lists without any case are left alone); `constants` are ``(module, name)`` lists of cases a group reads
    as they are, filtered alike; `hook(ids, met)`, a lab's own context manager, leaves out the inputs a group
    reads elsewhere (lab 05's evaluated positions). Yields the ids met (each with the name a student reads), so
    a caller can tell a listed id that no group has."""
    met: dict[str, str] = {}
    original = kit.drawn_order

    def keep(items: Any) -> Any:
        if not isinstance(items, list):
            return items
        named = [(x, item_id(x)) for x in items]
        if not any(i is not None for _, i in named):
            return items
        met.update((i, getattr(x[0] if isinstance(x, tuple) else x, "name", i)) for x, i in named if i in ids)
        return [x for x, i in named if i in ids]

    saved = [(module, name, getattr(module, name)) for module, name in constants]
    kit.drawn_order = keep
    for module, name, value in saved:
        setattr(module, name, keep(list(value)))
    try:
        if hook is None:
            yield met
        else:
            with hook(ids, met):
                yield met
    finally:
        kit.drawn_order = original
        for module, name, value in saved:
            setattr(module, name, value)


def plain(text: str) -> str:
    """Text with every run of white space as one space (a sentence may be wrapped anywhere in a cell)."""
    return re.sub(r"\s+", " ", text).strip()
