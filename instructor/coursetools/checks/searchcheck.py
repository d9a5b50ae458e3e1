"""Small helpers for the messages of the hidden tests: tree pictures and node names."""

from __future__ import annotations

from typing import Any, Callable, Hashable, Iterable

from course_lib.games import GameTree


def picture(game: Any) -> str:
    """A small drawing of an explicit tree for messages (empty for other games)."""
    if not isinstance(game, GameTree) or len(game.nodes()) > 60:
        return ""
    from course_lib.ascii import ascii_tree

    return ascii_tree(game)


def node_text(game: Any, node: Any) -> str:
    """How a node is named in messages."""
    if isinstance(game, GameTree):
        return str(node)
    return "\n" + str(node)


def action_text(action: Any) -> str:
    """An action as written in a path: ``(1,2)`` for a tuple, else its str.

    >>> action_text((1, 2)), action_text(4)
    ('(1,2)', '4')
    """
    return "(" + ",".join(str(x) for x in action) + ")" if isinstance(action, tuple) else str(action)


def path_namer(start: Hashable, traces: Iterable[Any]) -> Callable[[Hashable], str]:
    """Names nodes by the moves leading to them from `start` (``root``, ``4/0``), as the traces generated
    them; a node generated more than once keeps its first path, a node never generated is ``?``."""
    paths: dict[Hashable, tuple] = {start: ()}
    for trace in traces:
        for e in trace.events("generate"):
            paths.setdefault(e.node, paths.get(e.parent, ("?",)) + (e.action,))

    def name(node: Hashable) -> str:
        path = paths.get(node)
        if path is None:
            return "?"
        return "/".join(action_text(a) for a in path) if path else "root"

    return name


def example_path(game: Any, state: Any) -> str:
    """A path two moves deep from `state`, to show students how paths are written.

    >>> from course_lib.games import RaceTo
    >>> example_path(RaceTo(10, 3), RaceTo(10, 3).initial)
    '1/1'
    """
    acts = game.actions(state)
    if not acts:
        return "root"
    more = game.actions(game.result(state, acts[0]))
    return "/".join(action_text(a) for a in [acts[0], *more[:1]])
