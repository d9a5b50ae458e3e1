"""Golden texts: the ASCII drawings of the course's two worked trees (the 16-leaf tree
`7 6 2 8 8 7 1 3 0 7 7 8 8 8 2 3` and the 8-leaf list `3 5 2 9 12 5 23 24`, both binary with MAX
at the root), before and after alpha-beta.

The drawings after alpha-beta are made from the trace of the reference search, so
they show what that search did: which leaves it valued and in which order, the bound
each node returned, the parts it never visited and the move it chose.
"""

import pytest
from reference import alphabeta_value, minimax_value

from course_lib.ascii import ascii_tree, binary_ascii, node_line
from course_lib.games import GameTree
from course_lib.trace import Traced

SIXTEEN_LEAVES = [7, 6, 2, 8, 8, 7, 1, 3, 0, 7, 7, 8, 8, 8, 2, 3]
EIGHT_LEAVES = [3, 5, 2, 9, 12, 5, 23, 24]


def _same(text: str, golden: str) -> None:
    """Compare line by line, ignoring trailing spaces and the blank lines around."""
    got = [line.rstrip() for line in text.strip("\n").splitlines()]
    want = [line.rstrip() for line in golden.strip("\n").splitlines()]
    assert got == want, "\n" + "\n".join(got)


def _after_alphabeta(leaves: list) -> Traced:
    game = Traced(GameTree.from_leaves(leaves, branching=2))
    alphabeta_value(game, game.initial)
    return game


SIXTEEN_PLAIN = r"""
P1.0 MAX
├── P2.0 MIN
│   ├── P1.1 MAX
│   │   ├── P2.2 MIN
│   │   │   ├── L.0 = 7
│   │   │   └── L.1 = 6
│   │   └── P2.3 MIN
│   │       ├── L.2 = 2
│   │       └── L.3 = 8
│   └── P1.2 MAX
│       ├── P2.4 MIN
│       │   ├── L.4 = 8
│       │   └── L.5 = 7
│       └── P2.5 MIN
│           ├── L.6 = 1
│           └── L.7 = 3
└── P2.1 MIN
    ├── P1.3 MAX
    │   ├── P2.6 MIN
    │   │   ├── L.8 = 0
    │   │   └── L.9 = 7
    │   └── P2.7 MIN
    │       ├── L.10 = 7
    │       └── L.11 = 8
    └── P1.4 MAX
        ├── P2.8 MIN
        │   ├── L.12 = 8
        │   └── L.13 = 8
        └── P2.9 MIN
            ├── L.14 = 2
            └── L.15 = 3
"""


SIXTEEN_ALPHABETA = r"""
P1.0 MAX 7
├── P2.0 MIN 6
│   ├── P1.1 MAX 6
│   │   ├── P2.2 MIN 6
│   │   │   ├── L.0 = 7  #1
│   │   │   └── L.1 = 6  #2
│   │   └── P2.3 MIN ≤2
│   │       ├── L.2 = 2  #3
│   │       └── L.3 = 8  pruned
│   └── P1.2 MAX ≥7
│       ├── P2.4 MIN 7
│       │   ├── L.4 = 8  #4
│       │   └── L.5 = 7  #5
│       └── P2.5 MIN  pruned
│           ├── L.6 = 1  pruned
│           └── L.7 = 3  pruned
└── P2.1 MIN 7  <- chosen
    ├── P1.3 MAX 7
    │   ├── P2.6 MIN ≤0
    │   │   ├── L.8 = 0  #6
    │   │   └── L.9 = 7  pruned
    │   └── P2.7 MIN 7
    │       ├── L.10 = 7  #7
    │       └── L.11 = 8  #8
    └── P1.4 MAX ≥8
        ├── P2.8 MIN 8
        │   ├── L.12 = 8  #9
        │   └── L.13 = 8  #10
        └── P2.9 MIN  pruned
            ├── L.14 = 2  pruned
            └── L.15 = 3  pruned
#k: k-th value taken · ≥/≤: bound · pruned: never visited · <- chosen: best root move
"""


SIXTEEN_BINARY = r"""
                          _________________________P1.0________________________
                         /                                                     \
            ___________P2.0__________                               ___________P2.1__________
           /                         \                             /                         \
     ____P1.1___                 ____P1.2___                 ____P1.3___                 ____P1.4___
    /           \               /           \               /           \               /           \
  P2.2          P2.3          P2.4          P2.5          P2.6          P2.7          P2.8          P2.9
 /    \        /    \        /    \        /    \        /    \        /    \        /    \        /    \
7      6      2      8      8      7      1      3      0      7      7      8      8      8      2      3
"""


SIXTEEN_BINARY_ALPHABETA = r"""
                                          _________________________________________P1.0:7________________________________________
                                         /                                                                                       \
                   ___________________P2.0:6__________________                                                __________________P2.1:7___________________
                  /                                           \                                              /                                           \
        _______P1.1:6_______                         _______P1.2:≥7______                          _______P1.3:7______                         ________P1.4:≥8______
       /                    \                       /                    \                        /                   \                       /                     \
   _P2.2:6_              _P2.3:≤2_              _P2.4:7_               _(P2.5)_              _P2.6:≤0_              _P2.7:7_              _P2.8:8_                _(P2.9)_
  /        \            /         \            /        \             /        \            /         \            /        \            /        \              /        \
7#1        6#2        2#3         (8)        8#4        7#5         (1)        (3)        0#6         (7)        7#7        8#8        8#9        8#10         (2)        (3)
(...): never visited (pruned) · #k: k-th value taken · ≥/≤: bound
"""  # noqa: E501


EIGHT_PLAIN = r"""
P1.0 MAX
├── P2.0 MIN
│   ├── P1.1 MAX
│   │   ├── L.0 = 3
│   │   └── L.1 = 5
│   └── P1.2 MAX
│       ├── L.2 = 2
│       └── L.3 = 9
└── P2.1 MIN
    ├── P1.3 MAX
    │   ├── L.4 = 12
    │   └── L.5 = 5
    └── P1.4 MAX
        ├── L.6 = 23
        └── L.7 = 24
"""


EIGHT_ALPHABETA = r"""
P1.0 MAX 12
├── P2.0 MIN 5
│   ├── P1.1 MAX 5
│   │   ├── L.0 = 3  #1
│   │   └── L.1 = 5  #2
│   └── P1.2 MAX 9
│       ├── L.2 = 2  #3
│       └── L.3 = 9  #4
└── P2.1 MIN 12  <- chosen
    ├── P1.3 MAX 12
    │   ├── L.4 = 12  #5
    │   └── L.5 = 5  #6
    └── P1.4 MAX ≥23
        ├── L.6 = 23  #7
        └── L.7 = 24  pruned
#k: k-th value taken · ≥/≤: bound · pruned: never visited · <- chosen: best root move
"""


EIGHT_BINARY = r"""
            ___________P1.0___________
           /                          \
     ____P2.0___                  ____P2.1____
    /           \                /            \
  P1.1          P1.2          _P1.3          _P1.4
 /    \        /    \        /     \        /     \
3      5      2      9      12      5      23      24
"""


EIGHT_BINARY_ALPHABETA = r"""
                   __________________P1.0:12____________________
                  /                                             \
        _______P2.0:5______                            _______P2.1:12________
       /                   \                          /                      \
   _P1.1:5_              _P1.2:9_               __P1.3:12_               __P1.4:≥23_
  /        \            /        \             /          \             /           \
3#1        5#2        2#3        9#4         12#5         5#6         23#7          (24)
(...): never visited (pruned) · #k: k-th value taken · ≥/≤: bound
"""


def test_ascii_sixteen_leaf_tree_before_search():
    _same(ascii_tree(GameTree.from_leaves(SIXTEEN_LEAVES, branching=2)), SIXTEEN_PLAIN)


def test_ascii_sixteen_leaf_tree_after_alphabeta():
    game = _after_alphabeta(SIXTEEN_LEAVES)
    _same(ascii_tree(game.game, game.trace), SIXTEEN_ALPHABETA)


def test_binary_ascii_sixteen_leaf_tree_before_search():
    _same(binary_ascii(GameTree.from_leaves(SIXTEEN_LEAVES, branching=2)), SIXTEEN_BINARY)


def test_binary_ascii_sixteen_leaf_tree_after_alphabeta():
    game = _after_alphabeta(SIXTEEN_LEAVES)
    _same(binary_ascii(game.game, game.trace), SIXTEEN_BINARY_ALPHABETA)


def test_ascii_eight_leaf_list_before_search():
    _same(ascii_tree(GameTree.from_leaves(EIGHT_LEAVES, branching=2)), EIGHT_PLAIN)


def test_ascii_eight_leaf_list_after_alphabeta():
    game = _after_alphabeta(EIGHT_LEAVES)
    _same(ascii_tree(game.game, game.trace), EIGHT_ALPHABETA)


def test_binary_ascii_eight_leaf_list_before_search():
    _same(binary_ascii(GameTree.from_leaves(EIGHT_LEAVES, branching=2)), EIGHT_BINARY)


def test_binary_ascii_eight_leaf_list_after_alphabeta():
    game = _after_alphabeta(EIGHT_LEAVES)
    _same(binary_ascii(game.game, game.trace), EIGHT_BINARY_ALPHABETA)


def test_ascii_after_minimax_has_no_pruned_node_and_exact_values():
    game = Traced(GameTree.from_leaves(SIXTEEN_LEAVES, branching=2))
    minimax_value(game, game.initial)
    text = ascii_tree(game.game, game.trace)
    assert "pruned" not in text.splitlines()[-2] and text.count("pruned") == 1  # only in the legend
    assert "≥" not in text.replace("≥/≤", "") and "≤" not in text.replace("≥/≤", "")
    assert text.splitlines()[0] == "P1.0 MAX 7"
    assert "L.15 = 3  #16" in text


def test_ascii_annotations_agree_with_the_trace():
    game = _after_alphabeta(SIXTEEN_LEAVES)
    text = ascii_tree(game.game, game.trace)
    numbered = {}
    for line in text.splitlines():
        if "#" in line and "= " in line:
            label = line.split("── ")[-1].split(" ")[0]
            numbered[int(line.rsplit("#", 1)[1])] = label
    assert [numbered[k] for k in sorted(numbered)] == game.trace.leaves()
    pruned = {line.split("── ")[-1].split(" ")[0] for line in text.splitlines() if line.endswith("  pruned")}
    never = {n for n in game.game.nodes() if n not in set(game.trace.generated()) | {game.initial}}
    assert pruned == never


def test_ascii_unbalanced_chance_and_nary_trees():
    tree = GameTree.from_nested([[1, 2, 3], [(0.25, 4), (0.75, [5, 6])], 7], levels=("MAX", "CHANCE", "MIN"))
    text = ascii_tree(tree)
    assert text.splitlines()[0] == "P1.0 MAX"
    assert "L.0 = 1" in text and "L.6 = 7" in text
    chance = GameTree.from_nested([(0.25, 4), (0.75, [5, 6])], root="CHANCE", levels=("CHANCE", "MAX"))
    assert "p=0.75 P1.0 MAX" in ascii_tree(chance)


def test_ascii_terminal_root_and_vectors():
    assert ascii_tree(GameTree.from_nested(5)) == "L.0 = 5"
    three = GameTree.from_nested([[(1, 2, 3), (3, 2, 1)], [(0, 0, 9)]])
    assert "└── L.2 = (0, 0, 9)" in ascii_tree(three)


def test_ascii_chance_value_is_the_expectation_of_visited_children():
    tree = GameTree.from_nested([(0.25, 4), (0.75, 8)], root="CHANCE", levels=("CHANCE",))
    game = Traced(tree)
    for a in game.actions(game.initial):
        game.utility(game.result(game.initial, a), "MAX")
    assert ascii_tree(tree, game.trace).splitlines()[0] == "C.0 CHANCE 7"


def test_ascii_double_evaluation_shows_both_numbers():
    game = Traced(GameTree.from_leaves([3, 5], branching=2))
    leaf = game.result(game.initial, 0)
    game.utility(leaf, "MAX")
    game.utility(leaf, "MAX")
    assert "L.0 = 3  #1,2" in ascii_tree(game.game, game.trace)


def test_ascii_long_tree_is_cut_with_a_note():
    tree = GameTree.from_leaves(list(range(64)), branching=2)
    lines = ascii_tree(tree, max_lines=20).splitlines()
    assert len(lines) == 21 and lines[-1] == "… 107 more lines"


def test_ascii_window_option_shows_alpha_and_beta():
    game = _after_alphabeta(EIGHT_LEAVES)
    text = ascii_tree(game.game, game.trace, window=True)
    assert "P1.4 MAX ≥23  α=5 β=12" in text


def test_node_line_without_trace_is_label_and_kind():
    from course_lib.annotations import tree_shape

    shape = tree_shape(GameTree.from_leaves([3, 5], branching=2))
    assert node_line(shape, "P1.0") == "P1.0 MAX" and node_line(shape, "L.1") == "L.1 = 5"


def test_binary_ascii_refuses_wider_trees():
    with pytest.raises(ValueError, match="binary"):
        binary_ascii(GameTree.from_nested([1, 2, 3]))
