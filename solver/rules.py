"""The rules of Coins (Mark Steere, 2022) in plain Python, straight from RULES.md.

These are the readable reference: the compiled kernels in ``_kernels`` must
agree with them, and the tests check that they do.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .cards import COINS, DECK_SIZE, SEATS, Cards, rank_of, suit_of


def beats(suit_a: int, suit_b: int) -> bool:
    """True when ``suit_a`` beats ``suit_b`` in the cycle C > O > S > B > C."""
    return suit_b == (suit_a + 1) % 4


def trick_winner(trick: Sequence[int]) -> int:
    """Index (0, 1 or 2, in play order) of the card that wins a three-card trick."""
    suits = [suit_of(c) for c in trick]
    distinct = set(suits)
    if len(distinct) == 3:
        missing = ({0, 1, 2, 3} - distinct).pop()
        return suits.index((missing + 1) % 4)
    if len(distinct) == 2:
        paired = max(distinct, key=suits.count)
        pair = [i for i in range(3) if suits[i] == paired]
    else:
        pair = [0, 1, 2]
    return max(pair, key=lambda i: rank_of(trick[i]))


def trick_points(trick: Sequence[int]) -> int:
    """Coins in the trick: what its winner scores."""
    return sum(1 for c in trick if suit_of(c) == COINS)


def left_of(seat: int) -> int:
    return (seat + 1) % SEATS


def right_of(seat: int) -> int:
    return (seat + 2) % SEATS


def deal(dealer: int, rng: random.Random) -> tuple[Cards, Cards, Cards]:
    """Shuffle the 48 cards and deal them one at a time clockwise from the dealer's left."""
    deck = list(range(DECK_SIZE))
    rng.shuffle(deck)
    hands = [0, 0, 0]
    for i, card in enumerate(deck):
        hands[(dealer + 1 + i) % SEATS] |= 1 << card
    return hands[0], hands[1], hands[2]


def next_dealer(last_trick_winner: int) -> int:
    """The next hand's dealer: the seat to the right of the last trick's winner,
    so that the winner leads the first trick."""
    return right_of(last_trick_winner)


def first_leader(dealer: int) -> int:
    return left_of(dealer)
