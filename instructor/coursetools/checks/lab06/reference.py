"""Lab 06's models (grader only): expectimax, max^n and max^n with shallow pruning, each with
the mistake models that name a student's mistake when they reproduce what the student did.

The course's conventions: values from the point of view of the player to move at the
root, children in actions() order, the first best child on ties. At a chance node the
value is the sum of probability times value over `game.outcomes(state)`, in order.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ..kit import Mistake

CHANCE = "CHANCE"

# -- expectimax -------------------------------------------------------------------------


def expectimax_value(game: Any, state: Any, chance: str = "mean", flip: bool = False, view: str = "root") -> float:
    """Expectimax (expectiminimax) value of `state` for the player to move there.

    The other arguments make a mistake model: ``chance`` is ``"mean"`` (right), ``"min"``,
    ``"max"``, ``"uniform"`` (probabilities ignored) or ``"floor"`` (probabilities ignored and
    integer division); ``flip=True`` decides MAX or MIN by alternating at every level, chance
    levels included; ``view="mover"`` values each leaf for the player who moved into it.

    >>> from course_lib.games import GameTree
    >>> tree = GameTree.from_nested([[(0.5, 4), (0.5, -2)], [(0.25, 8), (0.75, 0)]], levels=("MAX", "CHANCE"))
    >>> expectimax_value(tree, tree.initial), expectimax_value(tree, tree.initial, chance="min")
    (2.0, 0)
    """
    player = game.to_move(state)

    def value(s: Any, maximizing: bool, who: Any) -> float:
        if game.is_terminal(s):
            return game.utility(s, who)
        mover = game.to_move(s)
        if mover == CHANCE:
            pairs = game.outcomes(s)
            below = (not maximizing) if flip else maximizing
            vals = [value(game.result(s, a), below, who) for a, _ in pairs]
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
        child_view = mover if view == "mover" else who
        vals = [value(game.result(s, a), not maximizing, child_view) for a in game.actions(s)]
        return max(vals) if is_max else min(vals)

    return value(state, True, player)


EXPECTIMAX_MISTAKES = [
    Mistake("chance_min", "your value is what you get by taking the MINIMUM at chance nodes. Nobody chooses "
                          "the roll of a die: a chance node's value is the expectation sum(p * value) over "
                          "game.outcomes(state), not the worst case", partial(expectimax_value, chance="min")),
    Mistake("chance_max", "your value is what you get by taking the MAXIMUM at chance nodes (a chance node "
                          "treated as the root player). A chance node's value is the expectation "
                          "sum(p * value) over game.outcomes(state)", partial(expectimax_value, chance="max")),
    Mistake("chance_plain_mean", "your value is the PLAIN MEAN of the children at chance nodes: the probabilities "
                                 "were ignored. Weight each child by its probability from game.outcomes(state)",
            partial(expectimax_value, chance="uniform")),
    Mistake("chance_floor_division", "your value is the mean of the children taken with integer division (//): "
                                     "use the probabilities from game.outcomes(state) and true division",
            partial(expectimax_value, chance="floor")),
    Mistake("chance_flips_turn", "your value is what you get by switching between MAX and MIN at every level, "
                                 "chance levels included: a chance node is not a player's turn. Ask "
                                 "game.to_move(state) who moves (after a roll the same player may move again)",
            partial(expectimax_value, flip=True)),
    Mistake("expectimax_mover_view", "your leaves are valued for the player who moves above them, not from the "
                                     "root player's point of view: call game.utility(leaf, root_player) with the "
                                     "player to move at the root, at every leaf",
            partial(expectimax_value, view="mover")),
]


# -- max^n ------------------------------------------------------------------------------


def maxn_value(game: Any, state: Any, rule: str = "own", vector: str = "players") -> tuple:
    """The max^n utility vector of `state`: each player picks the first child best for herself.

    Mistake models: ``rule="player0"`` (every node maximises the first entry), ``"last"`` (the
    last best child on ties), ``"depth"`` (the mover guessed from the depth, players in turn
    from the root's); ``vector="reversed"`` (every vector built over the players in reverse
    order, consistently), ``"mover_first"`` (the answer rotated so that the root player's
    utility comes first).
    """
    players = list(game.players)
    order = players[::-1] if vector == "reversed" else players
    root = players.index(game.to_move(state))

    def value(s: Any, depth: int) -> tuple:
        if game.is_terminal(s):
            leaf = game.utilities(s)
            return tuple(reversed(leaf)) if vector == "reversed" else leaf
        if rule == "player0":
            i = 0
        elif rule == "depth":
            i = order.index(players[(root + depth) % len(players)])
        else:
            i = order.index(game.to_move(s))
        best = None
        for a in game.actions(s):
            v = value(game.result(s, a), depth + 1)
            if best is None or v[i] > best[i] or (rule == "last" and v[i] == best[i]):
                best = v
        return best

    v = value(state, 0)
    return v[root:] + v[:root] if vector == "mover_first" else v


MAXN_MISTAKES = [
    Mistake("maxn_player0", "your vector is what you get when every node maximises the FIRST entry (player "
                            "P1's utility). At each node the player to move, game.to_move(state), maximises "
                            "her own entry: index game.players.index(game.to_move(state))",
            partial(maxn_value, rule="player0")),
    Mistake("maxn_last_best", "your vector is what you get by keeping the LAST best child on ties. Keep the first "
                              "best child in actions() order (replace it only when a child is strictly better)",
            partial(maxn_value, rule="last")),
    Mistake("maxn_turn_by_depth", "your vector is what you get by guessing the mover from the depth. Players do "
                                  "not always move in turn: ask game.to_move(state) at every node",
            partial(maxn_value, rule="depth")),
    Mistake("maxn_reversed_players", "your vector holds the right utilities in REVERSED order. Entry i must be the "
                                     "utility of game.players[i], whoever moves",
            partial(maxn_value, vector="reversed")),
    Mistake("maxn_mover_first", "your vector starts with the utility of the player to move at the root. Entry i "
                                "must be the utility of game.players[i] (P1 first), whoever moves",
            partial(maxn_value, vector="mover_first")),
]


# -- max^n with shallow pruning -----------------------------------------------------------


def maxn_shallow_value(game: Any, state: Any, max_sum: float, variant: str = "shallow") -> tuple:
    """max^n with shallow pruning, for nonnegative utilities whose sum is at most `max_sum`.

    A node of player j whose parent (player i != j) is sure of `bound` for i stops
    as soon as its best entry for j reaches ``max_sum - bound``: the parent can get
    at most ``max_sum - best[j] <= bound`` from it, and keeps its earlier child on a
    tie. Mistake models: ``"none"``, ``"strict"`` (prunes only past the bound),
    ``"deep"`` (bounds of all ancestors), ``"alphabeta"`` (the MIN rule of alpha-beta on
    the parent's entry, no sum), ``"same_player"`` (also prunes at a node whose player is its parent's).
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
                if who == me and variant != "same_player":
                    continue
                i = players.index(who)
                if variant in ("shallow", "deep", "same_player") and best[j] >= max_sum - bound:
                    return best
                if variant == "strict" and best[j] > max_sum - bound:
                    return best
                if variant == "alphabeta" and v[i] <= bound:
                    return best
        return best

    return value(state, [])


def _shallow(variant: str) -> Any:
    return lambda game, state, max_sum: maxn_shallow_value(game, state, max_sum, variant)


SHALLOW_MISTAKES = [
    Mistake("shallow_no_pruning", "your search evaluated every leaf, like plain max^n: it pruned nothing. After "
                                  "each child, stop when best[j] >= max_sum - bound, where j is the player to move "
                                  "and bound is what the parent's player is already sure of", _shallow("none")),
    Mistake("shallow_strict", "your search prunes only when best[j] > max_sum - bound. Prune on equality too: the "
                              "parent keeps its earlier child on a tie, so it cannot choose this node",
            _shallow("strict")),
    Mistake("shallow_deep", "your search prunes with the bounds of ancestors above the parent (deep pruning). Only "
                            "the parent's bound is safe: a grandparent's bound can change the choice of the player "
                            "in between", _shallow("deep")),
    Mistake("shallow_alphabeta_rule", "your search prunes like alpha-beta's MIN nodes (a child bad for the parent's "
                                      "player). In max^n the player to move maximises her own entry: use the sum "
                                      "bound, best[j] >= max_sum - bound", _shallow("alphabeta")),
    Mistake("shallow_same_player", "your search also prunes at a node whose player is its parent's (a player moving "
                                   "twice in a row). Prune only when the two players differ: a parent of the same "
                                   "player takes the child best for that player, so such a node must find its whole "
                                   "value", _shallow("same_player")),
]
