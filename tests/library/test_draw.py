"""Figure-content tests: what `draw_tree` draws must agree with the trace of the search."""

import subprocess
import sys

import pytest
from reference import alphabeta_value, minimax_value

from course_lib.annotations import search_annotations
from course_lib.draw import draw_board, draw_tree
from course_lib.games import ConnectFour, GameTree, RaceTo, TicTacToe
from course_lib.trace import Traced

SIXTEEN_LEAVES = [7, 6, 2, 8, 8, 7, 1, 3, 0, 7, 7, 8, 8, 8, 2, 3]


@pytest.fixture(scope="module")
def sixteen_after_alphabeta():
    game = Traced(GameTree.from_leaves(SIXTEEN_LEAVES, branching=2))
    alphabeta_value(game, game.initial)
    return game, draw_tree(game.game, game.trace, window=True)


def _never_visited(game: Traced) -> set:
    return {n for n in game.game.nodes() if n != game.initial and n not in set(game.trace.generated())}


def test_draw_pruned_nodes_are_exactly_those_never_generated(sixteen_after_alphabeta):
    game, drawing = sixteen_after_alphabeta
    assert set(drawing.styled("pruned")) == _never_visited(game)
    assert set(drawing.styled("visited")) == set(game.trace.generated()) | {game.initial}
    for label in drawing.styled("pruned"):
        marker = drawing.find(f"node:{label}:pruned")
        assert marker.get_markerfacecolor() == "white"


def test_draw_cut_edges_are_dashed_and_marked(sixteen_after_alphabeta):
    game, drawing = sixteen_after_alphabeta
    cuts = drawing.edges("cut")
    assert sorted(cuts) == [("P1.2", "P2.5"), ("P1.4", "P2.9"), ("P2.3", "L.3"), ("P2.6", "L.9")]
    for p, c in cuts:
        assert drawing.find(f"edge:{p}->{c}:cut").get_linestyle() == "--"
        assert drawing.find(f"cut:{p}->{c}").get_marker() == "x"
        assert game.game.parent(c) == p and p in set(game.trace.expanded())
    assert all(drawing.find(f"edge:{p}->{c}:pruned").get_linestyle() == "--" for p, c in drawing.edges("pruned"))


def test_draw_values_and_bounds_as_returned(sixteen_after_alphabeta):
    _, drawing = sixteen_after_alphabeta
    values = drawing.texts("value")
    assert values["P1.0"] == "7" and values["P2.0"] == "6" and values["P2.1"] == "7"
    assert values["P2.3"] == "≤2" and values["P1.2"] == "≥7" and values["P1.4"] == "≥8" and values["P2.6"] == "≤0"
    assert not any(n in values for n in drawing.styled("pruned"))


def test_draw_leaf_order_numbers_follow_the_trace(sixteen_after_alphabeta):
    game, drawing = sixteen_after_alphabeta
    order = drawing.texts("order")
    assert sorted(order, key=lambda n: int(order[n])) == game.trace.leaves()
    assert [int(order[n]) for n in game.trace.leaves()] == list(range(1, 11))


def test_draw_chosen_edge_is_the_first_best_root_move(sixteen_after_alphabeta):
    _, drawing = sixteen_after_alphabeta
    assert drawing.edges("chosen") == [("P1.0", "P2.1")]
    assert drawing.find("edge:P1.0->P2.1:chosen").get_linewidth() > 3


def test_draw_windows_on_request(sixteen_after_alphabeta):
    _, drawing = sixteen_after_alphabeta
    windows = drawing.texts("window")
    assert windows["P1.0"] == "α=-∞ β=∞" and windows["P1.4"] == "α=6 β=7" and windows["P2.3"] == "α=6 β=∞"


def test_draw_before_search_is_plain_with_leaf_values():
    drawing = draw_tree(GameTree.from_leaves(SIXTEEN_LEAVES, branching=2))
    assert len(drawing.styled("plain")) == 31 and not drawing.texts("value") and not drawing.texts("order")
    leaves = drawing.texts("leaf")
    assert [leaves[f"L.{i}"] for i in range(16)] == [str(v) for v in SIXTEEN_LEAVES]
    assert not drawing.gids("cut:") and not drawing.edges("chosen")


def test_draw_layout_leaves_evenly_spaced_parents_centred():
    tree = GameTree.from_nested([[1, 2, 3], 4, [5, [6, 7]]])
    drawing = draw_tree(tree)
    x = drawing.positions
    assert [x[f"L.{i}"] for i in range(7)] == [0, 1, 2, 3, 4, 5, 6]
    for n in tree.nodes():
        kids = tree.children(n)
        if kids:
            assert x[tree.label(n)] == (x[tree.label(kids[0])] + x[tree.label(kids[-1])]) / 2


def test_draw_markers_by_kind_and_legend():
    tree = GameTree.from_nested([[(0.5, 1), (0.5, [2, 3])], 4], levels=("MAX", "CHANCE", "MIN"))
    drawing = draw_tree(tree)
    marker = {gid.split(":")[1]: drawing.find(gid).get_marker() for gid in drawing.gids("node:")}
    assert marker["P1.0"] == "^" and marker["C.0"] == "o" and marker["P2.0"] == "v" and marker["L.0"] == "s"
    legend = [t.get_text() for t in drawing.ax.get_legend().get_texts()]
    assert legend == ["MAX ▲", "MIN ▼", "CHANCE ○", "terminal □"]


def test_draw_after_minimax_nothing_pruned():
    game = Traced(GameTree.from_leaves(SIXTEEN_LEAVES, branching=2))
    minimax_value(game, game.initial)
    drawing = draw_tree(game)
    assert not drawing.styled("pruned") and not drawing.edges("cut")
    assert drawing.texts("value")["P1.3"] == "7" and "≥" not in "".join(drawing.texts("value").values())


def test_draw_large_tree_is_cut_with_a_note():
    drawing = draw_tree(GameTree.from_leaves(list(range(243)), branching=3))
    assert drawing.hidden_leaves == 143 and drawing.find("more").get_text() == "… 143 more leaves"
    assert len(drawing.texts("leaf")) == 100


def test_draw_step_shows_open_windows_pending_nodes_and_current_ring():
    game = Traced(GameTree.from_leaves(SIXTEEN_LEAVES, branching=2))
    alphabeta_value(game, game.initial)
    events = game.trace.events()
    k = next(i for i, e in enumerate(events) if e.kind == "utility" and e.node == "L.2") + 1
    drawing = draw_tree(game.game, game.trace, step=k)
    assert drawing.gids("current:") == ["current:L.2"]
    assert "L.3" in drawing.styled("pending") and "P2.1" in drawing.styled("pending")
    assert not drawing.styled("pruned")
    windows = drawing.texts("window")
    assert windows["P1.1"] == "α=6 β=∞" and windows["P2.3"] == "α=6 β=2"
    assert drawing.texts("value")["P1.1"] == "≥6"


def test_draw_move_argument_highlights_that_edge():
    drawing = draw_tree(GameTree.from_leaves([3, 5, 2, 9], branching=2), move=1)
    assert drawing.edges("chosen") == [("P1.0", "P2.1")]
    with pytest.raises(ValueError, match="not an action"):
        draw_tree(GameTree.from_leaves([3, 5, 2, 9], branching=2), move=5)


def test_draw_values_argument_writes_student_numbers():
    drawing = draw_tree(GameTree.from_leaves([3, 5, 2, 9], branching=2), values={"P2.0": 3, "P1.0": 3})
    assert drawing.texts("value") == {"P2.0": "3", "P1.0": "3"}


def test_draw_game_from_a_state_to_a_depth_with_actions():
    drawing = draw_tree(RaceTo(), depth=2)
    assert len(drawing.texts("action")) == 3 + 9
    plain = drawing.styled("plain")
    assert len(plain) == 13 and {"P1.0", "P2.0", "P2.1", "P2.2"} <= set(plain)
    assert drawing.texts("action")["P2.1"] == "2"


def test_draw_tictactoe_search_from_a_position_agrees_with_trace():
    game = Traced(TicTacToe())
    state = game.state_from(["XO.", ".X.", "O.."])
    alphabeta_value(game, state)
    drawing = draw_tree(game, game.trace)
    notes = search_annotations(game, game.trace, root=state)
    assert len(drawing.styled("visited")) == game.trace.nodes_visited()
    assert len(drawing.edges("cut")) == len(notes.cut_edges) > 0
    assert drawing.texts("value")["P1.0"] == "1"
    assert not drawing.gids("board:")  # too many nodes for boards


def test_draw_tiny_boards_for_small_tictactoe_trees():
    game = TicTacToe()
    state = game.state_from(["XOX", "OXO", "..."])
    drawing = draw_tree(game, state=state, depth=1)
    boards = drawing.texts("board")
    assert len(boards) == 4 and boards["P1.0"].splitlines()[0] == "XOX"


def test_draw_svg_and_png_output():
    drawing = draw_tree(GameTree.from_leaves([3, 5], branching=2), fmt="svg")
    assert drawing._repr_png_() is None and "<svg" in drawing._repr_svg_()
    png = draw_tree(GameTree.from_nested(4))._repr_png_()
    assert png.startswith(b"\x89PNG")


def test_draw_board_picture_of_connect_four():
    state = ConnectFour(4, 4).play([1, 1, 2])
    picture = draw_board(state)
    assert picture.texts("mark") == {"3,1": "X", "2,1": "O", "3,2": "X"}


def test_importing_draw_does_not_import_matplotlib():
    code = "import sys, course_lib.draw, course_lib.ascii, course_lib.charts, course_lib.widgets; " \
           "print('matplotlib' in sys.modules, 'ipywidgets' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_draw_game_with_chance_states_and_an_evaluator():
    from course_lib.games import PigRace

    game = Traced(PigRace(target=4, rolls=2, die=(1, 2, 3)))
    evaluate = game.evaluator(lambda state, player: 1)

    def expectimax_like(state, depth):
        if game.is_terminal(state):
            return game.utility(state, "A")
        if depth == 0:
            return evaluate(state, "A")
        values = [expectimax_like(game.result(state, a), depth - 1) for a in game.actions(state)]
        if game.to_move(state) == "CHANCE":
            return sum(p * v for (_, p), v in zip(game.outcomes(state), values))
        return max(values) if game.to_move(state) == "A" else min(values)

    value = expectimax_like(game.initial, 3)
    drawing = draw_tree(game)
    marker = {gid.split(":")[1]: drawing.find(gid).get_marker() for gid in drawing.gids("node:")}
    assert marker["C.0"] == "o" and drawing.texts("action")["P2.0"] == "1 (0.33)"
    assert drawing.texts("value")["P1.0"] == f"{value:g}"
    assert len(drawing.texts("order")) == len(game.trace.leaves())


# -- one replay per kind of game, one label rule, one action text ---------------------------------------

def test_a_game_and_the_same_game_written_as_a_tree_are_drawn_alike():
    """The replay over action paths (any game) and over node names (a GameTree) agree on every mark."""
    from coursetools.checks.trees import as_tree

    race = RaceTo(6, 3)
    game, tree = Traced(race), Traced(as_tree(race, race.initial))
    assert alphabeta_value(game, game.initial) == alphabeta_value(tree, tree.initial)
    as_game, as_tree_drawing = draw_tree(game, depth=99), draw_tree(tree)
    assert as_game.positions == as_tree_drawing.positions  # the same labels in the same places
    for status in ("visited", "pruned", "unreached"):
        assert sorted(as_game.styled(status)) == sorted(as_tree_drawing.styled(status)), status
    for style in ("cut", "chosen", "visited"):
        assert sorted(as_game.edges(style)) == sorted(as_tree_drawing.edges(style)), style
    for kind in ("value", "order", "leaf"):
        assert as_game.texts(kind) == as_tree_drawing.texts(kind), kind
    assert as_game.styled("pruned"), "the case should prune something"


def test_labels_follow_one_rule_for_trees_and_for_drawn_games():
    from course_lib.annotations import game_shape
    from course_lib.games.tree import level_labels

    tree = GameTree.from_nested([[(1, 2, 3), [(4, 1, 0), (0, 0, 9)]], [(5, 5, 0)]])  # players P1, P2, P3
    kinds = {n: tree.kind(n) for n in tree.nodes()}
    assert level_labels(tree.initial, {n: tree.children(n) for n in tree.nodes()}, kinds) == \
        {n: tree.label(n) for n in tree.nodes()}
    assert sorted(tree.label(n) for n in tree.nodes() if kinds[n] == "P3") == ["P3.0"]
    shape = game_shape(RaceTo(), depth=2)  # the horizon's nodes keep their player's label
    assert [shape.label[n] for n in shape.children[(1,)]] == ["P1.1", "P1.2", "P1.3"]
    assert shape.label[()] == "P1.0" and shape.label[(3,)] == "P2.2"


def test_stepping_draws_the_shape_of_the_whole_search_and_reads_visits_once():
    from course_lib.annotations import visited_ids

    game = Traced(RaceTo(7, 3))
    alphabeta_value(game, game.initial)
    whole = draw_tree(game)
    assert visited_ids(game, game.trace) == whole.notes.visited
    for step in (0, 5, 40):
        part = draw_tree(game, step=step)
        assert part.shape.nodes() == whole.shape.nodes() and part.positions == whole.positions
        assert part.notes.visited <= whole.notes.visited and part.notes.step == step
    assert draw_tree(game, step=5).styled("visited") != whole.styled("visited")


def test_edges_and_feedback_paths_write_actions_with_the_same_function():
    from coursetools.checks import kit

    from course_lib.annotations import action_text

    ttt = TicTacToe()
    game = Traced(ttt)
    state = ttt.state_from(["XO.", ".X.", "O.."], "O")
    minimax_value(game, state)
    drawing = draw_tree(game, boards=False, max_leaves=200)
    edge = drawing.texts("action")
    name = kit.path_namer(state, [game.trace])
    for _parent, action, child in game.trace.edges()[:12]:
        path = name(child).split("/")
        assert path[-1] == action_text(action) == edge[drawing.shape.label[tuple(map(_square, path))]]
    assert kit.action_text is action_text


def _square(text: str) -> tuple:
    return tuple(int(x) for x in text.strip("()").split(","))


def test_a_value_asked_for_the_other_player_is_drawn_from_the_root_players_view():
    """Evaluate events carry the player the value is for; the figure turns it to the root player's view."""
    for asked in ("X", "O"):
        game = Traced(ConnectFour(4, 4))
        evaluate = game.evaluator(lambda state, player: 1 if player == "X" else -1)  # X is better by 1
        child = game.result(game.initial, 0)
        evaluate(child, asked)
        assert game.trace[-1].player == asked and game.trace[-1].action is None
        notes = draw_tree(game).notes
        assert notes.value[(0,)] == 1 and notes.text(()) == "≥1", asked
