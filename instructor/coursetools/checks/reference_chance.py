"""Grader references for lab 06: expectimax, max^n and max^n with shallow pruning,
plus the classic wrong versions, used only to name a student's mistake.

The course's conventions: values from the point of view of the player to move at the
root, children in actions() order, the first best child on ties. At a chance node the
value is the sum of probability times value over `game.outcomes(state)`, in order.
"""

from __future__ import annotations

from typing import Any

CHANCE = "CHANCE"

# -- expectimax -------------------------------------------------------------------------


def expectimax_value(game: Any, state: Any, chance: str = "mean", flip: bool = False) -> float:
    """Expectimax (expectiminimax) value of `state` for the player to move there.

    `chance` and `flip` select a wrong variant (for diagnosis only): ``chance`` is
    ``"mean"`` (right), ``"min"``, ``"max"``, ``"uniform"`` (probabilities ignored) or
    ``"floor"`` (probabilities ignored and integer division); ``flip=True`` decides MAX
    or MIN by alternating at every level, chance levels included.
    """
    player = game.to_move(state)

    def value(s: Any, maximizing: bool) -> float:
        if game.is_terminal(s):
            return game.utility(s, player)
        mover = game.to_move(s)
        if mover == CHANCE:
            pairs = game.outcomes(s)
            below = (not maximizing) if flip else maximizing
            vals = [value(game.result(s, a), below) for a, _ in pairs]
            if chance == "mean":
                total = 0.0
                for (_, p), v in zip(pairs, vals):
                    total += p * v
                return total
            if chance == "min":
                return min(vals)
            if chance == "max":
                return max(vals)
            if chance == "uniform":
                return sum(vals) / len(vals)
            if chance == "floor":
                return sum(vals) // len(vals)
            raise ValueError(chance)
        is_max = maximizing if flip else mover == player
        vals = [value(game.result(s, a), not maximizing) for a in game.actions(s)]
        return max(vals) if is_max else min(vals)

    return value(state, True)


EXPECTIMAX_MISTAKES = [
    (dict(chance="min"), "your value is what you get by taking the MINIMUM at chance nodes. Nobody chooses "
                         "the roll of a die: a chance node's value is the expectation sum(p * value) over "
                         "game.outcomes(state), not the worst case"),
    (dict(chance="max"), "your value is what you get by taking the MAXIMUM at chance nodes (a chance node "
                         "treated as the root player). A chance node's value is the expectation "
                         "sum(p * value) over game.outcomes(state)"),
    (dict(chance="uniform"), "your value is the PLAIN MEAN of the children at chance nodes: the probabilities "
                             "were ignored. Weight each child by its probability from game.outcomes(state)"),
    (dict(chance="floor"), "your value is the mean of the children taken with integer division (//): "
                           "use the probabilities from game.outcomes(state) and true division"),
    (dict(flip=True), "your value is what you get by switching between MAX and MIN at every level, chance "
                      "levels included: a chance node is not a player's turn. Ask game.to_move(state) who "
                      "moves (after a roll the same player may move again)"),
]


def expectimax_diagnosis(game: Any, state: Any, got: Any) -> str:
    """Hints naming the classic mistakes whose value equals `got` (empty if none does)."""
    import math

    hints = []
    for kwargs, hint in EXPECTIMAX_MISTAKES:
        try:
            wrong = expectimax_value(game, state, **kwargs)
        except Exception:  # noqa: BLE001 - a variant that cannot run names nothing
            continue
        if type(got) in (int, float) and math.isclose(got, wrong, rel_tol=1e-9, abs_tol=1e-9):
            hints.append(hint)
    if not hints and type(got) is int and type(expectimax_value(game, state)) is float:
        hints.append("your function returned a whole number (int) where the expectation is a float: look "
                     "for integer division (//) or int() at chance nodes")
    return join_hints(hints)


def join_hints(hints: list) -> str:
    """One hint, or several possible causes one per line."""
    if len(hints) <= 1:
        return "".join(hints)
    return "one of these may explain it:\n" + "\n".join(f"  - {h}" for h in hints)


# -- max^n ------------------------------------------------------------------------------


def maxn_value(game: Any, state: Any, rule: str = "own") -> tuple:
    """The max^n utility vector of `state`: each player picks the first child best for herself.

    Wrong variants for diagnosis: ``rule="player0"`` (every node maximises the first
    entry), ``"last"`` (the last best child on ties), ``"depth"`` (the mover guessed from
    the depth, players in turn from the root's).
    """
    players = list(game.players)
    root = players.index(game.to_move(state))

    def value(s: Any, depth: int) -> tuple:
        if game.is_terminal(s):
            return game.utilities(s)
        if rule == "player0":
            i = 0
        elif rule == "depth":
            i = (root + depth) % len(players)
        else:
            i = players.index(game.to_move(s))
        best = None
        for a in game.actions(s):
            v = value(game.result(s, a), depth + 1)
            if best is None or v[i] > best[i] or (rule == "last" and v[i] == best[i]):
                best = v
        return best

    return value(state, 0)


MAXN_MISTAKES = [
    (dict(rule="player0"), "your vector is what you get when every node maximises the FIRST entry (player "
                           "P1's utility). At each node the player to move, game.to_move(state), maximises "
                           "her own entry: index game.players.index(game.to_move(state))"),
    (dict(rule="last"), "your vector is what you get by keeping the LAST best child on ties. Keep the first "
                        "best child in actions() order (replace it only when a child is strictly better)"),
    (dict(rule="depth"), "your vector is what you get by guessing the mover from the depth. Players do not "
                         "always move in turn: ask game.to_move(state) at every node"),
]


def maxn_diagnosis(game: Any, state: Any, got: Any) -> str:
    """Hints naming the classic max^n mistakes that give `got` (empty if none does)."""
    from .common import same

    expected = maxn_value(game, state)
    hints = [hint for kwargs, hint in MAXN_MISTAKES if same(got, maxn_value(game, state, **kwargs))]
    if isinstance(got, (tuple, list)) and len(got) == len(expected) and not same(tuple(got), expected):
        i = list(game.players).index(game.to_move(state))
        rotated = tuple(expected[i:]) + tuple(expected[:i])
        if same(tuple(got), tuple(reversed(expected))):
            hints.append("your vector holds the right utilities in REVERSED order. Entry i must be the utility "
                         "of game.players[i], whoever moves")
        if same(tuple(got), rotated):
            hints.append("your vector starts with the utility of the player to move at the root. Entry i must "
                         "be the utility of game.players[i] (P1 first), whoever moves")
        if not hints and sorted(got) == sorted(expected):
            hints.append("your vector has the right numbers in the wrong order. Entry i must be the utility of "
                         "game.players[i]; return the leaf's game.utilities(state) unchanged")
    return join_hints(hints)


# -- max^n with shallow pruning -----------------------------------------------------------


def maxn_shallow_value(game: Any, state: Any, max_sum: float, variant: str = "shallow") -> tuple:
    """max^n with shallow pruning, for nonnegative utilities whose sum is at most `max_sum`.

    A node of player j whose parent (player i != j) is sure of `bound` for i stops
    as soon as its best entry for j reaches ``max_sum - bound``: the parent can get
    at most ``max_sum - best[j] <= bound`` from it, and keeps its earlier child on a
    tie. Wrong variants: ``"none"``, ``"strict"`` (prunes only past the bound),
    ``"deep"`` (bounds of all ancestors), ``"alphabeta"`` (the MIN rule of alpha-beta on
    the parent's entry, no sum).
    """
    players = list(game.players)

    def value(s: Any, bounds: list) -> tuple:
        if game.is_terminal(s):
            return game.utilities(s)
        me = game.to_move(s)
        j = players.index(me)
        best = None
        for a in game.actions(s):
            mine = [] if best is None else [(me, best[j])]
            passed = mine + bounds if variant == "deep" else mine
            v = value(game.result(s, a), passed)
            if best is None or v[j] > best[j]:
                best = v
            for who, bound in bounds:
                if who == me:
                    continue
                i = players.index(who)
                if variant == "shallow" and best[j] >= max_sum - bound:
                    return best
                if variant in ("strict",) and best[j] > max_sum - bound:
                    return best
                if variant == "deep" and best[j] >= max_sum - bound:
                    return best
                if variant == "alphabeta" and v[i] <= bound:
                    return best
        return best

    return value(state, [])


SHALLOW_MISTAKES = [
    ("none", "your search evaluated every leaf, like plain max^n: it pruned nothing. After each child, "
             "stop when best[j] >= max_sum - bound, where j is the player to move and bound is what the "
             "parent's player is already sure of"),
    ("strict", "your search prunes only when best[j] > max_sum - bound. Prune on equality too: the parent "
               "keeps its earlier child on a tie, so it cannot choose this node"),
    ("deep", "your search prunes with the bounds of ancestors above the parent (deep pruning). Only the "
             "parent's bound is safe: a grandparent's bound can change the choice of the player in between"),
    ("alphabeta", "your search prunes like alpha-beta's MIN nodes (a child bad for the parent's player). "
                  "In max^n the player to move maximises her own entry: use the sum bound, "
                  "best[j] >= max_sum - bound"),
]
