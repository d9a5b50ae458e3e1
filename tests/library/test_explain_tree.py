"""course_lib.explain_tree: the facts of a tree as data, and the first wrong node of a measure of it."""

from __future__ import annotations

from course_lib.explain_tree import decode_facts, encode_facts, explain_measure
from course_lib.games import GameTree
from coursetools.checks.lab01.reference import tree_facts

TREE = GameTree.from_nested([[1, [2, 3]], 4])


def _count(game, state):
    return 1 + sum(_count(game, game.result(state, a)) for a in ([] if game.is_terminal(state) else game.actions(state)))


def test_facts_survive_their_text_and_hold_no_state():
    facts = tree_facts(TREE, TREE.initial)
    text = encode_facts(facts)
    back = decode_facts(text)
    assert back.rows == [list(r) for r in facts.rows] and "P2.0" not in str(back.rows)
    assert explain_measure("t", TREE, TREE.initial, _count, back, "nodes") is None


def test_a_walk_that_makes_a_child_twice_is_told_which_and_how_often():
    def count_nodes(game, state):  # counts right, but makes the first child of every node twice
        if game.is_terminal(state):
            return 1
        acts = game.actions(state)
        game.result(state, acts[0])
        return 1 + sum(count_nodes(game, game.result(state, a)) for a in acts)

    facts = decode_facts(encode_facts(tree_facts(TREE, TREE.initial)))
    wrong = lambda g, s: count_nodes(g, s) + (s == TREE.initial)  # noqa: E731 - one too many at the root
    lines = explain_measure("t", TREE, TREE.initial, wrong, facts, "nodes").splitlines()
    assert lines[0] == "t: your walk first differs from the tree below P1.0, where the tree makes a child by the move 0."
    assert lines[-1] == "Yours made the move 0 from P1.0 2 time(s) in all; the tree makes it 1 time(s)."


def test_a_branching_factor_is_explained_with_the_counts_of_the_node_where_it_first_differs():
    def branching(game, state):
        nodes = _count(game, state)
        return (nodes - 1) / nodes  # over all nodes, leaves included

    facts = tree_facts(TREE, TREE.initial)
    lines = explain_measure("t", TREE, TREE.initial, branching, facts, "branching", walk=False).splitlines()
    assert lines[0] == "t: your branching factor first differs from the correct one at P1.1."
    assert lines[2] == ("Below and including P1.1 there are 1 internal node(s) with 2 children in all; terminal "
                        "states have none and are not averaged: 2 / 1 = 2.")
    assert lines[3] == "Yours, called on P1.1, returned 0.6667."
