"""Hidden tests of lab 02 (minimax)."""

from __future__ import annotations

from . import common, reference, trees
from .searchcheck import compare_search

LAB = "02_minimax"


def _cases(group: str) -> dict:
    cases = dict(trees.public_trees())
    cases.update(trees.seeded_trees(common.rng(LAB, group), 6))
    if common.has_secret():
        cases.update({f"secret {k}": v for k, v in trees.seeded_trees(common.rng(LAB, group, True), 10).items()})
    return cases


def check_value_trees(minimax_value) -> int:
    """minimax_value on explicit trees: value, leaves in order, generated children."""
    n = 0
    for case, tree in _cases("value_trees").items():
        compare_search("minimax_value", minimax_value, reference.minimax_value, tree, tree.initial, case=case,
                       hints={"leaves": "visit the children in actions() order and take each leaf's "
                                        "utility once"})
        n += 1
    return n
