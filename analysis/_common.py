"""What the analysis modules share: reading records, a budget across many solves,
runs of equivalent cards, and JSON-friendly forms of cards.

Private: the public names live in ``analysis``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from solver import CoinsError, Position, solve
from solver import _kernels as k
from solver.cards import SEATS, Card, cards_in
from solver.errors import IllegalMoveError, NotationError, PositionError
from solver.maxn import solve_maxn
from solver.paranoid import SolveResult
from solver.maxn import MaxnResult

try:  # helper B's Record type; until it lands, the private reader below
    from solver.record import Record  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - depends on the tree
    Record = None


class BudgetSpent(Exception):
    """A solver call came back inexact: the node or time budget is used up."""


class Budget:
    """One node and time budget shared by every solver call of an analysis.

    Each call gets what is left; when a call comes back inexact (it ran out),
    ``charge`` raises ``BudgetSpent`` and the caller stops where it is.
    """

    def __init__(self, max_nodes: int | None = None, time_limit: float | None = None):
        if max_nodes is not None and max_nodes <= 0:
            raise CoinsError(f"max_nodes must be positive, not {max_nodes}")
        if time_limit is not None and not time_limit > 0:
            raise CoinsError(f"time_limit must be positive seconds, not {time_limit}")
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

    def paranoid(self, position: Position, seats=(0, 1, 2), **options) -> SolveResult:
        result = solve(position, seats, **self._left(), **options)
        self.nodes += result.nodes
        if not result.exact:
            raise BudgetSpent
        return result

    def maxn(self, position: Position, **options) -> MaxnResult:
        result = solve_maxn(position, **self._left(), **options)
        self.nodes += result.nodes
        if not result.exact:
            raise BudgetSpent
        return result


def as_position(position: Position | str) -> Position:
    if isinstance(position, str):
        return Position.parse(position)
    if not isinstance(position, Position):
        raise CoinsError(f"expected a Position or its text, not {type(position).__name__}")
    return position


def live_cards(position: Position) -> int:
    return position.hands[0] | position.hands[1] | position.hands[2] | position.trick_mask


def runs(position: Position) -> list[list[Card]]:
    """The mover's cards grouped into runs of equivalent cards (no live card
    between them), each run high to low, runs in index order of their lowest card.

    Cards of one run win and lose exactly the same tricks, so they have the
    same values in both modes.
    """
    hand = position.hands[position.to_move]
    live = live_cards(position)
    groups: dict[int, list[Card]] = {}
    for card in cards_in(hand):
        groups.setdefault(int(k.representative_of(card, hand, live)), []).append(card)
    return [sorted(group, reverse=True) for group in groups.values()]


def points_won(before: Position, after: Position) -> tuple[int | None, int]:
    """The seat that won the trick ``after`` closed and its Coins, or (None, 0)."""
    if after.trick or not before.trick or len(before.trick) != SEATS - 1:
        return None, 0
    winner = after.leader
    return winner, after.taken[winner] - before.taken[winner]


def card_list(cards) -> list[str]:
    return [str(c) for c in cards]


@dataclass(frozen=True)
class PlayedRecord:
    """A record of play read into its start position and the cards played."""

    position: Position
    cards: tuple[Card, ...]


def read_record(record) -> PlayedRecord:
    """``POSITION | c1 c2 ...`` (RULES.md) or a Record, checked card by card.

    Reads with ``solver.record.Record`` when it is there; the private reader
    below stands in for it in trees that do not have it yet. Every error is a ``CoinsError`` that names the move (1 = the first card
    after ``|``): a word that is not a card, a card nobody holds, a card held
    by a seat that is not to move, or a card after the end of the hand.
    """
    if Record is not None:
        if isinstance(record, str):
            record = Record.parse(record)
        if isinstance(record, Record):
            if record.is_view:
                hidden = ", ".join(map(str, record.hidden))
                raise NotationError(
                    f"this record hides seat {hidden}'s hand (?): "
                    "reviewing needs every hand, as at the deal"
                )
            return PlayedRecord(record.start, tuple(record.moves))
    if isinstance(record, PlayedRecord):
        position, cards = record.position, record.cards
    elif isinstance(record, str):
        position, cards = _parse_record_text(record)
    else:
        raise CoinsError(f"expected a record of play or its text, not {type(record).__name__}")
    current = position
    for number, card in enumerate(cards, start=1):
        current = _play_checked(current, card, number)
    return PlayedRecord(position, tuple(cards))


def _parse_record_text(text: str) -> tuple[Position, tuple[Card, ...]]:
    head, bar, tail = text.strip().partition("|")
    if not bar:
        raise NotationError(
            "a record of play is a position, then \" | \", then the cards played "
            "(e.g. '... 0 - | JO KC AO'); no \"|\" found"
        )
    head = head.strip()
    if "?" in head.split(" ")[:3]:
        raise NotationError(
            "this record hides a hand (?): reviewing needs every hand, as at the deal"
        )
    try:
        position = Position.parse(head)
    except PositionError as error:
        raise PositionError(f"record's position: {error}", error.field) from None
    except NotationError as error:
        raise NotationError(f"record's position: {error}") from None
    cards = []
    for number, word in enumerate(tail.split(), start=1):
        try:
            cards.append(Card.parse(word))
        except NotationError as error:
            raise NotationError(f"move {number}: {error}") from None
    return position, tuple(cards)


def _play_checked(position: Position, card: Card, number: int) -> Position:
    if position.is_terminal:
        raise IllegalMoveError(f"move {number}: {card} is played after the end of the hand")
    mover = position.to_move
    if position.hands[mover] >> card & 1:
        return position.play(card)
    for seat in range(SEATS):
        if position.hands[seat] >> card & 1:
            why = ""
            if not position.trick and number > 1:
                why = " (it won the last trick, so it leads)"
            raise IllegalMoveError(
                f"move {number}: {card} is in seat {seat}'s hand, but seat {mover} is to move{why}"
            )
    where = "it is on the table already" if card in position.trick else "it was played earlier"
    raise IllegalMoveError(
        f"move {number}: seat {mover} cannot play {card}: no one holds it ({where})"
    )
