"""Lab 02's cases as data: each public case is one row with a stable id; seeded cases follow.

Adding a hidden case is one row: a position in `TTT` or `C4`, a shared tree id in `TREE_IDS`, or a
RaceTo or Nim row in a group's table. A case's id names it in golden files; its name is what a
student reads.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from course_lib.games import ConnectFour, GameTree, RaceState, RaceTo, Reversi, TicTacToe

from .. import common, trees
from ..kit import Case
from ..nim import ReferenceNim
from . import reference as ref

LAB = "02_minimax"

TTT = {
    # X to move; the only best move is not in the top row (a return inside the loop over the rows misses it)
    "x_unique": [".X./O.O/..X", "O.X/..O/..X", "XOX/.../..O", "X../..X/O.O", "X../OO./.X.",
                 ".X./XO./..O", "OO./.X./X.."],
    # O to move, one best move
    "o_unique": [".XO/.../.X.", "X../.O./X..", "XX./.OX/O..", ".../.OX/..X"],
    # X to move, several best moves
    "x_ties": ["O../X.X/.O.", "OXX/.../.O.", ".XO/.O./X..", ".X./.OO/.X."],
    # a faster win (or a slower loss) exists beside the first best move of plain minimax
    "quick": ["O../X.X/.O.", "OOX/.X./...", "..X/.XO/..O", ".XO/.X./O..", "..X/X.X/O.O",
              "XXO/.O./..X", ".X./.OO/.X.", "..O/XOX/...", ".OX/.X./...", ".../O../XX."],
}
C4 = {  # ConnectFour 4x4 (four in a row), mid-game, as the columns played from the empty board
    "x_unique": [[3, 3, 3, 1, 1, 1, 3, 2], [0, 2, 3, 1, 2, 3, 2, 2, 3, 1]],
    "o_unique": [[3, 2, 3, 3, 2, 3, 2, 0, 1], [2, 2, 3, 0, 0, 0, 2, 2, 3]],
    "x_ties": [[3, 3, 3, 1, 2, 0, 0, 1, 3, 0], [0, 2, 2, 2, 1, 3, 3, 3, 3, 2]],
}
#: Reversi 4x4 without a pass move, Black to move: below the only best move a player is skipped, so a
#: search that takes turns by depth (MAX, MIN, MAX, ...) lets the wrong player choose there.
REVERSI_SKIP = [["..W.", "BWWB", "WBB.", "WBBB"], [".W..", "BBW.", "BBWW", "B.B."]]
#: The same, for the value: below these a player is skipped, and a search that takes turns by depth finds another
#: value at the root (Black to move).
REVERSI_SKIP_VALUE = [["W.WB", "BWB.", "BBW.", "B..."], ["...B", ".WBB", ".BWB", "BW.W"]]
#: Reversi 4x4 with its null move, Black to move: Black cannot place a disc, so its only action is "pass" (reached by
#: (0, 1), (0, 2), (3, 3), (3, 2), (0, 3), (2, 0), (3, 1), (0, 0), (2, 3), (1, 3) from the start).
REVERSI_PASS = ["WBBB", ".WWW", "WBBB", ".BBB"]
#: The shared trees lab 02 uses (each group keeps those whose root player it grades).
TREE_IDS = ["sixteen", "eight", "aima", "aima-min", "unbalanced", "tie-cut", "tie-min-cut", "deep-cut",
            "mixed-depths", "chain", "terminal-root", "negative"]


def ttt_case(text: str, prefix: str = "") -> Case:
    g = TicTacToe()
    return Case(f"{prefix}ttt-{text}", f"{prefix and 'secret '}Tic-Tac-Toe {text.replace('/', ' ')}", g,
                g.state_from(text.split("/")))


def c4_case(moves: list[int]) -> Case:
    g = ConnectFour(4, 4)
    return Case("c4-" + "".join(map(str, moves)), f"ConnectFour 4x4 after the columns {moves}", g, g.play(moves))


def reversi_case(rows: list[str]) -> Case:
    g = Reversi(4, null_move=False)
    return Case("reversi-skip-" + "".join(rows).replace(".", "_"),
                f"Reversi 4x4 without a pass move (a player who cannot place a disc is skipped), "
                f"Black to move on {' '.join(rows)}", g, g.state_from(rows, "B"))


def reversi_pass_case(rows: list[str]) -> Case:
    g = Reversi(4)
    return Case("reversi-pass-" + "".join(rows).replace(".", "_"),
                f'Reversi 4x4 (a player who cannot place a disc plays the null move "pass"), Black to move on '
                f"{' '.join(rows)}", g, g.state_from(rows, "B"))


def race_case(n: int, k: int, total: int, player: str = "P1") -> Case:
    return Case(f"race-{n}-{k}-{total}-{player}", f"RaceTo({n}, {k}) at total {total}, {player} to move",
                RaceTo(n, k), RaceState(total, player))


def nim_case(heaps: tuple, first_move: tuple | None = None) -> Case:
    g = ReferenceNim(heaps)
    tag = "nim-" + "-".join(map(str, heaps))
    if first_move is None:
        return Case(tag, f"Nim({heaps})", g, g.initial)
    s = g.result(g.initial, first_move)
    return Case(f"{tag}-after-{first_move[0]}-{first_move[1]}",
                f"Nim({heaps}) after P1 took {first_move} (heaps {s.heaps}, P2 to move)", g, s)


def kind(game: Any, state: Any) -> str:
    """'unique' when one root move has the best minimax value, 'tie' when several do."""
    _, value = ref.search_model(game, state, ref.CORRECT)
    vals = [value(game.result(state, a)) for a in game.actions(state)]
    return "unique" if vals.count(max(vals)) == 1 else "tie"


def random_position(rng: random.Random, keep: Callable[[Any, Any], bool], prefix: str = "", plies: tuple = (3, 5),
                    tries: int = 400) -> Case | None:
    """A Tic-Tac-Toe position reached by random moves that `keep(game, state)` accepts."""
    g = TicTacToe()
    for _ in range(tries):
        s = g.initial
        for _ in range(rng.randint(*plies)):
            if g.is_terminal(s):
                break
            s = g.result(s, rng.choice(g.actions(s)))
        if not g.is_terminal(s) and keep(g, s):
            return ttt_case("/".join(s.board[i:i + 3] for i in range(0, 9, 3)), prefix)
    return None


def seeded_positions(group: str, keep: Callable[[Any, Any], bool], count: int) -> list[Case]:
    """Random Tic-Tac-Toe positions; a secret seed adds twice as many."""
    out = []
    sources = [common.rng(LAB, group)] + ([common.rng(LAB, group, secret=True)] if common.has_secret() else [])
    for i, rng in enumerate(sources):
        for _ in range(count * (1 + 2 * i)):
            c = random_position(rng, keep, "secret-" if i else "")
            if c is not None and c not in out:
                out.append(c)
    return out


def tree_cases(group: str, root: str, count: int = 6, only: Callable[[GameTree], bool] | None = None,
               seeded: bool = True) -> list[Case]:
    """Shared trees whose root player is `root`, then seeded random ones (and secret ones)."""
    out = [Case(id, trees.name(id), t, t.initial) for id in TREE_IDS for t in [trees.tree(id)]
           if t.to_move(t.initial) == root]
    sources = [(common.rng(LAB, group), count, "")]
    if common.has_secret():
        sources.append((common.rng(LAB, group, secret=True), 2 * count, "secret "))
    for rng, n, prefix in sources if seeded else []:
        made = 0
        for _ in range(60 * n):
            if made == n:
                break
            t = trees.random_tree(rng, max_depth=rng.randint(2, 5), max_branching=rng.randint(2, 4), root=root)
            if only is None or only(t):
                made += 1
                out.append(Case(f"{prefix.strip() or 'random'}-{root}-{made}",
                                f"{prefix}random tree #{made} ({root} at the root)", t, t.initial))
    return [c for c in out if only(c.game)] if only is not None else out


def decidable(which: str) -> Callable[[GameTree], bool]:
    return lambda t: not t.is_terminal(t.initial) and kind(t, t.initial) == which


def nim_xor_heaps() -> list[tuple]:
    """Every Nim start with two heaps of at most 4 or three heaps of at most 3 (sizes sorted)."""
    two = [(a, b) for a in range(5) for b in range(a, 5)]
    three = [(a, b, c) for a in range(4) for b in range(a, 4) for c in range(b, 4)]
    return two + three


def value_first_player(group: str, seeded: bool = True) -> list[Case]:
    out = (tree_cases(group, "MAX", seeded=seeded) + [race_case(10, 3, 0), race_case(7, 2, 0), race_case(10, 4, 1)]
           + [ttt_case(p) for p in TTT["x_unique"][:4] + TTT["x_ties"][:2]]
           + [c4_case(m) for m in C4["x_unique"] + C4["x_ties"][:1]] + [reversi_case(r) for r in REVERSI_SKIP_VALUE])
    out += seeded_positions(group, lambda g, s: g.to_move(s) == "X", 2) if seeded else []
    # last, so that every earlier first failure stays: a game longer than Tic-Tac-Toe's 9 plies (10 moves of 1)
    return out + [race_case(10, 1, 0)]


def value_second_player(group: str, seeded: bool = True) -> list[Case]:
    out = (tree_cases(group, "MIN", seeded=seeded)
           + [race_case(10, 3, 1, "P2"), race_case(10, 3, 2, "P2"), race_case(9, 2, 3, "P2")]
           + [ttt_case(p) for p in TTT["o_unique"]] + [c4_case(m) for m in C4["o_unique"]]
           + [nim_case((1, 2, 3), (2, 1)), nim_case((2, 2), (0, 2)), nim_case((1, 3), (1, 1))])
    return out + (seeded_positions(group, lambda g, s: g.to_move(s) == "O", 2) if seeded else [])


def trace_cases(group: str, seeded: bool = True) -> list[Case]:
    out = tree_cases(group, "MAX", 4, seeded=seeded) + tree_cases(group, "MIN", 2, seeded=seeded)
    out += [race_case(7, 3, 0), race_case(10, 3, 3, "P2"), ttt_case(TTT["x_unique"][0]),
            ttt_case(TTT["o_unique"][1]), c4_case(C4["x_ties"][1]), nim_case((1, 2, 2)), nim_case((1, 2), (1, 1))]
    return out if group == "value_trace" else [c for c in out if not c.game.is_terminal(c.state)]


def decision_cases(seeded: bool = True) -> list[Case]:
    out = tree_cases("decision", "MAX", only=decidable("unique"), seeded=seeded)
    out += [ttt_case(p) for p in TTT["x_unique"]] + [c4_case(m) for m in C4["x_unique"]]
    out += [race_case(10, 3, 0), race_case(10, 3, 5), race_case(10, 4, 1), nim_case((1, 3)), nim_case((2, 2, 1)),
            nim_case((1, 2, 4))]
    out += [reversi_case(rows) for rows in REVERSI_SKIP]
    keep = lambda g, s: g.to_move(s) == "X" and kind(g, s) == "unique"  # noqa: E731
    out += seeded_positions("decision", keep, 3) if seeded else []
    return out + [reversi_pass_case(REVERSI_PASS)]  # last, so that every earlier first failure stays


def decision_second_player(seeded: bool = True) -> list[Case]:
    out = tree_cases("decision_second_player", "MIN", only=decidable("unique"), seeded=seeded)
    return out + [c for c in value_second_player("decision_second_player", seeded)
                  if not isinstance(c.game, GameTree) and kind(c.game, c.state) == "unique"]


def decision_ties(seeded: bool = True) -> list[Case]:
    out = tree_cases("decision_ties", "MAX", only=decidable("tie"), seeded=seeded)
    out += [ttt_case(p) for p in TTT["x_ties"]] + [c4_case(m) for m in C4["x_ties"]]
    out += [race_case(10, 3, 2), race_case(10, 3, 6), nim_case((1, 2, 3)), nim_case((2, 2)), nim_case((1, 1, 1))]
    keep = lambda g, s: g.to_move(s) == "X" and kind(g, s) == "tie"  # noqa: E731
    return out + (seeded_positions("decision_ties", keep, 2) if seeded else [])


def quick_win_cases(seeded: bool = True) -> list[Case]:
    out = [ttt_case(p) for p in TTT["quick"]] + [ttt_case(TTT["x_unique"][0]), ttt_case(TTT["o_unique"][2])]
    out += [race_case(10, 3, 5), race_case(10, 3, 6), nim_case((1, 2)), nim_case((1, 1, 2)), nim_case((2, 2))]
    keep = lambda g, s: g.to_move(s) == "X" and len(g.actions(s)) <= 6  # noqa: E731
    return out + (seeded_positions("quick_win", keep, 3) if seeded else [])


#: Each group's cases: ``cases[group](seeded)``.
CASES: dict[str, Callable[[bool], list[Case]]] = {
    "value": lambda seeded=True: value_first_player("value", seeded),
    "value_second_player": lambda seeded=True: value_second_player("value_second_player", seeded),
    "value_trace": lambda seeded=True: trace_cases("value_trace", seeded),
    "decision": decision_cases,
    "decision_second_player": decision_second_player,
    "decision_ties": decision_ties,
    "decision_trace": lambda seeded=True: trace_cases("decision_trace", seeded),
    "quick_win": quick_win_cases,
}


def probes(kind: str) -> list[Case]:
    """The probes that find a submission's profile (`kind` 'value' or 'decision')."""
    aima = GameTree.from_nested(trees.AIMA, root="MIN")
    unbalanced = trees.tree("unbalanced")
    out = [Case("sixteen", trees.name("sixteen"), trees.tree("sixteen"), "P1.0"),
           Case("aima-min", "AIMA's tree with MIN at the root", aima, "P2.0"),
           Case("unbalanced", trees.name("unbalanced"), unbalanced, "P1.0")]
    if kind == "value":
        tie = trees.tree("tie-min-cut")
        return out + [Case("tie-min-cut", trees.name("tie-min-cut"), tie, "P2.0"), race_case(5, 2, 1, "P2")]
    return out + [Case("root-tie", "a tie between root moves", GameTree.from_nested([[5, 6], [5, 9], [4, 7], [5, 8]]),
                       "P1.0"),
                  Case("min-root-tie", "a MIN-root tie", GameTree.from_nested([[1, 9], [2, 9], [3, 9]], root="MIN"),
                       "P2.0"),
                  ttt_case("X.O/OXX/..O"), ttt_case("XO./OX./...")]
