"""course_lib.explain: the first wrong step of a traced search against shipped notes of the correct run."""

from __future__ import annotations

import base64
import json
import math
import zlib

from course_lib.explain import decode, encode, explain_run, first_wrong_step
from course_lib.games import GameTree
from course_lib.trace import Traced
from coursetools.checks import explainer


def _minimax_without_pruning(game, state):
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        vals = [value(game.result(s, a)) for a in game.actions(s)]
        return max(vals) if game.to_move(s) == player else min(vals)

    return value(state)


def test_notes_survive_their_text_and_explain_a_search_that_does_not_prune():
    tree = GameTree.from_nested([[5, 6], [4, 9]])
    notes = explainer.alphabeta_notes(tree, tree.initial)[1]
    text = encode(notes)
    assert decode(text) == notes and len(text) < 600
    game = Traced(tree)
    _minimax_without_pruning(game, game.initial)
    message = explain_run("the tree [[5, 6], [4, 9]]", game, text)
    assert message.splitlines() == [
        "the tree [[5, 6], [4, 9]]: your search first differs from the correct one at step 9, at P1.0 > P2.1.",
        "There the correct search was at MIN node P2.1, window (alpha, beta) = (5, inf), value so far v = 4.",
        "MIN node P2.1: v = 4 <= alpha = 5, so its other children cannot change the result and are pruned. "
        "alpha = 5 there is the value so far of MAX node P1.0: a node searches each child with its own window, "
        "updated after each child.",
        "Yours generated L.3.",
    ]


def test_a_search_that_takes_the_correct_steps_gets_no_message():
    tree = GameTree.from_nested([[3, 5], [6, 9]])
    game = Traced(tree)
    _minimax_without_pruning(game, game.initial)  # nothing to prune here
    assert explain_run("t", game, encode(explainer.alphabeta_notes(tree, tree.initial)[1])) is None


def _raising_beta_at_min(game, state, alpha, beta):
    """Alpha-beta whose MIN nodes raise beta (max instead of min): they never pass a lower bound down."""
    player = game.to_move(state)

    def search(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        maxing = game.to_move(s) == player
        v = -math.inf if maxing else math.inf
        for a in game.actions(s):
            w = search(game.result(s, a), alpha, beta)
            if maxing:
                v = max(v, w)
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            else:
                v = min(v, w)
                if v <= alpha:
                    return v
                beta = max(beta, v)
        return v

    return search(state, alpha, beta)


def test_of_two_cuts_after_one_leaf_the_message_tells_the_one_the_search_missed():
    eight = GameTree.from_leaves([3, 5, 2, 9, 12, 5, 23, 24], branching=2)
    notes = explainer.alphabeta_notes(eight, eight.initial, 0, 2)[1]
    assert [[c[-1].node for c in n.cut] for n in notes if n.cut and len(n.cut) > 1] == [["P1.2", "P1.0"]]
    assert decode(encode(notes)) == notes
    game = Traced(eight)
    _raising_beta_at_min(game, game.initial, 0, 2)  # goes on at P1.2, a child of which it generates: L.3
    lines = explain_run("the 8-leaf list with alpha=0, beta=2", game, encode(notes)).splitlines()
    assert lines[0].endswith("at step 8, at P1.0 > P2.0 > P1.2."), lines
    assert lines[2].startswith("MAX node P1.2: v = 2 >= beta = 2") and "passed down through P1.0 > P2.0." in lines[2]
    assert lines[-1] == "Yours generated L.3."
    # a search that cut P1.2 but not the root makes P2.1 next: the root's cut is the one it missed
    message = first_wrong_step("t", eight, notes, [n.step for n in notes if n.step] + [("generate", "P2.1")])
    assert "at P1.0.\n" in message and "MAX node P1.0: v = 2 >= beta = 2" in message


def test_notes_of_one_cut_read_as_course_lib_0_2_0_wrote_them():
    tree = GameTree.from_nested([[5, 6], [4, 9]])
    notes = explainer.alphabeta_notes(tree, tree.initial)[1]
    rows = json.loads(zlib.decompress(base64.b64decode(encode(notes))))
    cut = next(row[2] for row in rows if row[2] is not None)
    assert not isinstance(cut[0][0], list)  # one cut: its path alone, a list of frames
    assert decode(encode(notes)) == notes


def test_in_a_tree_started_at_a_min_node_the_hint_names_kinds_as_the_drawing_does():
    tree = GameTree.from_nested([[[4, 7], [4, 1]], [[2, 9], [4, 8]]], root="MIN")
    notes = explainer.alphabeta_notes(tree, tree.initial)[1]
    want = [n.step for n in notes if n.step is not None]
    got = want[:want.index(("utility", "L.2")) + 1] + [("generate", "L.3")]
    message = first_wrong_step("a tie", tree, notes, got)
    assert "There the correct search was at MIN node P2.2" in message, message
    assert "MIN node P2.2 (the values are MIN's, the player to move at P2.0, and the search maximises them): " \
           "v = -4 >= beta = -4" in message, message
    assert "the value so far of MAX node P1.0" in message
    assert all(tree.kind(f.node) == f.kind for n in notes for f in n.path)
