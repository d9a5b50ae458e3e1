"""Small helpers for the messages of the hidden tests: tree pictures and node names."""

from __future__ import annotations

from typing import Any

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
