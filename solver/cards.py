"""Cards as bits of an int64, and their RULES.md notation.

A card's index is ``suit * 12 + rank``: suits in the order Cups, Coins, Swords,
Clubs (``C O S B``), ranks from ``2`` (0) up to Ace (11). A set of cards (a
hand, the cards still live) is an int with bit ``index`` set for each card; only
the low 48 bits are used, so every mask fits a signed int64, the one integer
type Numba kernels use. This index order is also the tie-break order of
RULES.md (suit C, O, S, B; within a suit from 2 up to Ace).

This module is the friendly Python side; ``_kernels`` has the compiled bit
helpers.
"""

from __future__ import annotations

from .errors import NotationError

SUIT_LETTERS = "COSB"
SUIT_NAMES = ("Cups", "Coins", "Swords", "Clubs")
RANK_LETTERS = "23456789JNKA"  # low to high; index = rank value
CUPS, COINS, SWORDS, CLUBS = 0, 1, 2, 3
RANKS_PER_SUIT = 12
DECK_SIZE = 48
HAND_SIZE = 16
SEATS = 3

Cards = int  # a set of cards as a bitmask (python-chess's ``Bitboard = int``)

SUIT_MASK_CUPS = 0xFFF
SUIT_MASK_COINS = 0xFFF << 12
SUIT_MASK_SWORDS = 0xFFF << 24
SUIT_MASK_CLUBS = 0xFFF << 36
SUIT_MASKS = (SUIT_MASK_CUPS, SUIT_MASK_COINS, SUIT_MASK_SWORDS, SUIT_MASK_CLUBS)
COINS_MASK = SUIT_MASK_COINS
FULL_DECK = (1 << DECK_SIZE) - 1

_BAD_CARD = "ranks are A K N J 9-2, suits C O S B"


def popcount(mask: Cards) -> int:
    """Number of cards in ``mask`` (the compiled kernels have their own)."""
    return mask.bit_count()


def suit_of(card):
    return card // RANKS_PER_SUIT


def rank_of(card):
    return card % RANKS_PER_SUIT


class Card(int):
    """A card index that prints in RULES.md notation (``str(Card(23)) == "AO"``).

    It is an ``int``, so it works wherever an index does (bit shifts, dict keys,
    the kernels' arrays) while reading as ``AO`` to people.
    """

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        if not 0 <= int(index) < DECK_SIZE:
            raise NotationError(f"card index {index} is out of range 0-47")
        return super().__new__(cls, index)

    @classmethod
    def parse(cls, text: str) -> Card:
        if len(text) != 2 or text[0] not in RANK_LETTERS or text[1] not in SUIT_LETTERS:
            raise NotationError(f'card "{text}" is not a card: {_BAD_CARD}')
        return cls(SUIT_LETTERS.index(text[1]) * RANKS_PER_SUIT + RANK_LETTERS.index(text[0]))

    @property
    def suit(self) -> int:
        return suit_of(self)

    @property
    def rank(self) -> int:
        return rank_of(self)

    @property
    def bit(self) -> int:
        return 1 << self

    def __str__(self) -> str:
        return RANK_LETTERS[rank_of(self)] + SUIT_LETTERS[suit_of(self)]

    def __repr__(self) -> str:
        return f"Card('{self}')"


def cards_in(mask: Cards) -> list[Card]:
    """The cards of ``mask`` in index order (C, O, S, B; 2 up to Ace)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(Card(low.bit_length() - 1))
        mask ^= low
    return out


def parse_hand(text: str, what: str = "hand") -> Cards:
    """Parse ``AK9.N32.75.J84`` (groups C.O.S.B) to a mask.

    Writers put ranks high to low; the parser also takes them in any order.
    """
    groups = text.split(".")
    if len(groups) != 4:
        raise NotationError(
            f'{what} "{text}" has {len(groups)} group{"s" if len(groups) != 1 else ""}, '
            "not 4 (Cups.Coins.Swords.Clubs)"
        )
    mask = 0
    for suit, group in enumerate(groups):
        for letter in group:
            if letter not in RANK_LETTERS:
                raise NotationError(
                    f'{what} "{text}": "{letter}" in the {SUIT_NAMES[suit]} group is not a rank '
                    f"({_BAD_CARD})"
                )
            rank = RANK_LETTERS.index(letter)
            card = suit * RANKS_PER_SUIT + rank
            if mask >> card & 1:
                raise NotationError(f'{what} "{text}": duplicate card: {Card(card)} listed twice')
            mask |= 1 << card
    return mask


def format_hand(mask: Cards) -> str:
    """The RULES.md hand string of a mask: ``AK9.N32.75.J84``; ``...`` when empty."""
    groups = []
    for suit in range(4):
        ranks = (mask >> (suit * RANKS_PER_SUIT)) & 0xFFF
        groups.append("".join(RANK_LETTERS[r] for r in range(11, -1, -1) if ranks >> r & 1))
    return ".".join(groups)


def parse_cards(text: str, separator: str = " ") -> list[Card]:
    """Cards written one after another, e.g. ``"JO KC AO"``."""
    return [Card.parse(word) for word in text.split(separator)]
