"""course_lib.explain: the first wrong step of a traced search against shipped notes of the correct run."""

from __future__ import annotations

from course_lib.explain import decode, encode, explain_run
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
