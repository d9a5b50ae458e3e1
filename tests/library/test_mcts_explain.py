"""course_lib.mcts_explain: the notes of an MCTS run as data, and the tree they describe."""

from __future__ import annotations

from course_lib.games import GameTree, TicTacToe
from course_lib.mcts_explain import Backup, Pick, Step, decode, encode, explain_steps, tree_after


def _notes() -> tuple[list[Step], list[Backup]]:
    """Two iterations on [[1, -1], [0, 0]] by hand: P2.0 then its rollout to L.0; P2.1 then L.2."""
    steps = [Step("P1.0", 0, 1, "expand", [], "P1.0", [0, 1], known={"P1.0": ()}),
             Step("P2.0", 0, 1, "rollout", [], "P2.0", actions=[0, 1], move=1),
             Step("P1.0", 1, 2, "expand", [], "P1.0", [1], draws=1, known={"P1.0": (), "P2.0": (0,)}),
             Step("P2.1", 0, 2, "rollout", [], "P2.1", actions=[0, 1], move=1, draws=1)]
    backups = [Backup(1, "L.0", [((), "P1.0", None, 1, 0), ((0,), "P2.0", "MAX", 1, 1)]),
               Backup(2, "L.2", [((), "P1.0", None, 2, 0), ((1,), "P2.1", "MAX", 1, 0)])]
    return steps, backups


def test_notes_travel_as_text_with_states_written_as_moves():
    tree = GameTree.from_nested([[1, -1], [0, 0]])
    steps, backups = _notes()
    paths = {"P1.0": (), "P2.0": (0,), "P2.1": (1,), "L.0": (0, 0), "L.2": (1, 0)}
    assert decode(encode(steps, backups, paths.__getitem__), tree, "P1.0") == (steps, backups)
    assert tree_after(backups, 2) == (2, 0, ((0, (1, 1, ())), (1, (1, 0, ()))))


def test_a_selection_is_told_with_every_childs_numbers():
    ttt = TicTacToe()
    s = ttt.initial
    a, b = ttt.result(s, (0, 0)), ttt.result(s, (0, 1))
    pick = Pick(s, (), 4, [((0, 0), 3, 1, 1.295), ((0, 1), 1, 0, 1.665)], 1)
    steps = [Step(b, (0, 0), 5, "expand", [pick], b, [(0, 0)], known={s: (), a: ((0, 0),), b: ((0, 1),)})]
    text = explain_steps("a case", ttt, steps, [], [(a, (0, 1))], str, 1.4, 5, lambda m: (None, None))
    assert "The root (4 visits) has no untried action" in text
    assert "(0,0): 3 visits, total 1, UCB1 1.295; (0,1): 1 visit, total 0, UCB1 1.665. It takes (0,1)." in text
