"""Positions in RULES.md notation: parse, validate strictly, print, play cards."""

from __future__ import annotations

import random
from dataclasses import dataclass

from . import checks
from .cards import (
    COINS_MASK,
    DECK_SIZE,
    HAND_SIZE,
    SEATS,
    Card,
    Cards,
    cards_in,
    format_hand,
    parse_hand,
    popcount,
)
from .errors import IllegalMoveError, NotationError, PositionError
from .rules import trick_points, trick_winner


@dataclass(frozen=True)
class Position:
    """A moment of a hand: the cards each seat holds, who led, the trick so far
    and the Coins already taken. Immutable; ``play`` returns a new position.

    Build one with ``Position.parse(text)``, ``Position.random(...)`` or the
    constructor (which validates just as the parser does).
    """

    hands: tuple[Cards, Cards, Cards]
    leader: int = 0
    trick: tuple[Card, ...] = ()
    taken: tuple[int, int, int] = (0, 0, 0)

    def __post_init__(self):
        object.__setattr__(self, "hands", tuple(int(h) for h in self.hands))
        object.__setattr__(self, "trick", tuple(Card(c) for c in self.trick))
        object.__setattr__(self, "taken", tuple(int(t) for t in self.taken))
        _validate(self)

    # ----- notation -------------------------------------------------------
    @classmethod
    def parse(cls, text: str) -> Position:
        """Parse ``<hand0> <hand1> <hand2> <leader> <trick> [<taken>]`` (RULES.md)."""
        if not isinstance(text, str):
            raise NotationError(f"a position is text, not {type(text).__name__}")
        text = text.strip()
        if "|" in text:
            raise PositionError(
                "this is a record of play (position | cards), not a position", "position"
            )
        fields = text.split(" ")
        if len(fields) not in (5, 6):
            raise PositionError(
                f"a position has 5 or 6 fields separated by single spaces "
                f"(hand0 hand1 hand2 leader trick [taken]), found {len(fields)}: {text!r}",
                "position",
            )
        hands = []
        for seat in range(SEATS):
            try:
                hands.append(parse_hand(fields[seat], f"hand {seat}"))
            except NotationError as error:
                raise PositionError(str(error), f"hand{seat}") from None
        leader = _parse_int(fields[3], "leader")
        trick = _parse_trick(fields[4])
        taken = (0, 0, 0)
        if len(fields) == 6:
            parts = fields[5].split(",")
            if len(parts) != 3:
                raise PositionError(
                    f'taken "{fields[5]}" has {len(parts)} number{"s" if len(parts) != 1 else ""}, '
                    "not 3 (like 0,2,1)",
                    "taken",
                )
            taken = tuple(_parse_int(part, "taken") for part in parts)
        return cls(tuple(hands), leader, trick, taken)

    def __str__(self) -> str:
        trick = ",".join(str(c) for c in self.trick) or "-"
        text = (
            f"{format_hand(self.hands[0])} {format_hand(self.hands[1])} "
            f"{format_hand(self.hands[2])} {self.leader} {trick}"
        )
        if any(self.taken):
            text += " " + ",".join(str(t) for t in self.taken)
        return text

    def __repr__(self) -> str:
        return f"Position.parse('{self}')"

    # ----- state ----------------------------------------------------------
    @property
    def to_move(self) -> int:
        """The seat to play next: ``(leader + cards in trick) mod 3``."""
        return (self.leader + len(self.trick)) % SEATS

    @property
    def is_terminal(self) -> bool:
        """True when the hand is over: every card has been played."""
        return not any(self.hands)

    @property
    def cards_per_hand(self) -> int:
        """Cards held by the seat to move (the largest hand)."""
        return popcount(self.hands[self.to_move])

    @property
    def is_full_deal(self) -> bool:
        """Does the seat to move hold a full hand (a deal, its first trick perhaps begun)?"""
        return self.cards_per_hand == HAND_SIZE

    @property
    def coins_left(self) -> int:
        """Coins still to be won: in the hands and on the table."""
        live = self.hands[0] | self.hands[1] | self.hands[2] | self.trick_mask
        return popcount(live & COINS_MASK)

    @property
    def trick_mask(self) -> Cards:
        mask = 0
        for card in self.trick:
            mask |= 1 << card
        return mask

    def hand(self, seat: int) -> list[Card]:
        return cards_in(self.hands[seat])

    def legal_cards(self) -> list[Card]:
        """Every card the seat to move holds (no duty to follow suit)."""
        return cards_in(self.hands[self.to_move])

    def play(self, card: Card | str | int) -> Position:
        """The position after the seat to move plays ``card``; a full trick is
        resolved at once (its winner leads next and takes its Coins)."""
        if isinstance(card, str):
            card = Card.parse(card)
        card = Card(card)
        seat = self.to_move
        if self.is_terminal:
            raise IllegalMoveError(f"cannot play {card}: the hand is over")
        if not self.hands[seat] >> card & 1:
            raise IllegalMoveError(f"cannot play {card}: seat {seat} does not hold it")
        hands = list(self.hands)
        hands[seat] &= ~(1 << card)
        trick = self.trick + (card,)
        if len(trick) < SEATS:
            return Position(tuple(hands), self.leader, trick, self.taken)
        winner = (self.leader + trick_winner(trick)) % SEATS
        taken = list(self.taken)
        taken[winner] += trick_points(trick)
        return Position(tuple(hands), winner, (), tuple(taken))

    # ----- construction ---------------------------------------------------
    @classmethod
    def random(
        cls,
        rng: random.Random | int | None = None,
        cards: int = HAND_SIZE,
        leader: int = 0,
    ) -> Position:
        """A random position with ``cards`` per hand and no trick on the table.

        With 16 cards it is a full deal; with fewer, a random ending whose
        other cards were played earlier (taken stays 0,0,0).
        """
        if isinstance(cards, bool) or not isinstance(cards, int) or not 0 <= cards <= HAND_SIZE:
            raise PositionError(f"cards per hand must be 0-{HAND_SIZE}, not {cards!r}", "cards")
        if isinstance(leader, bool) or not isinstance(leader, int) or leader not in range(SEATS):
            raise PositionError(f"leader must be 0, 1 or 2, not {leader!r}", "leader")
        if not isinstance(rng, random.Random):
            rng = random.Random(checks.seed(rng))
        chosen = rng.sample(range(DECK_SIZE), SEATS * cards)
        hands = [0, 0, 0]
        for i, card in enumerate(chosen):
            hands[i % SEATS] |= 1 << card
        return cls(tuple(hands), leader)


def _parse_int(text: str, field: str) -> int:
    digits = text[1:] if text.startswith("-") else text
    if not digits.isdigit() or not digits.isascii():
        raise PositionError(f'{field} "{text}" is not a number', field)
    return int(text)


def _parse_trick(text: str) -> tuple[Card, ...]:
    if text == "-":
        return ()
    if text == "":
        raise PositionError('the trick field is empty: write "-" for no cards', "trick")
    cards = []
    for i, word in enumerate(text.split(","), start=1):
        try:
            cards.append(Card.parse(word))
        except NotationError as error:
            raise PositionError(f"trick card {i}: {error}", "trick") from None
    return tuple(cards)


def _validate(position: Position) -> None:
    hands, leader, trick, taken = position.hands, position.leader, position.trick, position.taken
    if len(hands) != SEATS:
        raise PositionError(f"a position has 3 hands, not {len(hands)}", "position")
    if not isinstance(leader, int) or leader not in range(SEATS):
        raise PositionError(f"leader {leader} is out of range: seats are 0, 1, 2", "leader")
    for seat, hand in enumerate(hands):
        if hand < 0 or hand >> DECK_SIZE:
            raise PositionError(f"hand {seat} holds bits that are not cards", f"hand{seat}")
    _check_duplicates(hands, trick)
    if len(trick) >= SEATS:
        raise PositionError(
            f"{len(trick)} cards in the trick: a trick of three is already resolved", "trick"
        )
    sizes = [popcount(h) for h in hands]
    played = {(leader + i) % SEATS for i in range(len(trick))}
    expected_full = max(sizes[s] + (s in played) for s in range(SEATS))
    for seat in range(SEATS):
        expected = expected_full - (seat in played)
        if sizes[seat] != expected or expected < 0:
            _raise_size_error(sizes, leader, trick, played)
    if sizes[position.to_move] == 0 and trick:
        raise PositionError(f"seat {position.to_move} is to move but holds no card", "trick")
    if len(taken) != SEATS:
        raise PositionError(f"taken has {len(taken)} numbers, not 3", "taken")
    if any(t < 0 for t in taken):
        raise PositionError(f"taken {','.join(map(str, taken))} has a negative number", "taken")
    live = hands[0] | hands[1] | hands[2] | position.trick_mask
    coins_gone = 12 - popcount(live & COINS_MASK)
    if sum(taken) > coins_gone:
        raise PositionError(
            f"taken {','.join(map(str, taken))} adds up to {sum(taken)}, "
            f"but only {coins_gone} Coins are gone",
            "taken",
        )


def _check_duplicates(hands, trick) -> None:
    seen: dict[int, str] = {}
    places = [(f"hand {s}", hands[s]) for s in range(SEATS)]
    for place, mask in places:
        for card in cards_in(mask):
            if card in seen:
                raise PositionError(
                    f"duplicate card: {card} in {seen[card]} and {place}", f"hand{place[-1]}"
                )
            seen[card] = place
    for card in trick:
        if seen.get(card) == "the trick":
            raise PositionError(f"duplicate card: {card} twice in the trick", "trick")
        if card in seen:
            raise PositionError(f"duplicate card: {card} in {seen[card]} and in the trick", "trick")
        seen[card] = "the trick"


def _raise_size_error(sizes, leader, trick, played) -> None:
    shown = ",".join(map(str, sizes))
    if not trick:
        raise PositionError(
            f"hand sizes {shown}: with no trick on the table every seat holds as many cards",
            "hands",
        )
    who = ", ".join(str(s) for s in sorted(played))
    raise PositionError(
        f"hand sizes {shown} do not fit a trick of {len(trick)} led by seat {leader}: "
        f"seat{'s' if len(played) > 1 else ''} {who} should hold one card fewer than the other"
        f"{'s' if len(played) == 1 else ''}",
        "hands",
    )
