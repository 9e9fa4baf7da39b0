"""The rules (solver.rules), the cards and the compiled bit kernels.

Expected values come from three places, named at each test: the public
vectors (``tests/vectors/tricks.jsonl``), the examples written out in
RULES.md, and a second reading of the RULES.md trick rule written here in a
different shape (by the suit that beats the others) for the exhaustive checks.
"""

from __future__ import annotations

import itertools
import random

import numba
import numpy as np
import pytest
from conftest import load_jsonl

from solver import _kernels as kernels
from solver.cards import (
    COINS_MASK,
    FULL_DECK,
    SUIT_MASKS,
    Card,
    cards_in,
    format_hand,
    parse_hand,
    popcount,
)
from solver.errors import CoinsError, NotationError
from solver.rules import (
    beats,
    deal,
    first_leader,
    left_of,
    next_dealer,
    right_of,
    trick_points,
    trick_winner,
)

TRICKS = load_jsonl("tricks.jsonl")


def cards(text: str) -> list[Card]:
    return [Card.parse(word) for word in text.split()]


# --- tricks: the public vectors -------------------------------------------------


@pytest.mark.parametrize("line", TRICKS, ids=[" ".join(t["trick"]) for t in TRICKS])
def test_tricks_vector(line):
    """tricks.jsonl: winner_index and points of each trick."""
    trick = [Card.parse(c) for c in line["trick"]]
    assert trick_winner(trick) == line["winner_index"]
    assert trick_points(trick) == line["points"]


def test_tricks_vector_covers_every_suit_pattern():
    """vectors/README.md promises every ordered pattern of suits: 24 of three
    suits, 36 with exactly two alike, 4 all alike (64 patterns)."""
    patterns = {tuple(Card.parse(c).suit for c in line["trick"]) for line in TRICKS}
    assert len(TRICKS) >= 64
    assert len(patterns) == 64


# --- tricks: the examples of RULES.md -----------------------------------------------


@pytest.mark.parametrize(
    "trick, winner, points",
    [
        ("AS 2C 9O", 1, 1),  # RULES.md: Clubs missing, so Cups wins: 2C
        ("2O 3O AC", 1, 2),  # RULES.md: exactly two alike, the higher wins: 3O
        ("JO KC AO", 2, 2),  # RULES.md record example: AO wins, seat 2 takes 2 points
    ],
)
def test_rules_examples(trick, winner, points):
    assert trick_winner(cards(trick)) == winner
    assert trick_points(cards(trick)) == points


def test_suit_cycle():
    """RULES.md: C > O > S > B > C; suit s beats suit (s+1) mod 4 and nothing else."""
    expected = {(0, 1), (1, 2), (2, 3), (3, 0)}
    for a, b in itertools.product(range(4), repeat=2):
        assert beats(a, b) == ((a, b) in expected)


def test_card_notation_examples():
    """RULES.md: AO Ace of Coins, NB Knight of Clubs, 7S; index = suit*12 + rank (2 = 0)."""
    assert Card.parse("AO") == 1 * 12 + 11
    assert Card.parse("NB") == 3 * 12 + 9
    assert Card.parse("7S") == 2 * 12 + 5
    assert Card.parse("2C") == 0
    assert [str(Card(i)) for i in range(48)] == [r + s for s in "COSB" for r in "23456789JNKA"]


def test_hand_notation_examples():
    """RULES.md: AK9.N32.75.J84, ...2 (only the 2 of Clubs), ... (empty)."""
    mask = parse_hand("AK9.N32.75.J84")
    assert [str(c) for c in cards_in(mask)] == [
        "9C",
        "KC",
        "AC",
        "2O",
        "3O",
        "NO",
        "5S",
        "7S",
        "4B",
        "8B",
        "JB",
    ]
    assert format_hand(mask) == "AK9.N32.75.J84"
    assert cards_in(parse_hand("...2")) == [Card.parse("2B")]
    assert parse_hand("...") == 0
    assert format_hand(0) == "..."


@pytest.mark.parametrize("text", ["TO", "1C", "QS", "O3", "3D", "AO ", "", "A", "10C"])
def test_bad_cards(text):
    with pytest.raises(NotationError):
        Card.parse(text)


@pytest.mark.parametrize("index", [-1, 48, 100])
def test_card_index_range(index):
    with pytest.raises(CoinsError):
        Card(index)


def test_masks():
    """cards.py: a suit is 12 consecutive bits; the Coins mask is suit 1."""
    assert [popcount(m) for m in SUIT_MASKS] == [12] * 4
    assert sum(SUIT_MASKS) == FULL_DECK == (1 << 48) - 1
    assert COINS_MASK == SUIT_MASKS[1]
    assert all(Card(c).suit == 1 for c in cards_in(COINS_MASK))


# --- tricks: exhaustive --------------------------------------------------------------


def rules_text_winner(trick) -> int:
    """RULES.md read a second way: with three suits, the card whose suit beats
    another suit in the trick and is beaten by none; otherwise the highest card
    of the suit that holds two or three of the cards."""
    suits = [c // 12 for c in trick]
    if len(set(suits)) == 3:
        (winner,) = [
            i
            for i in range(3)
            if any(beats(suits[i], s) for s in suits) and not any(beats(s, suits[i]) for s in suits)
        ]
        return winner
    shared = next(s for s in suits if suits.count(s) >= 2)
    return max((i for i in range(3) if suits[i] == shared), key=lambda i: trick[i] % 12)


ALL_TRICKS = list(itertools.permutations(range(48), 3))


def test_all_tricks_count():
    assert len(ALL_TRICKS) == 48 * 47 * 46 == 103776


def test_rules_winner_all_tricks():
    """solver.rules.trick_winner on every ordered triple of distinct cards."""
    bad = [t for t in ALL_TRICKS if trick_winner(t) != rules_text_winner(t)]
    assert not bad, f"{len(bad)} tricks differ, e.g. {[str(Card(c)) for c in bad[0]]}"


@pytest.mark.kernels
def test_kernel_winner_all_tricks():
    """The compiled _kernels.trick_winner equals rules.trick_winner on all 103776 tricks."""
    bad = [t for t in ALL_TRICKS if kernels.trick_winner(t[0], t[1], t[2]) != trick_winner(t)]
    assert not bad, f"{len(bad)} tricks differ, e.g. {[str(Card(c)) for c in bad[0]]}"


@pytest.mark.kernels
def test_kernel_coin_count():
    assert [kernels.coin_count(c) for c in range(48)] == [int(c // 12 == 1) for c in range(48)]


# --- bit kernels ---------------------------------------------------------------------


def random_masks(n: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    masks = [0, FULL_DECK, COINS_MASK, 1, 1 << 47]
    for _ in range(n):
        density = rng.random()
        masks.append(sum(1 << i for i in range(48) if rng.random() < density))
    return masks


@numba.njit
def _compiled_popcount(mask):
    return kernels.popcount(mask)


@numba.njit
def _compiled_bit_index(bit):
    return kernels.bit_index(bit)


@pytest.mark.kernels
def test_kernel_popcount():
    """_kernels.popcount, compiled (LLVM's ctpop) and as plain Python, counts
    the bits of random 48-bit masks."""
    for mask in random_masks(2000, seed=1):
        expected = bin(mask).count("1")
        assert _compiled_popcount(np.int64(mask)) == expected, hex(mask)
        assert kernels.popcount(np.int64(mask)) == expected, hex(mask)
        assert popcount(mask) == expected


@pytest.mark.kernels
def test_kernel_bit_index():
    """_kernels.bit_index, compiled (LLVM's cttz) and as plain Python:
    bit_index(1 << i) == i for every card, and on the low bit of random masks."""
    for i in range(48):
        assert _compiled_bit_index(np.int64(1 << i)) == i
        assert kernels.bit_index(np.int64(1 << i)) == i
    for mask in random_masks(2000, seed=2):
        if mask:
            low = mask & -mask
            assert _compiled_bit_index(np.int64(low)) == low.bit_length() - 1
            assert kernels.bit_index(np.int64(low)) == low.bit_length() - 1


# --- seats, dealing ------------------------------------------------------------------


def test_seats():
    """RULES.md: the player to seat p's left is (p+1) mod 3, to its right (p+2) mod 3;
    the next dealer is right of the last trick's winner, so that the winner leads;
    the player to the dealer's left leads the first trick."""
    assert [left_of(p) for p in range(3)] == [1, 2, 0]
    assert [right_of(p) for p in range(3)] == [2, 0, 1]
    assert [next_dealer(w) for w in range(3)] == [2, 0, 1]
    for winner in range(3):
        assert first_leader(next_dealer(winner)) == winner


@pytest.mark.parametrize("dealer", [0, 1, 2])
@pytest.mark.parametrize("seed", [0, 1, 12345])
def test_deal(dealer, seed):
    """16 cards each, disjoint, the whole deck; card i of the shuffled deck goes to
    seat (dealer + 1 + i) mod 3: one at a time, clockwise from the dealer's left."""
    hands = deal(dealer, random.Random(seed))
    assert [popcount(h) for h in hands] == [16, 16, 16]
    assert hands[0] & hands[1] == hands[0] & hands[2] == hands[1] & hands[2] == 0
    assert hands[0] | hands[1] | hands[2] == FULL_DECK

    deck = list(range(48))
    random.Random(seed).shuffle(deck)  # the same stream: deal shuffles the 48 indices
    expected = [0, 0, 0]
    seat = dealer
    for card in deck:
        seat = (seat + 1) % 3  # the next player clockwise, starting at the dealer's left
        expected[seat] |= 1 << card
    assert list(hands) == expected
    assert deck[0] in cards_in(hands[left_of(dealer)])
    assert deck[47] in cards_in(hands[dealer])  # the dealer gets the last card


def test_deal_is_seeded():
    """The same seed gives the same deal; the dealer only rotates who gets which cards."""
    assert deal(0, random.Random(7)) == deal(0, random.Random(7))
    assert deal(0, random.Random(7)) != deal(0, random.Random(8))
    for dealer in range(3):
        hands = deal(dealer, random.Random(7))
        rotated = [hands[(dealer + 1 + j) % 3] for j in range(3)]
        reference = deal(0, random.Random(7))
        assert rotated == [reference[(0 + 1 + j) % 3] for j in range(3)]


def test_deal_uses_only_the_given_rng():
    """No global random state: seeding the module-level generator changes nothing."""
    random.seed(1)
    first = deal(0, random.Random(99))
    random.seed(2)
    random.random()
    assert deal(0, random.Random(99)) == first
