"""What lab 08 gives its learner: Tic-Tac-Toe features, the squashing to a win probability, the reward, a
fixed hand-made evaluation, matches, figures of a training run (each with a text alternative from the same
numbers), and the message that explains the first wrong step of a learner's record.

The evaluation of a position for a player is ``value(weights, features(state, player))``: a weighted sum of
the features squashed into (0, 1), the learner's estimate of the probability that the player wins (a draw
counts a half). Nothing here learns: the learning is what the lab asks for.

>>> from course_lib.games import TicTacToe
>>> g = TicTacToe()
>>> s = g.state_from(["X..", ".O.", "..."])
>>> features(s, "X")
[1.0, 2.0, 0.0, 3.0, 0.0, -1.0, 1.0]
>>> round(value([0.0] * N_FEATURES, features(s, "X")), 3)
0.5
"""

from __future__ import annotations

import base64
import json
import math
import zlib
from typing import Any, Callable, NamedTuple, Sequence

from .draw import Picture

FEATURE_NAMES = ("bias", "my lines with 1", "my lines with 2", "their lines with 1", "their lines with 2",
                 "centre", "corners")
N_FEATURES = len(FEATURE_NAMES)
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
CORNERS = (0, 2, 6, 8)

#: A fixed evaluation written by hand (not learned): two in an open line matter most, the centre helps.
HAND_WEIGHTS = (0.0, 0.2, 1.0, -0.2, -1.5, 0.5, 0.2)


def _other(player: str) -> str:
    return "O" if player == "X" else "X"


def features(state: Any, player: str) -> list[float]:
    """The 7 features of a 3 x 3 Tic-Tac-Toe position for `player` (see `FEATURE_NAMES`): a bias of 1; the lines
    open to `player` (no opposing mark) holding 1 and 2 of its marks; the same for the other player; the centre
    (1 if `player` holds it, -1 if the other does); corners held by `player` minus the other's."""
    board, them = state.board, _other(player)
    if len(board) != 9:
        raise ValueError("features are defined for the 3 x 3 board")
    f = [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    for line in LINES:
        marks = [board[i] for i in line]
        mine, theirs = marks.count(player), marks.count(them)
        if theirs == 0 and mine in (1, 2):
            f[mine] += 1.0
        if mine == 0 and theirs in (1, 2):
            f[2 + theirs] += 1.0
    f[5] = 1.0 if board[4] == player else -1.0 if board[4] == them else 0.0
    f[6] = float(sum(board[i] == player for i in CORNERS) - sum(board[i] == them for i in CORNERS))
    return f


def squash(x: float) -> float:
    """The logistic function 1 / (1 + e^-x), from (-inf, inf) to (0, 1), without overflow.

    >>> squash(0.0), round(squash(2.0), 4)
    (0.5, 0.8808)
    """
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def value(weights: Sequence[float], feats: Sequence[float]) -> float:
    """The squashed weighted sum: the estimated probability of a win (draw = a half) for the features' player."""
    return squash(sum(w * f for w, f in zip(weights, feats)))


def reward(game: Any, state: Any, player: str) -> float:
    """A finished game on the same scale: 1 for a win of `player`, 0.5 for a draw, 0 for a loss."""
    return (game.utility(state, player) + 1) / 2


class Step(NamedTuple):
    """One update of a self-play episode, as the learner records it."""

    state: Any          # the position before the move (the one whose value is updated)
    action: Any         # the move played from it
    value: float        # its value before the update, for the player to move there
    target: float       # the value it is moved towards (the best move's value)
    error: float        # target - value: the TD error
    trace: list         # the eligibility trace after this step
    weights: list       # the weights after this update


# -- playing with fixed weights ------------------------------------------------------------------------

def play_game(game: Any, choose: dict, rng: Any, epsilon: float = 0.0) -> Any:
    """One game where ``choose[player](state)`` picks each player's move (a random one with probability `epsilon`,
    drawn from `rng`); the final state."""
    s = game.initial
    while not game.is_terminal(s):
        acts = game.actions(s)
        if epsilon and rng.random() < epsilon:
            a = rng.choice(acts)
        else:
            a = choose[game.to_move(s)](s)
        s = game.result(s, a)
    return s


def random_player(game: Any, rng: Any) -> Callable[[Any], Any]:
    """A player that moves at random (from `rng`)."""
    return lambda s: rng.choice(game.actions(s))


def match(game: Any, me: Callable[[Any], Any], other: Callable[[Any], Any], games: int, rng: Any,
          epsilon: float = 0.0) -> tuple[int, int, int]:
    """(wins, draws, losses) of `me` over `games` games, taking X in the even-numbered games and O in the odd."""
    w = d = lost = 0
    for i in range(games):
        mark = "X" if i % 2 == 0 else "O"
        final = play_game(game, {mark: me, _other(mark): other}, rng, epsilon)
        u = game.utility(final, mark)
        w, d, lost = w + (u > 0), d + (u == 0), lost + (u < 0)
    return w, d, lost


# -- figures, each with its text alternative -----------------------------------------------------------------

def _figure(size: tuple[float, float] = (6.5, 3.8)) -> tuple[Any, Any]:
    from matplotlib.figure import Figure

    figure = Figure(figsize=size, layout="constrained")
    return figure, figure.add_subplot()


def curve_text(curve: Sequence[tuple[int, dict]]) -> str:
    """The learning curve in words: for each checkpoint, the wins, draws and losses against each opponent."""
    if not curve:
        return "Learning curve: no checkpoint."
    parts = []
    for games, results in curve:
        against = "; ".join(f"against {name}: {w} won, {d} drawn, {lost} lost" for name, (w, d, lost)
                            in results.items())
        parts.append(f"after {games} games, {against}")
    total = sum(curve[0][1][next(iter(curve[0][1]))])
    return f"Learning curve ({total} games per checkpoint): " + "; ".join(parts) + "."


def learning_curve(curve: Sequence[tuple[int, dict]], *, title: str | None = None) -> Picture:
    """Win and loss rates against each opponent after every checkpoint: `curve` is ``[(games trained,
    {opponent: (wins, draws, losses)}), ...]``. Lines differ by marker and dash, not by colour alone."""
    figure, ax = _figure()
    styles = {"win": ("-", "o"), "loss": (":", "v")}
    palette = ("#0072B2", "#E69F00", "#009E73", "#CC79A7")  # Okabe-Ito, safe for the common colour deficiencies
    xs = [g for g, _ in curve]
    names = list(curve[0][1]) if curve else []
    for k, name in enumerate(names):
        for j, what in enumerate(("win", "loss")):
            ys = []
            for _, res in curve:
                w, d, lost = res[name]
                ys.append((w if what == "win" else lost) / max(1, w + d + lost))
            dash, marker = styles[what]
            ax.plot(xs, ys, linestyle=dash, marker=marker if k == 0 else "sD"[j], color=palette[k % 4],
                    label=f"{what} rate against {name}", gid=f"line:{name}:{what}")
    ax.set_xlabel("self-play games trained")
    ax.set_ylabel("share of the evaluation games")
    ax.set_ylim(-0.02, 1.02)
    ax.grid(True, alpha=0.3)
    if names:  # below the axes, where it hides no point of a curve
        ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2)
    ax.set_title(title or "learning curve of your self-play learner", fontsize=10)
    p = Picture(figure, ax)
    p.alt = curve_text(curve)
    return p


def weights_text(history: Sequence[tuple[int, Sequence[float]]]) -> str:
    """The weights over training in words: each feature's weight at the start and at the end."""
    if not history:
        return "Weights over training: none recorded."
    (g0, w0), (g1, w1) = history[0], history[-1]
    parts = [f"{name} from {w0[i]:.3g} to {w1[i]:.3g}" for i, name in enumerate(FEATURE_NAMES)]
    return f"Weights from game {g0} to game {g1}: " + ", ".join(parts) + "."


def weights_chart(history: Sequence[tuple[int, Sequence[float]]], *, title: str | None = None) -> Picture:
    """Each feature's weight against the games trained (`history`: ``[(games, weights), ...]``); each line has its
    own marker and its name at its end."""
    figure, ax = _figure()
    palette = ("#000000", "#0072B2", "#56B4E9", "#D55E00", "#E69F00", "#009E73", "#CC79A7")
    xs = [g for g, _ in history]
    for i, name in enumerate(FEATURE_NAMES):
        ys = [w[i] for _, w in history]
        ax.plot(xs, ys, marker="os^vD<>"[i], markevery=max(1, len(xs) // 8), color=palette[i], label=name,
                gid=f"line:{name}")
        if xs:
            ax.annotate(name, (xs[-1], ys[-1]), fontsize=7, xytext=(3, 0), textcoords="offset points")
    ax.set_xlabel("self-play games trained")
    ax.set_ylabel("weight")
    ax.grid(True, alpha=0.3)
    if xs:
        ax.legend(fontsize=7, ncol=2)
    ax.set_title(title or "your weights as training goes", fontsize=10)
    p = Picture(figure, ax)
    p.alt = weights_text(history)
    return p


def values_text(rows: Sequence[tuple[str, str, float, float]]) -> str:
    """Learned against exact values in words: one sentence per position."""
    return "Learned value beside exact value, for the player to move: " + "; ".join(
        f"{name} ({mover} to move): learned {learned:.2f}, exact {exact:.2f}" for name, mover, learned, exact
        in rows) + "."


def values_chart(rows: Sequence[tuple[str, str, float, float]], *, title: str | None = None) -> Picture:
    """For each position (name, player to move, learned value, exact value on the 0..1 scale), two bars side by side:
    hatched for the learned value, plain for the exact one, each labelled with its number."""
    figure, ax = _figure((6.5, 3.6))
    n = len(rows)
    xs = list(range(n))
    learned = ax.bar([x - 0.2 for x in xs], [r[2] for r in rows], 0.4, color="#56B4E9", hatch="//",
                     edgecolor="black", label="learned value", gid="bars:learned")
    exact = ax.bar([x + 0.2 for x in xs], [r[3] for r in rows], 0.4, color="#E69F00", edgecolor="black",
                   label="exact minimax value", gid="bars:exact")
    ax.bar_label(learned, fmt="%.2f", fontsize=7)
    ax.bar_label(exact, fmt="%.2f", fontsize=7)
    ax.set_xticks(xs, [f"{r[0]}\n({r[1]} to move)" for r in rows], fontsize=7)
    ax.set_ylim(0, 1.15)
    ax.set_ylabel("win probability for the player to move")
    ax.legend(fontsize=8)
    ax.set_title(title or "learned values beside exact values", fontsize=10)
    p = Picture(figure, ax)
    p.alt = values_text(rows)
    return p


# -- the first wrong step of a record ----------------------------------------------------------------------

def _g(x: float) -> str:
    """A number in four significant digits; one that is zero but for rounding (5.551e-17) as 0."""
    return "0" if abs(x) < 1e-12 else f"{x:.4g}"


def _nums(xs: Sequence[float]) -> str:
    return "[" + ", ".join(_g(x) for x in xs) + "]"


def _board(state: Any) -> str:
    return "  " + str(state).split("\n(")[0].replace("\n", "\n  ")


#: How a message names each field of a `Step`.
FIELD_WORDS = {"state": "position", "action": "move", "value": "value", "target": "target", "error": "TD error",
               "trace": "trace", "weights": "weights"}


def first_wrong_update(case_name: str, index: int, want: Step, got: Any, fields: Sequence[str],
                       move_values: Sequence[tuple[Any, float]] | None = None, tol: float = 1e-6,
                       drawn: tuple | None = None, own: Sequence[str] = (),
                       compared: Sequence[str] = ()) -> str:
    """The message for the first update whose record leaves the correct one: where (the update's number and the
    position before the move), what the correct learner held there (value, target, error), the rule of the first
    field that differs, and what the student's record has. `want` is the correct step from the student's own
    state before it (position, weights, trace, generator); `fields` are the fields that differ, in record order.
    `drawn` = (the number rng.random() gives there, epsilon, the move rng.choice then draws or None); `own` names
    the fields of `want` taken from the student's record (said so, never claimed as the correct learner's);
    `compared` names the fields a test compares when it does not compare them all (the message then says so)."""
    what = "your record first differs from the correct one"
    if compared:
        what += " in what this test compares (" + ", ".join(FIELD_WORDS.get(f, f) for f in compared) + ")"
    lines = [f"{case_name}: {what} at update {index + 1}, from the position below "
             f"({getattr(want.state, 'to_move', '?')} to move):", _board(want.state)]
    if "target" in own:
        lines.append(f"There the correct learner, from your weights before this update, has value {_g(want.value)}; "
                     f"this test takes the target ({_g(want.target)}) and the TD error ({_g(want.error)}) from "
                     f"your record.")
    else:
        lines.append(f"There the correct learner, from your weights before this update, has value "
                     f"{_g(want.value)}, target {_g(want.target)} and TD error {_g(want.error)}.")
    first = fields[0]
    if first == "action":
        best = None
        if move_values:
            top = max(v for _, v in move_values)
            best = next((a, v) for a, v in move_values if v == top)
        if drawn is not None:
            number, epsilon = drawn[0], drawn[1]
            chosen = drawn[2] if len(drawn) > 2 and drawn[2] is not None else want.action
            if number == epsilon:
                rule = (f"Its rng.random() gives {number!r}, exactly epsilon: that is not below epsilon, so it does not "
                        f"explore; it plays the first move of largest value, "
                        + (f"{best[0]} (worth {_g(best[1])})." if best is not None else f"{want.action}."))
            elif number < epsilon:
                rule = (f"Its rng.random() gives {_g(number)}, below epsilon = {epsilon:g}, so it explores: "
                        f"rng.choice(game.actions(state)) draws {chosen}, the move it plays.")
            elif best is not None:
                rule = (f"Its rng.random() gives {_g(number)}, not below epsilon = {epsilon:g}, so it plays the first "
                        f"move of largest value, {best[0]} (worth {_g(best[1])}).")
            else:
                rule = (f"Its rng.random() gives {_g(number)}, not below epsilon = {epsilon:g}, so it plays the first "
                        f"move of largest value, {want.action}.")
        else:
            rule = ("It draws rng.random() once; below epsilon it plays rng.choice(game.actions(state)), else the first "
                    f"move of largest value. The move it plays here is {want.action}.")
        if move_values:
            rule += " Move values for the player to move: " + ", ".join(
                f"{a}: {_g(v)}" for a, v in move_values[:9]) + "."
        lines.append(rule)
    elif first == "state":
        lines.append("Each Step records the position before its move (the one whose value is updated), shown above.")
    elif first == "value":
        lines.append("The value is value(weights, features(state, p)) with p the player to move there, taken before "
                     "the move and before the update.")
    elif first == "target":
        lines.append("The target is the largest move value of the one-ply search (a finished game's reward, else "
                     "1 - the value of the position for the next player), whichever move is then played.")
    elif first == "error":
        lines.append("The TD error is target - value.")
    elif first == "trace":
        lines.append("The trace becomes -lam * trace + value * (1 - value) * features (the sign flips because the "
                     f"previous position was the other player's); here {_nums(want.trace)}.")
    elif first == "weights":
        lines.append("Each weight moves by alpha * error * its trace entry (with lam = 0: alpha * error * value * "
                     f"(1 - value) * feature); here the weights become {_nums(want.weights)}.")
    elif first == "length":
        lines.append("An episode records one update for every move, until the game ends.")
    else:
        lines.append(f"The {first} differs.")
    if got is None:
        lines.append("Yours recorded no update there.")
    elif first == "action":
        lines.append(f"Yours played {got.action!r}.")
    elif first == "state":
        where = getattr(got.state, "to_move", None)
        lines.append(f"Yours recorded this position ({where} to move):\n{_board(got.state)}" if where is not None
                     else f"Yours recorded state {got.state!r:.120}.")
    elif first in ("trace", "weights"):
        lines.append(f"Yours recorded {first} {_nums(getattr(got, first))}.")
    elif first == "length":
        lines.append("Yours recorded more updates after the game had ended.")
    else:
        v = getattr(got, first)
        lines.append(f"Yours recorded {first} {_g(v)}." if isinstance(v, float) else f"Yours recorded {first} {v!r}.")
    return "\n".join(lines)


def shared_note(record: Sequence[Any], field: str) -> str:
    """A line for a record whose steps all hold the same `field` (trace or weights), equal to the last step's: what
    one list, kept and changed in place and stored in every Step, shows once the game is over. Empty otherwise."""
    rows = [list(getattr(Step(*x), field)) for x in record]
    if len(rows) < 2 or any(r != rows[-1] for r in rows):
        return ""
    return (f"\nEvery one of your {len(rows)} recorded steps holds the same {FIELD_WORDS.get(field, field)}, "
            f"{_nums(rows[-1])}: the one after the last update. That is what a record shows when one list is kept, "
            f"changed in place at each step and stored in every Step: each Step needs its own copy (list(...)).")


# -- positions whose exact value is known, and records as data ------------------------------------------------

#: (name, the board's rows, the exact minimax value for the player to move, on the 0..1 scale of `reward`).
EXACT_POSITIONS = (
    ("empty board", ("...", "...", "..."), 0.5),
    ("X corner, O centre", ("X..", ".O.", "..."), 0.5),
    ("X wins in one", ("XX.", "OO.", "..."), 1.0),
    ("O cannot stop X", ("XX.", "O..", "..."), 0.0),
    ("X corner, O edge", ("XO.", "...", "..."), 1.0),
)


def encode_record(history: Sequence[Any], moves: Sequence[Sequence[tuple]] = (), draws: Sequence[tuple] = ()) -> list:
    """A record as plain data (JSON): each step's board, player to move, move, numbers, (given `moves`) the correct
    move values at that step and (given `draws`) its draws: (what rng.random() gave, epsilon, the move rng.choice
    drew or None)."""
    return [[s[0].board, s[0].to_move, list(s[1]), s[2], s[3], s[4], list(s[5]), list(s[6]),
             [[list(a), v] for a, v in moves[i]] if i < len(moves) else None,
             [draws[i][0], draws[i][1], list(draws[i][2]) if draws[i][2] is not None else None]
             if i < len(draws) else None] for i, s in enumerate(history)]


def pack(rows: list) -> str:
    """`encode_record` rows as one short line of text (JSON, compressed, base64), to ship beside a public case."""
    return base64.b64encode(zlib.compress(json.dumps(rows, separators=(",", ":")).encode(), 9)).decode()


def unpack(text: str) -> list:
    """The rows `pack` wrote."""
    return json.loads(zlib.decompress(base64.b64decode(text)))


def record_message(case_name: str, got: Sequence[Any], want: list | str, tol: float = 1e-6, *, game: Any = None,
                   move_values: Callable[..., Any] | None = None, td_update: Callable[..., Any] | None = None,
                   alpha: float = 0.0, start: Sequence[float] = ()) -> str | None:
    """The first update of `got` (a record of Steps) that leaves `want` (`encode_record` of the correct one, from
    the same start, or `pack` of it), explained by `first_wrong_update`; None when they agree within `tol`.

    A test cell grades only its own function: with `move_values` (and `game`), a record that first differs where
    that function, graded elsewhere, gives other move values than the correct ones is not blamed here (None); with
    `td_update` (lam = 0, `alpha`, the `start` weights), new weights equal to what it returns are accepted."""
    if isinstance(want, str):
        want = unpack(want)
    names = ("action", "value", "target", "error", "trace", "weights")
    before = list(start)
    for i, row in enumerate(want):
        board, mover, action, v, target, error, trace, weights, moves = row[:9]
        draw = row[9] if len(row) > 9 else None
        ok = _State(board, mover)
        correct = Step(ok, tuple(action), v, target, error, trace, weights)
        if i >= len(got):
            return first_wrong_update(case_name, i, correct, None, ["length"], tol=tol)
        step = Step(*got[i])
        if getattr(step.state, "board", None) != board:
            return (f"{case_name}: your record first differs from the correct one at update {i + 1}: its position "
                    f"should be\n{ok}\nYours recorded\n{step.state}")
        bad = [n for n in names if not _near(getattr(step, n), getattr(correct, n), tol)]
        if bad and move_values is not None and moves is not None and before:
            mine = [(tuple(a), x) for a, x in move_values(game, step.state, list(before))]
            if not _near([x for _, x in mine], [x for _, x in moves], tol) or [a for a, _ in mine] != \
                    [tuple(a) for a, _ in moves]:
                return None  # your move_values differs here: test_move_values grades it
        if bad == ["weights"] and td_update is not None and before:
            mine_w = td_update(list(before), features(step.state, step.state.to_move), step.target, alpha)
            if _near(list(step.weights), list(mine_w), tol):
                bad = []  # your own td_update's step (graded in test_td_update)
        if bad:
            values = [(tuple(a), x) for a, x in moves] if moves is not None and bad[0] == "action" else None
            drawn = (draw[0], draw[1], tuple(draw[2]) if draw[2] is not None else None) if draw else None
            return first_wrong_update(case_name, i, correct, step, bad, values, tol=tol, drawn=drawn) + (
                shared_note(got, bad[0]) if bad[0] in ("trace", "weights") else "")
        before = list(step.weights)
    if len(got) > len(want):
        return first_wrong_update(case_name, len(want), Step(*got[-1]), Step(*got[len(want)]), ["length"], tol=tol)
    return None


class _State(NamedTuple):
    board: str
    to_move: str

    def __str__(self) -> str:
        return "\n".join("  " + " ".join(self.board[r * 3:r * 3 + 3]) for r in range(3))


def _near(a: Any, b: Any, tol: float) -> bool:
    if isinstance(b, (list, tuple)):
        return isinstance(a, (list, tuple)) and len(a) == len(b) and all(_near(x, y, tol) for x, y in zip(a, b))
    if isinstance(b, float) and isinstance(a, (int, float)) and not isinstance(a, bool):
        return math.isclose(a, b, rel_tol=tol, abs_tol=tol)
    return a == b


# -- TDLeaf: the value of a position from the leaf of a search ------------------------------------------------

class LeafStep(NamedTuple):
    """One TDLeaf update, as `td_leaf_update` returns it."""

    leaf: Any        # the leaf of the principal variation the search returns for the position
    value: float     # the leaf's value for the player to move at the position, before the update
    target: float    # the next position's value for that player, from the next position's own leaf
    error: float     # target - value: the TD error
    weights: list    # the weights after the update


LEAF_WORDS = {"leaf": "leaf", "value": "value", "target": "target", "error": "TD error", "weights": "weights"}


def _asked(calls: Sequence[tuple]) -> str:
    if not calls:
        return "nothing"
    return "; ".join(f"the position {board[0:3]}/{board[3:6]}/{board[6:9]} (rows top to bottom) at depth {depth}"
                     + ("" if same else ", with other weights than your weights before this update")
                     for board, depth, same in calls)


def first_wrong_leaf_update(case_name: str, index: int, state: Any, next_state: Any, depth: int, want: LeafStep,
                            got: Any, fields: Sequence[str], asked: Sequence[tuple] | None = None,
                            wanted: Sequence[tuple] | None = None, compared: Sequence[str] = (),
                            finished: tuple[bool, bool] = (False, False)) -> str:
    """The message for the first TDLeaf update that leaves the correct one: where (the update's number, the position
    and the depth), what the correct learner holds there (its leaf, value, target and TD error, from the student's
    weights before the update), the rule of the first field that differs, and what the student's update returned.
    `asked` and `wanted` are the searches (board, depth, same weights) the student's update and the correct one
    asked for, shown when they differ; `finished` says whether the correct leaf and the next position are finished
    games."""
    p = getattr(state, "to_move", "?")
    what = "your record first differs from the correct one"
    if compared:
        what += " in what this test compares (" + ", ".join(LEAF_WORDS.get(f, f) for f in compared) + ")"
    lines = [f"{case_name}: {what} at update {index + 1}, from the position below ({p} to move), searched "
             f"{depth} {'ply' if depth == 1 else 'plies'} deep:", _board(state),
             "There the correct learner, from your weights before this update, gets this leaf from the search ("
             + ("a finished game" if finished[0] else f"{getattr(want.leaf, 'to_move', '?')} to move there") + "):",
             _board(want.leaf),
             f"Its value for {p} is {_g(want.value)}; "
             + ("the next position (below) is a finished game, valued by its reward: its reward for {p} is the "
                "target, {t}; " if finished[1] else
                "the next position's leaf gives the target {t}; ").format(p=p, t=_g(want.target))
             + f"TD error {_g(want.error)}."]
    if finished[1]:
        lines.append(_board(next_state))
    first = fields[0]
    if first == "leaf":
        lines.append("The leaf is what search(state, depth, weights) returns for this position: the last "
                     "position of its principal variation.")
    elif first == "value":
        lines.append(f"The value is the leaf's value for the player to move at the searched position ({p}): "
                     f"value(weights, features(leaf, {p})), or reward(game, leaf, {p}) when the leaf is a finished "
                     "game.")
    elif first == "target":
        lines.append(f"The target is the next position's value for {p}: its reward for {p} when it ends the game, "
                     "else 1 - the value, for the player to move there, of the leaf the search returns for it (same "
                     "depth, same weights).")
    elif first == "error":
        lines.append("The TD error is target - value.")
    elif first == "weights":
        lines.append(f"Each weight moves by alpha * error * v * (1 - v) * feature, with the features of the LEAF for "
                     f"{p} (a finished leaf has none: the weights stay); here the weights become "
                     f"{_nums(want.weights)}.")
    else:
        lines.append(f"The {first} differs.")
    if got is None:
        lines.append("Yours returned nothing there.")
    elif first == "leaf":
        where = getattr(got.leaf, "to_move", None)
        lines.append(f"Yours returned this leaf ({where} to move):\n{_board(got.leaf)}" if where is not None
                     else f"Yours returned leaf {got.leaf!r:.120}.")
    elif first == "weights":
        lines.append(f"Yours returned weights {_nums(got.weights)}.")
    else:
        v = getattr(got, first)
        lines.append(f"Yours returned {first} {_g(v)}." if isinstance(v, float) else f"Yours returned {first} {v!r}.")
    if asked is not None and wanted is not None and list(asked) != list(wanted):
        lines.append(f"The correct learner asks the search about {_asked(wanted)}. Yours asked about {_asked(asked)}.")
    return "\n".join(lines)


def leaf_table_search(game: Any, leaves: Sequence[Sequence], asked: list | None = None) -> Callable[..., Any]:
    """A stand-in for a search in a visible test: ``search(state, depth, weights)`` returns the leaf its table
    holds for the position and depth, from the row whose weights are nearest to `weights` (`leaves`: rows
    ``[board, depth, weights, leaf board]``, the searches of the correct run of one game; a finished position is
    its own leaf), and appends
    ``(board, depth)`` to `asked` at each call."""
    def search(state: Any, depth: int, weights: Sequence[float]) -> Any:
        board = getattr(state, "board", None)
        if asked is not None:
            asked.append((board, depth))
        if game.is_terminal(state):
            return state  # a finished game is its own leaf
        rows = [r for r in leaves if r[0] == board and r[1] == depth]
        if not rows:
            raise KeyError(f"this test's search knows only the positions of its own game, at depth "
                           f"{sorted({r[1] for r in leaves})}; it was asked about {board!r} at depth {depth!r}")
        best = min(rows, key=lambda r: max(abs(a - b) for a, b in zip(r[2], weights)))
        return game.state_from(best[3])
    return search


def leaf_record_message(case_name: str, td_leaf_update: Callable[..., Any], game: Any, case: str,
                        tol: float = 1e-6) -> str | None:
    """Run `td_leaf_update` over the game of a public `case` (`pack` of: its boards, start weights, depth, alpha,
    the table of leaves and the correct record), each update from the weights the previous one returned, with
    `leaf_table_search`; the first update that leaves the correct record, explained, or None."""
    data = unpack(case)
    boards, w, depth, alpha = data["boards"], list(data["weights"]), data["depth"], data["alpha"]
    leaves = data["leaves"]
    names = ("leaf", "value", "target", "error", "weights")
    for i, row in enumerate(data["record"]):
        state, nxt = game.state_from(boards[i]), game.state_from(boards[i + 1])
        asked: list = []
        given = list(w)
        got = td_leaf_update(game, given, state, nxt, leaf_table_search(game, leaves, asked), depth, alpha)
        if given != w:
            return f"{case_name}, update {i + 1}: td_leaf_update must leave the weights it was given unchanged."
        if not isinstance(got, tuple) or len(got) != 5:
            return (f"{case_name}, update {i + 1}: td_leaf_update returns LeafStep(leaf, value, target, error, "
                    f"weights); yours returned {got!r:.120}")
        got = LeafStep(*got)
        want = LeafStep(game.state_from(row[0]), *row[1:5])
        bad = [n for n in names if not (getattr(got.leaf, "board", None) == row[0] if n == "leaf"
                                        else _near(getattr(got, n), getattr(want, n), tol))]
        if bad:
            wanted = [(b, depth, True) for b in row[5]] if len(row) > 5 else None
            return first_wrong_leaf_update(case_name, i, state, nxt, depth, want, got, bad,
                                           [(b, d, True) for b, d in asked], wanted,
                                           finished=(game.is_terminal(want.leaf), game.is_terminal(nxt)))
        w = list(got.weights)
    return None
