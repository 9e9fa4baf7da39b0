"""What the analysis modules share: reading records, a budget across many solves,
and JSON-friendly forms of cards.

Private: the public names live in ``analysis``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from solver import (
    CoinsError,
    MatchState,
    MatchValues,
    Position,
    SolveResult,
    checks,
    solve,
    solve_match,
)
from solver.cards import SEATS, Card
from solver.errors import NotationError
from solver.maxn import MaxnResult, solve_maxn
from solver.record import Record


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped a long run (a hint, duplicate hands, matches); ``result`` holds
    what it finished, its ``interrupted`` set. A KeyboardInterrupt, as
    ``solver.SolveInterrupted``: code that does not look for it (a bot in a
    match) still stops."""

    def __init__(self, result):
        super().__init__("interrupted")
        self.result = result


class BudgetSpent(Exception):
    """A solver call came back inexact: the node or time budget is used up."""


class Budget:
    """One node and time budget shared by every solver call of an analysis.

    Each call gets what is left; when a call comes back inexact (it ran out),
    ``charge`` raises ``BudgetSpent`` and the caller stops where it is.
    """

    def __init__(self, max_nodes: int | None = None, time_limit: float | None = None):
        max_nodes, time_limit = checks.node_limit(max_nodes), checks.time_limit(time_limit)
        self.max_nodes = max_nodes
        self.start = time.perf_counter()
        self.deadline = None if time_limit is None else self.start + time_limit
        self.nodes = 0

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.start

    def _left(self) -> dict:
        nodes = None if self.max_nodes is None else self.max_nodes - self.nodes
        seconds = None if self.deadline is None else self.deadline - time.perf_counter()
        if (nodes is not None and nodes <= 0) or (seconds is not None and seconds <= 0):
            raise BudgetSpent
        return {"max_nodes": nodes, "time_limit": seconds}

    def check(self) -> None:
        """Raise ``BudgetSpent`` when nothing is left."""
        self._left()

    def share(self, decisions_left: int, most_seconds: float | None = None) -> Budget:
        """A budget for one of ``decisions_left`` decisions: a fair share of what is
        left, four times over (the early decisions are the dear ones), at most all,
        and at most ``most_seconds``."""
        left = self._left()
        part = min(1.0, 4 / max(1, decisions_left))
        nodes = left["max_nodes"]
        seconds = left["time_limit"]
        seconds = most_seconds if seconds is None else seconds * part
        if most_seconds is not None:
            seconds = min(seconds, most_seconds)
        return Budget(None if nodes is None else max(1, int(nodes * part)), seconds)

    def estimate_seconds(self, default: float, decisions_left: int) -> float:
        """Seconds for an estimate: ``default`` with no time limit, else at most a
        fair share of what is left (raises BudgetSpent when nothing is)."""
        seconds = self._left()["time_limit"]
        if seconds is None:
            return default
        return min(default, seconds / max(1, decisions_left) * 2)

    def paranoid(self, position: Position, seats=(0, 1, 2), **options) -> SolveResult:
        return self._charge(solve(position, seats, **self._left(), **options))

    def maxn(self, position: Position, **options) -> MaxnResult:
        return self._charge(solve_maxn(position, **self._left(), **options))

    def match(self, position: Position, match: MatchState) -> MatchValues:
        """Every card's chances of winning ``match`` for the mover, exactly."""
        return self._charge(
            solve_match(position, match.target, match.scores, **self._left(), line=False)
        )

    def _charge(self, result):
        """Count a solver call's nodes; ``BudgetSpent`` when it came back inexact."""
        self.nodes += result.nodes
        if not result.exact:
            raise BudgetSpent
        return result

    def both_modes(self, position: Position) -> tuple[SolveResult, MaxnResult, int, int]:
        """Every card of the mover valued in both modes: the paranoid result, the
        max^n result, the mover's guaranteed value and its best own max^n points."""
        mover = position.to_move
        paranoid = self.paranoid(position, (mover,), line=False)
        maxn = self.maxn(position, line=False)
        best_own = max(result[mover] for result in maxn.card_results.values())
        return paranoid, maxn, paranoid.guaranteed[mover], best_own


def preferred_card(card_results: dict, mover: int) -> Card:
    """The card RULES.md's equilibrium plays, from each card's three-seat result:
    the most own points, then the smaller of the larger opponent's points, then
    the first in index order (estimated points compared to 1e-9)."""

    def rank(card):
        values = card_results[card]
        opponents = max(v for seat, v in enumerate(values) if seat != mover)
        return (-round(values[mover], 9), round(opponents, 9), int(card))

    return min(card_results, key=rank)


def as_position(position: Position | str) -> Position:
    if isinstance(position, str):
        return Position.parse(position)
    if not isinstance(position, Position):
        raise CoinsError(f"expected a Position or its text, not {type(position).__name__}")
    return position


def points_won(before: Position, after: Position) -> tuple[int | None, int]:
    """The seat that won the trick ``after`` closed and its Coins, or (None, 0)."""
    if after.trick or not before.trick or len(before.trick) != SEATS - 1:
        return None, 0
    winner = after.leader
    return winner, after.taken[winner] - before.taken[winner]


def card_list(cards) -> list[str]:
    return [str(c) for c in cards]


def read_record(record: Record | str) -> Record:
    """A full record of play: ``POSITION | c1 c2 ...`` (RULES.md) or a ``Record``.

    ``Record`` checks every card: a bad one raises a ``CoinsError`` that names
    the move (1 = the first card after ``|``). A view (a hand written ``?``)
    cannot be reviewed: the solvers need every hand.
    """
    if isinstance(record, str):
        record = Record.parse(record)
    elif not isinstance(record, Record):
        raise CoinsError(f"expected a record of play or its text, not {type(record).__name__}")
    if record.is_view:
        seats = "s" if len(record.hidden) > 1 else ""
        hidden = ", ".join(map(str, record.hidden))
        raise NotationError(
            f"this record hides the hand of seat{seats} {hidden} (?): reviewing needs every hand"
        )
    return record


def moves_along(position: Position, cards) -> Iterator[tuple[int, int, Position, Card]]:
    """Play ``cards`` in turn from ``position``: for each, its number (from 1),
    the number of the trick it goes to, the position it is played from and
    the card."""
    trick = 1
    for number, card in enumerate(cards, start=1):
        yield number, trick, position, card
        position = position.play(card)
        if not position.trick:  # the card completed its trick
            trick += 1
