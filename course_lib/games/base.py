"""The `Game` interface every lab searches, in the vocabulary of AIMA (4th edition)."""

from __future__ import annotations

from typing import Any, Hashable, Sequence

State = Hashable
Action = Hashable
Player = Hashable


class IllegalMoveError(ValueError):
    """An action that is not legal in the state it was applied to."""

    def __init__(self, action: Any, legal: Sequence[Any], state: Any = None):
        self.action = action
        self.legal = list(legal)
        self.state = state
        where = f" in this state:\n{state}" if state is not None else ""
        super().__init__(
            f"illegal move {action!r}{where}\nlegal moves: {self.legal!r}"
        )


class Game:
    """A two-player (or n-player) game with perfect information.

    Subclasses set `initial` and `players` and implement the five methods below.
    States are immutable and hashable; `result` returns a new state and never
    changes the one it is given; `actions` returns the legal actions in a fixed,
    documented order.
    """

    initial: State
    players: tuple = ()

    def to_move(self, state: State) -> Player:
        """The player whose turn it is in `state`."""
        raise NotImplementedError

    def actions(self, state: State) -> list:
        """The legal actions in `state`, in a fixed order (empty when terminal)."""
        raise NotImplementedError

    def result(self, state: State, action: Action) -> State:
        """The state after `action`; raises `IllegalMoveError` for an illegal one."""
        raise NotImplementedError

    def is_terminal(self, state: State) -> bool:
        """True when the game is over in `state`."""
        raise NotImplementedError

    def utility(self, state: State, player: Player) -> float:
        """The final value of a terminal `state` for `player`."""
        raise NotImplementedError

    # Helpers shared by the concrete games -------------------------------------------

    def opponent(self, player: Player) -> Player:
        """The other player of a two-player game."""
        a, b = self.players
        return b if player == a else a

    def display(self, state: State) -> str:
        """A readable text picture of `state`."""
        return str(state)

    def illegal(self, state: State, action: Action) -> IllegalMoveError:
        """The error to raise for `action` in `state`, naming the legal moves."""
        return IllegalMoveError(action, self.actions(state), self.display(state))

    def not_terminal(self, state: State) -> ValueError:
        """The error `utility` raises for a state whose game is not over."""
        return ValueError(
            "utility() is only defined for terminal states (is_terminal(state) is "
            f"False here); use an evaluation function for a cut-off:\n{self.display(state)}"
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def check_player(game: Game, player: Player) -> None:
    """Raise a clear `ValueError` when `player` is not one of the game's players."""
    if player not in game.players:
        raise ValueError(f"unknown player {player!r}; players are {list(game.players)!r}")
