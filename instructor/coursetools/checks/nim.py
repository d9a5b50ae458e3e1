"""The grader's own Nim (grader only): the rules lab 01 asks for, used by the hidden tests
of labs 01 and 02. Students write their own in lab 01; course_lib has none."""

from __future__ import annotations

import random
from functools import reduce
from operator import xor
from typing import NamedTuple

from course_lib.games import Game, IllegalMoveError

PLAYERS = ("P1", "P2")


class NimState(NamedTuple):
    """Heap sizes, left to right, and the player to move."""

    heaps: tuple
    to_move: str

    def __str__(self) -> str:
        return f"heaps {self.heaps}, {self.to_move} to move"


class ReferenceNim(Game):
    """Take any positive number of objects from one heap; whoever takes the last object wins.

    Actions are ``(heap, count)``: heaps left to right, then counts 1, 2, ... up to the heap.
    """

    players = PLAYERS
    # Lent to a submission's kernel as the table of its rules for the heaps at hand (`CheckerPeer.list_rules`):
    # its searches then ask their questions there instead of crossing the channel once each.
    lent_as_table = True

    def __init__(self, heaps: tuple):
        self.initial = NimState(tuple(heaps), PLAYERS[0])

    def to_move(self, state: NimState) -> str:
        return state.to_move

    def actions(self, state: NimState) -> list:
        return [(i, n) for i, h in enumerate(state.heaps) for n in range(1, h + 1)]

    def result(self, state: NimState, action: tuple) -> NimState:
        if not (type(action) is tuple and len(action) == 2 and all(type(x) is int for x in action)
                and 0 <= action[0] < len(state.heaps) and 1 <= action[1] <= state.heaps[action[0]]):
            raise IllegalMoveError(action, self.actions(state), str(state))
        i, n = action
        heaps = state.heaps[:i] + (state.heaps[i] - n,) + state.heaps[i + 1:]
        return NimState(heaps, PLAYERS[1] if state.to_move == PLAYERS[0] else PLAYERS[0])

    def is_terminal(self, state: NimState) -> bool:
        return not any(state.heaps)

    def utility(self, state: NimState, player: str) -> int:
        if not self.is_terminal(state):
            raise self.not_terminal(state)
        return -1 if player == state.to_move else 1

    def display(self, state: NimState) -> str:
        return str(state)

    def __repr__(self) -> str:
        return f"Nim({self.initial.heaps})"


def xor_value(heaps: tuple) -> int:
    """The value for the player to move, by the xor rule: +1 when the xor of the heaps is not 0."""
    return 1 if reduce(xor, heaps, 0) else -1


def tree_size(heaps: tuple) -> int:
    """Nodes of the full Nim tree from `heaps` (root included)."""
    n = 1
    for i, h in enumerate(heaps):
        for k in range(1, h + 1):
            n += tree_size(heaps[:i] + (h - k,) + heaps[i + 1:])
    return n


def random_heaps(rng: random.Random, max_nodes: int = 800) -> tuple:
    """Random heaps (one to four of them, some possibly empty) whose tree stays small."""
    while True:
        heaps = tuple(rng.randint(0, 3) for _ in range(rng.randint(1, 4)))
        if any(heaps) and tree_size(heaps) <= max_nodes:
            return heaps
