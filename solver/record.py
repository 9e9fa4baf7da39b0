"""Records of play in RULES.md notation: ``<position> | <card> <card> ...``.

A record is a start position and the cards played from it, in order (three a
trick; the trick's winner leads the next). A record that starts at the deal
holds the whole hand. A *view* is the same record as one seat sees it: the
hands it cannot see are written ``?``, and their sizes follow from the other
fields (RULES.md, "Hidden hands")::

    >>> full = Record.parse("982.J8732.K95.AJ542 KNJ7543.96.AN874.96 "
    ...                     "A6.AKN54.J632.KN873 0 - | JO KC AO")
    >>> print(full.view(1))
    ? KNJ7543.96.AN874.96 ? 0 - | JO KC AO
    >>> full.position_after(3).taken
    (0, 0, 2)

Every card is checked in turn when a record is built or parsed; a bad one
raises ``RecordError`` naming the move (``move 4: seat 1 does not hold 8C``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .cards import (
    COINS_MASK,
    DECK_SIZE,
    SEATS,
    Card,
    Cards,
    cards_in,
    format_hand,
    parse_hand,
    popcount,
)
from .errors import IllegalMoveError, NotationError, PositionError
from .position import Position
from .rules import trick_points, trick_winner

HIDDEN = "?"
_RECORD = re.compile(r"^(?P<position>\S.*?) \|(?: (?P<moves>.*))?$")


class RecordError(NotationError):
    """A record that cannot be read or replayed. ``move`` is the 1-based number
    of the card at fault (None when the fault is not a card)."""

    def __init__(self, message: str, move: int | None = None):
        super().__init__(message)
        self.move = move


class RecordMoveError(RecordError, IllegalMoveError):
    """A card in a record that its seat cannot play there."""


@dataclass(frozen=True)
class Record:
    """A start position (some hands possibly hidden: None) and the cards played from it.

    Build one with ``Record.parse(text)``, ``Record.of(position, cards)`` or the
    constructor; all of them check the start and every card in turn.
    """

    hands: tuple[Cards | None, Cards | None, Cards | None]
    leader: int = 0
    trick: tuple[Card, ...] = ()
    taken: tuple[int, int, int] = (0, 0, 0)
    moves: tuple[Card, ...] = ()

    def __post_init__(self):
        if len(tuple(self.hands)) != SEATS:
            raise RecordError(f"a record's position has 3 hands, not {len(tuple(self.hands))}")
        object.__setattr__(self, "hands", tuple(None if h is None else int(h) for h in self.hands))
        object.__setattr__(self, "trick", tuple(Card(c) for c in self.trick))
        object.__setattr__(self, "taken", tuple(int(t) for t in self.taken))
        moves = []
        for number, card in enumerate(self.moves, start=1):
            moves.append(_as_card(card, number))
        object.__setattr__(self, "moves", tuple(moves))
        if self.is_view:
            _check_view_start(self)
        else:
            Position(self.hands, self.leader, self.trick, self.taken)  # validates the start
        for _ in self._replay():  # validates every card
            pass

    # ----- building -------------------------------------------------------------
    @classmethod
    def of(cls, position: Position | str, moves: Iterable[Card | str | int] = ()) -> Record:
        """The record of ``moves`` played from ``position`` (a Position or its text)."""
        if isinstance(position, str):
            position = Position.parse(position)
        return cls(position.hands, position.leader, position.trick, position.taken, tuple(moves))

    @classmethod
    def parse(cls, text: str) -> Record:
        """Parse ``<position> | <cards>`` (RULES.md); hands may be ``?`` in a view,
        and a view before any card is played may leave out the `` |``."""
        if not isinstance(text, str):
            raise NotationError(f"a record is text, not {type(text).__name__}")
        text = text.strip()
        if "|" not in text and HIDDEN in text.split(" ")[:3]:
            text += " |"  # RULES.md: before any card is played a view is just the position
        match = _RECORD.match(text)
        if match is None or "|" in match["position"] or "|" in (match["moves"] or ""):
            raise RecordError(
                f"a record is a position, then ' | ', then the cards played, "
                f"separated by single spaces: {text.strip()!r}"
            )
        words = match["moves"].split(" ") if match["moves"] else []
        moves = tuple(_parse_move(word, number) for number, word in enumerate(words, start=1))
        fields = match["position"].split(" ")
        if HIDDEN not in fields[:3]:
            return cls.of(Position.parse(match["position"]), moves)
        return cls(*_parse_view_position(fields), moves)

    def append(self, *cards: Card | str | int) -> Record:
        """A new record with ``cards`` played after this one's (each checked)."""
        return Record(self.hands, self.leader, self.trick, self.taken, self.moves + cards)

    def view(self, seat: int) -> Record:
        """The record as ``seat`` sees it: every other hand written ``?``."""
        if seat not in range(SEATS):
            raise RecordError(f"seat {seat!r} is not a seat: seats are 0, 1, 2")
        if self.hands[seat] is None:
            raise RecordError(
                f"this record hides seat {seat}'s hand: it has no view for seat {seat}"
            )
        hands = tuple(h if s == seat else None for s, h in enumerate(self.hands))
        return Record(hands, self.leader, self.trick, self.taken, self.moves)

    # ----- reading --------------------------------------------------------------
    @property
    def is_view(self) -> bool:
        """True when some hand is hidden (written ``?``)."""
        return None in self.hands

    @property
    def hidden(self) -> tuple[int, ...]:
        """The seats whose starting hands are hidden."""
        return tuple(s for s in range(SEATS) if self.hands[s] is None)

    @property
    def hand_sizes(self) -> tuple[int, int, int]:
        """Cards each seat holds at the start (hidden hands included)."""
        return _start_sizes(self)

    @property
    def start(self) -> Position:
        """The start position (full records only)."""
        return self.position_after(0)

    @property
    def final(self) -> Position:
        """The position after the last card (full records only)."""
        return self.position_after(len(self.moves))

    def position_after(self, n: int) -> Position:
        """The position after the first ``n`` cards (0 <= n <= number of cards)."""
        if self.is_view:
            raise RecordError(
                f"this record hides the hands of seat{'s' if len(self.hidden) > 1 else ''} "
                f"{', '.join(map(str, self.hidden))}: only a full record has positions"
            )
        if not isinstance(n, int) or not 0 <= n <= len(self.moves):
            raise RecordError(f"position_after({n!r}): the record has {len(self.moves)} cards")
        position = Position(self.hands, self.leader, self.trick, self.taken)
        for card in self.moves[:n]:
            position = position.play(card)
        return position

    def positions(self) -> Iterator[Position]:
        """The start position and the position after each card (full records only)."""
        position = self.start
        yield position
        for card in self.moves:
            position = position.play(card)
            yield position

    def points(self) -> tuple[int, int, int]:
        """Coins each seat won in the tricks completed within the record."""
        won = [0, 0, 0]
        for step in self._replay():
            if step.winner is not None:
                won[step.winner] += step.points
        return tuple(won)

    def tricks(self) -> list[tuple[int, tuple[Card, ...], int]]:
        """Each trick completed within the record: (leader, its three cards, winner)."""
        return [
            (step.trick_leader, step.trick, step.winner)
            for step in self._replay()
            if step.winner is not None
        ]

    @property
    def taken_after(self) -> tuple[int, int, int]:
        """The ``taken`` field after the last card: start taken plus ``points()``."""
        return tuple(t + p for t, p in zip(self.taken, self.points()))

    @property
    def to_move(self) -> int:
        """The seat to play after the last card."""
        last = None
        for last in self._replay():  # noqa: B007 - the loop only runs the replay to its end
            pass
        if last is None:
            return (self.leader + len(self.trick)) % SEATS
        return last.to_move

    def __len__(self) -> int:
        return len(self.moves)

    def __str__(self) -> str:
        hands = " ".join(HIDDEN if h is None else format_hand(h) for h in self.hands)
        text = f"{hands} {self.leader} {','.join(str(c) for c in self.trick) or '-'}"
        if any(self.taken):
            text += " " + ",".join(str(t) for t in self.taken)
        text += " |"
        if self.moves:
            text += " " + " ".join(str(c) for c in self.moves)
        return text

    def __repr__(self) -> str:
        return f"Record.parse('{self}')"

    # ----- replay ---------------------------------------------------------------
    def _replay(self) -> Iterator[_Step]:
        """Check each card in turn, yielding what it did."""
        sizes = list(_start_sizes(self))
        hands = list(self.hands)
        leader = self.leader
        trick = list(self.trick)
        seen = {int(c): "on the table at the start" for c in self.trick}
        hidden_played = 0
        for number, card in enumerate(self.moves, start=1):
            mover = (leader + len(trick)) % SEATS
            if sizes[mover] == 0:
                raise RecordMoveError(
                    f"move {number}: the hand is over, {card} cannot be played", number
                )
            hand = hands[mover]
            if hand is not None:
                if not hand >> card & 1:
                    raise RecordMoveError(
                        f"move {number}: seat {mover} does not hold {card}", number
                    )
                hands[mover] = hand & ~(1 << card)
            else:
                if int(card) in seen:
                    raise RecordMoveError(
                        f"move {number}: seat {mover} cannot play {card}: it was {seen[int(card)]}",
                        number,
                    )
                for seat in range(SEATS):
                    if self.hands[seat] is not None and self.hands[seat] >> card & 1:
                        raise RecordMoveError(
                            f"move {number}: seat {mover} cannot play {card}: seat {seat} holds it",
                            number,
                        )
                hidden_played |= 1 << card
            seen[int(card)] = f"played at move {number}"
            sizes[mover] -= 1
            trick.append(card)
            if len(trick) < SEATS:
                yield _Step(number, card, (leader + len(trick)) % SEATS, None, 0, leader, ())
                continue
            winner = (leader + trick_winner(trick)) % SEATS
            step = _Step(number, card, winner, winner, trick_points(trick), leader, tuple(trick))
            leader, trick = winner, []
            yield step
        if self.is_view:
            _check_view_taken(self, hidden_played)


@dataclass(frozen=True)
class _Step:
    number: int
    card: Card
    to_move: int
    winner: int | None  # set when this card completed a trick
    points: int
    trick_leader: int
    trick: tuple[Card, ...]


# ----- helpers ---------------------------------------------------------------------------


def _as_card(card, number: int) -> Card:
    try:
        if isinstance(card, str):
            return Card.parse(card)
        return Card(card)
    except (NotationError, TypeError, ValueError) as error:
        raise RecordError(f"move {number}: {error}", number) from None


def _parse_move(word: str, number: int) -> Card:
    try:
        return Card.parse(word)
    except NotationError as error:
        raise RecordError(f"move {number}: {error}", number) from None


def _parse_view_position(fields: list[str]):
    """Fields of a position whose hands may be ``?``: (hands, leader, trick, taken)."""
    if len(fields) not in (5, 6):
        raise PositionError(
            f"a position has 5 or 6 fields separated by single spaces "
            f"(hand0 hand1 hand2 leader trick [taken]), found {len(fields)}",
            "position",
        )
    hands = []
    for seat in range(SEATS):
        if fields[seat] == HIDDEN:
            hands.append(None)
            continue
        try:
            hands.append(parse_hand(fields[seat], f"hand {seat}"))
        except NotationError as error:
            raise PositionError(str(error), f"hand{seat}") from None
    leader = _parse_number(fields[3], "leader")
    trick: list[Card] = []
    if fields[4] != "-":
        for i, word in enumerate(fields[4].split(","), start=1):
            try:
                trick.append(Card.parse(word))
            except NotationError as error:
                raise PositionError(f"trick card {i}: {error}", "trick") from None
    taken = (0, 0, 0)
    if len(fields) == 6:
        parts = fields[5].split(",")
        if len(parts) != 3:
            raise PositionError(f'taken "{fields[5]}" has {len(parts)} numbers, not 3', "taken")
        taken = tuple(_parse_number(part, "taken") for part in parts)
    return tuple(hands), leader, tuple(trick), taken


def _parse_number(text: str, field: str) -> int:
    digits = text[1:] if text.startswith("-") else text
    if not digits.isascii() or not digits.isdigit():
        raise PositionError(f'{field} "{text}" is not a number', field)
    return int(text)


def _start_sizes(record: Record) -> tuple[int, int, int]:
    """Each seat's cards at the start; a hidden hand's size follows from the others."""
    played = {(record.leader + i) % SEATS for i in range(len(record.trick))}
    full = {popcount(h) + (s in played) for s, h in enumerate(record.hands) if h is not None}
    if len(full) != 1:  # only views get here with several sizes; Position checked full ones
        shown = ", ".join(
            f"seat {s}: {popcount(h)}" for s, h in enumerate(record.hands) if h is not None
        )
        raise PositionError(
            f"hand sizes ({shown}) do not fit a trick of {len(record.trick)} "
            f"led by seat {record.leader}",
            "hands",
        )
    (n,) = full
    return tuple(n - (s in played) for s in range(SEATS))


def _check_view_start(record: Record) -> None:
    """What Position checks, for a start whose hidden hands are unknown."""
    if all(h is None for h in record.hands):
        raise PositionError("every hand is hidden: a view shows at least one hand", "hands")
    if not isinstance(record.leader, int) or record.leader not in range(SEATS):
        raise PositionError(f"leader {record.leader} is out of range: seats are 0, 1, 2", "leader")
    if len(record.trick) >= SEATS:
        raise PositionError(
            f"{len(record.trick)} cards in the trick: a trick of three is already resolved",
            "trick",
        )
    seen: dict[int, str] = {}
    for seat, hand in enumerate(record.hands):
        if hand is None:
            continue
        if hand < 0 or hand >> DECK_SIZE:
            raise PositionError(f"hand {seat} holds bits that are not cards", f"hand{seat}")
        for card in cards_in(hand):
            if card in seen:
                raise PositionError(
                    f"duplicate card: {card} in {seen[card]} and hand {seat}", f"hand{seat}"
                )
            seen[card] = f"hand {seat}"
    for card in record.trick:
        if card in seen:
            raise PositionError(f"duplicate card: {card} in {seen[card]} and in the trick", "trick")
        seen[card] = "the trick"
    sizes = _start_sizes(record)
    if min(sizes) < 0:
        raise PositionError(f"hand sizes {sizes} do not fit the trick", "hands")
    if sum(sizes) + len(record.trick) > DECK_SIZE:
        raise PositionError(
            f"hand sizes {','.join(map(str, sizes))} and the trick need more than 48 cards",
            "hands",
        )
    mover = (record.leader + len(record.trick)) % SEATS
    if record.trick and sizes[mover] == 0:
        raise PositionError(f"seat {mover} is to move but holds no card", "trick")
    if len(record.taken) != SEATS:
        raise PositionError(f"taken has {len(record.taken)} numbers, not 3", "taken")
    if any(t < 0 for t in record.taken):
        raise PositionError(f"taken {record.taken} has a negative number", "taken")


def _check_view_taken(record: Record, hidden_played: Cards) -> None:
    """Taken must not exceed the most Coins that can be gone: the unseen cards
    minus the hidden hands, which hold what they play later and, beyond that,
    as few Coins as the unseen cards allow."""
    shown = 0
    for hand in record.hands:
        shown |= hand or 0
    for card in record.trick:
        shown |= 1 << card
    unseen = ((1 << DECK_SIZE) - 1) & ~shown
    hidden_size = sum(_start_sizes(record)[s] for s in record.hidden)
    rest = unseen & ~hidden_played
    forced_coins = max(0, hidden_size - popcount(hidden_played) - popcount(rest & ~COINS_MASK))
    most_gone = popcount(rest & COINS_MASK) - forced_coins
    if sum(record.taken) > most_gone:
        raise PositionError(
            f"taken {','.join(map(str, record.taken))} adds up to {sum(record.taken)}, "
            f"but at most {most_gone} Coins can be gone",
            "taken",
        )
