"""Compare a student's search with a reference search, call by call, on traced games."""

from __future__ import annotations

from typing import Any, Callable

from course_lib.games import GameTree
from course_lib.trace import Traced

from . import common


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


def compare_search(name: str, student: Callable[..., Any], reference: Callable[..., Any],
                   game: Any, state: Any, *, case: str, result_kind: str = "value",
                   extra_args: tuple = (), hints: dict[str, str] | None = None) -> None:
    """Run both searches on traced copies of `game`; fail on the first difference.

    Checked in order: the result (exact type and value), the leaves evaluated in
    order, the children generated in order, and no leaf evaluated twice.
    """
    hints = hints or {}
    mine, ref = Traced(game), Traced(game)
    expected = reference(ref, state, *extra_args)
    got = common.call(student, mine, state, *extra_args, where=f"on {case}")
    pic = picture(game)
    if result_kind == "value":
        common.expect_number(got, f"{name} on {case}")
    if not common.same(got, expected):
        common.fail(f"{name} on {case}: expected {expected!r}, yours returned {got!r}.",
                    hints.get("result", ""), pic)
    exp_leaves, got_leaves = ref.trace.leaves(), mine.trace.leaves()
    if exp_leaves != got_leaves:
        raise common.CheckFailed(common.sequence_message(
            "The leaves your search evaluated (in order)", exp_leaves, got_leaves, f"on {case}",
            pic, hints.get("leaves", "")))
    # A state the reference also values twice is a transposition (the same position reached by
    # two move orders), not a mistake.
    legit = set(ref.trace.repeated("utility") + ref.trace.repeated("evaluate"))
    twice = [n for n in mine.trace.repeated("utility") + mine.trace.repeated("evaluate") if n not in legit]
    if twice:
        common.fail(f"On {case} your search evaluated {node_text(game, twice[0])} more than once.",
                    hints.get("twice", "store the value of a call instead of calling again"), pic)
    exp_gen, got_gen = ref.trace.generated(), mine.trace.generated()
    if exp_gen != got_gen:
        raise common.CheckFailed(common.sequence_message(
            "The children your search generated with result() (in order)", exp_gen, got_gen,
            f"on {case}", pic, hints.get("generated", "")))
