"""Games in the AIMA vocabulary: `initial`, `to_move`, `actions`, `result`, `is_terminal`, `utility`."""

from .base import Game, IllegalMoveError
from .connect_four import ConnectFour, ConnectFourState
from .cutoff import CutOff, CutState
from .dice import PigRace, PigState
from .exchange import ExchangeTree
from .food_grid import BoardFormatError, FoodGrid, FoodGridState
from .isolation import Isolation, IsolationState
from .race import RaceState, RaceTo
from .reversi import PASS, Reversi, ReversiState
from .tictactoe import TicTacToe, TicTacToeState
from .tree import CHANCE, MAX, MIN, TERMINAL, GameTree

__all__ = [
    "Game", "IllegalMoveError", "GameTree", "MAX", "MIN", "CHANCE", "TERMINAL",
    "RaceTo", "RaceState", "TicTacToe", "TicTacToeState", "ConnectFour", "ConnectFourState",
    "Isolation", "IsolationState", "FoodGrid", "FoodGridState", "BoardFormatError",
    "Reversi", "ReversiState", "PASS", "PigRace", "PigState", "CutOff", "CutState", "ExchangeTree",
]
