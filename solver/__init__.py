"""Coins (a three-player trick-taking game by Mark Steere): rules, positions and solvers.

>>> from solver import Position, solve
>>> result = solve(Position.parse("7...2 K.3.. J.6.. 0 - 0,1,0"))
>>> result.guaranteed
[0, 0, 2]
"""

from .cards import COINS_MASK, SUIT_MASKS, Card, cards_in, format_hand, parse_hand
from .errors import CoinsError, IllegalMoveError, NotationError, PositionError, SolveInterrupted
from .match import (
    CardPlayed,
    Hand,
    HandResult,
    Match,
    MatchError,
    MatchObserver,
    MatchResult,
    MatchState,
    PlayerError,
    RandomPlayer,
    lowest_card_player,
    random_player,
)
from .match_values import MatchValues, solve_match
from .policy import SearchPolicy
from .position import Position
from .record import Record, RecordError, RecordMoveError
from .solve import SolveResult, solve
from .table import TranspositionTable

__all__ = [
    "COINS_MASK",
    "CardPlayed",
    "SUIT_MASKS",
    "SearchPolicy",
    "Card",
    "CoinsError",
    "Hand",
    "HandResult",
    "IllegalMoveError",
    "Match",
    "MatchError",
    "MatchObserver",
    "MatchState",
    "MatchValues",
    "MatchResult",
    "NotationError",
    "PlayerError",
    "Position",
    "PositionError",
    "RandomPlayer",
    "Record",
    "RecordError",
    "RecordMoveError",
    "SolveInterrupted",
    "SolveResult",
    "TranspositionTable",
    "cards_in",
    "format_hand",
    "lowest_card_player",
    "parse_hand",
    "random_player",
    "solve",
    "solve_match",
]
