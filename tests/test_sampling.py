"""Determinisations of a view (solver.sampling).

Expected values: RULES.md (a view hides the other starting hands; sizes follow
from the record; no duty to follow suit, so every filling of the hidden hands
that holds the cards they later play is consistent; taken cannot exceed the
Coins gone). Counts are checked against brute-force enumeration with
``Position``'s own validation; uniformity by a chi-square test at a fixed seed.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from positions import random_ending

from solver.cards import COINS_MASK, FULL_DECK, cards_in, popcount
from solver.errors import CoinsError, PositionError
from solver.match import Hand, random_player
from solver.position import Position
from solver.record import Record
from solver.sampling import (
    count_deals,
    resample_position,
    sample_deal,
    sample_deals,
    unseen_by,
)

RULES_VIEW = "? KNJ7543.96.AN874.96 ? 0 - | JO KC AO"  # RULES.md: seat 1's view


def random_views(n: int, seed: int = 0):
    """(full record, seat, view) for random hands played by random players,
    cut after a random number of cards."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        cards = rng.choice([2, 3, 5, 8, 16])
        start = Position.random(rng, cards, rng.randrange(3))
        record = Hand([random_player] * 3, seed=rng.getrandbits(32), start=start).play().record
        cut = rng.randrange(len(record.moves) + 1)
        record = Record(record.hands, record.leader, record.trick, record.taken, record.moves[:cut])
        seat = rng.randrange(3)
        out.append((record, seat, record.view(seat)))
    return out


def chi_square(counts: Counter, categories: int, total: int) -> float:
    expected = total / categories
    return sum((counts.get(c, 0) - expected) ** 2 / expected for c in range(categories)) + (
        0 if len(counts) <= categories else float("inf")
    )


def test_sizes_and_consistency_on_random_views():
    for record, seat, view in random_views(120):
        for deal in sample_deals(view, 5, seed=1):
            sample = deal.record
            assert not sample.is_view
            # the same view: visible hand, leader, trick, taken and every card played
            assert sample.view(seat) == view
            assert sample.hand_sizes == record.hand_sizes
            assert deal.position == sample.final
            # replaying is legal (Record checks every card) and the position agrees
            assert Record.of(sample.start, sample.moves).final == deal.position


def test_no_seen_or_played_card_is_dealt_to_the_wrong_place():
    for _, seat, view in random_views(80, seed=2):
        seen = view.hands[seat] | sum(1 << c for c in view.trick)
        for deal in sample_deals(view, 5, seed=3):
            start = deal.record.start
            for other in view.hidden:
                assert start.hands[other] & seen == 0
                # what a hidden seat plays in the record is in its starting hand
            mover_cards = {}
            position = start
            for card in view.moves:
                mover_cards.setdefault(position.to_move, []).append(card)
                position = position.play(card)
            for other in view.hidden:
                for card in mover_cards.get(other, []):
                    assert start.hands[other] >> card & 1


def test_seeded_reproducibility():
    first = [str(d.record) for d in sample_deals(RULES_VIEW, 10, seed=42)]
    again = [str(d.record) for d in sample_deals(RULES_VIEW, 10, rng=random.Random(42))]
    other = [str(d.record) for d in sample_deals(RULES_VIEW, 10, seed=43)]
    assert first == again
    assert first != other
    with pytest.raises(CoinsError):
        sample_deal(RULES_VIEW, rng=random.Random(1), seed=1)


def test_rules_view_keeps_seat_1s_hand_and_the_played_cards():
    view = Record.parse(RULES_VIEW)
    for deal in sample_deals(view, 20, seed=5):
        start = deal.record.start
        assert start.hands[1] == view.hands[1]
        assert start.hands[0] >> Record.parse(RULES_VIEW).moves[0] & 1  # JO: seat 0 led it
        assert start.hands[2] >> Record.parse(RULES_VIEW).moves[2] & 1  # AO: seat 2 played it
        assert popcount(start.hands[0]) == popcount(start.hands[2]) == 16


def brute_force_start_deals(view: Record) -> list[tuple[int, ...]]:
    """Every filling of the hidden hands of a view with no cards played (two
    hidden seats) that ``Position`` accepts."""
    assert not view.moves and len(view.hidden) == 2
    shown = sum(h for h in view.hands if h is not None) | sum(1 << c for c in view.trick)
    pool = cards_in(FULL_DECK & ~shown)
    first, second = view.hidden
    sizes = view.hand_sizes
    found = []
    for a in itertools.combinations(pool, sizes[first]):
        rest = [c for c in pool if c not in a]
        for b in itertools.combinations(rest, sizes[second]):
            hands = list(view.hands)
            hands[first] = sum(1 << c for c in a)
            hands[second] = sum(1 << c for c in b)
            try:
                Position(tuple(hands), view.leader, view.trick, view.taken)
            except PositionError:
                continue
            found.append(tuple(hands))
    return found


FULL_DEAL = "982.J8732.K95.AJ542 KNJ7543.96.AN874.96 A6.AKN54.J632.KN873 0 -"  # RULES.md


def test_uniform_over_an_enumerable_view():
    # a whole hand from the deal, cut with 3 cards a hand left: seat 0's view.
    # The consistent deals are the splits of the 6 cards still in the hidden
    # hands, 3 and 3 (the cards each played are fixed): C(6, 3) = 20 of them.
    full = Hand([random_player] * 3, seed=17).play().record
    record = Record(full.hands, full.leader, full.trick, full.taken, full.moves[:39])
    view = record.view(0)
    final = record.final
    unseen = cards_in(final.hands[1] | final.hands[2])
    splits = [sum(1 << c for c in part) for part in itertools.combinations(unseen, 3)]
    assert count_deals(view) == len(splits) == 20
    total = 40 * len(splits)
    index = {hand: i for i, hand in enumerate(splits)}
    deals = sample_deals(view, total, seed=11)
    for deal in deals:  # the start hands are the true ones with the live part swapped
        played = record.hands[1] & ~final.hands[1]
        assert deal.record.hands[1] == played | deal.position.hands[1]
    counts = Counter(index[d.position.hands[1]] for d in deals)
    # chi-square, 19 degrees of freedom: 43.8 is the p = 0.001 bound
    assert chi_square(counts, len(splits), total) < 43.8


def test_taken_limits_the_coins_the_hidden_hands_draw():
    # 1 card a hand from a mid-hand start with 11 Coins taken: the hidden hands
    # (one card each from a pool of 47, 12 of them Coins) hold at most one Coin
    view = Record.parse("? ..2. ? 0 - 4,4,3 |")
    n = 47 * 46 - 12 * 11  # ordered pairs of distinct cards, not both Coins
    assert count_deals(view) == len(brute_force_start_deals(view)) == n
    deals = sample_deals(view, 4000, seed=4)
    counts = Counter(
        popcount((d.position.hands[0] | d.position.hands[2]) & COINS_MASK) for d in deals
    )
    assert set(counts) <= {0, 1}
    p_one = 2 * 12 * 35 / n  # one Coin and one of the 35 other cards, either way round
    sd = (4000 * p_one * (1 - p_one)) ** 0.5
    assert abs(counts[1] - 4000 * p_one) < 4 * sd


def test_a_view_that_hides_one_seat_has_one_deal():
    # from the deal, two seats seen: the third hand is what is left
    record = Record.of(FULL_DEAL, ["JO", "KC", "AO", "AC"])
    view = Record(
        (record.hands[0], record.hands[1], None),
        record.leader,
        record.trick,
        record.taken,
        record.moves,
    )
    assert count_deals(view) == 1
    assert sample_deal(view, seed=0).record == record


def test_impossible_views_are_refused():
    with pytest.raises(CoinsError):
        Record.parse("? ..2. ? 0 - 4,4,5 |")  # 13 taken: Record refuses it already


def test_resample_position_keeps_what_the_seat_sees():
    rng = random.Random(9)
    for _ in range(100):
        position = random_ending(rng, 8)
        seat = rng.randrange(3)
        again = resample_position(position, seat, rng)
        assert again.hands[seat] == position.hands[seat]
        assert unseen_by(again, seat) == unseen_by(position, seat)
        assert [popcount(h) for h in again.hands] == [popcount(h) for h in position.hands]
        assert (again.leader, again.trick, again.taken) == (
            position.leader,
            position.trick,
            position.taken,
        )


def test_resample_position_is_uniform():
    position = Position.parse("J3..6. 98...7 6...A8 0 -")
    rng = random.Random(5)
    total = 20 * 40
    counts = Counter(resample_position(position, 0, rng).hands[1] for _ in range(total))
    assert len(counts) == 20  # C(6, 3) ways to split the 6 unseen cards
    assert chi_square(Counter({i: c for i, c in enumerate(counts.values())}), 20, total) < 43.8
