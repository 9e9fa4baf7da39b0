"""Hints by determinised Monte Carlo search (analysis.hint) and the playout helpers.

Expected values: the open-hand solvers themselves. When the view admits one
deal, or the true deal is the only sample, each card's mean must be the
mover's own points in ``solve_maxn``'s card result (max^n) or its paranoid
card value from ``solve``; the trick winner of ``analysis.playout`` must agree
with ``rules.trick_winner`` (RULES.md) on every ordered trick.
"""

from __future__ import annotations

import itertools
import random

import pytest

from analysis.hint import Hint, hint
from analysis.playout import greedy_card, playout, winner_index
from solver import CoinsError, Position, Record, solve
from solver.match import Hand, random_player
from solver.maxn import solve_maxn
from solver.cards import Card, parse_hand
from solver.rules import trick_winner


def record_cut(seed: int, cards_left: int) -> Record:
    """A whole hand from the deal by random players, cut with ``cards_left``
    cards per hand still to play (and sometimes a card or two on the table)."""
    full = Hand([random_player] * 3, seed=seed).play().record
    cut = 3 * (16 - cards_left) + seed % 3
    return Record(full.hands, full.leader, full.trick, full.taken, full.moves[:cut])


def hide_one(record: Record) -> Record:
    """The record with one seat other than the mover hidden: one deal fits it."""
    hidden = (record.to_move + 1) % 3
    hands = tuple(None if s == hidden else h for s, h in enumerate(record.hands))
    return Record(hands, record.leader, record.trick, record.taken, record.moves)


def test_winner_index_agrees_with_the_rules():
    for trick in itertools.permutations(range(0, 48, 5), 3):
        assert winner_index(*trick) == trick_winner(trick)
    rng = random.Random(0)
    for _ in range(5000):
        trick = rng.sample(range(48), 3)
        assert winner_index(*trick) == trick_winner(trick)


def test_playout_gives_out_every_coin_left():
    rng = random.Random(1)
    for _ in range(200):
        position = Position.random(rng, rng.randrange(1, 17), rng.randrange(3))
        for _ in range(rng.randrange(3)):
            position = position.play(rng.choice(position.legal_cards()))
        points = playout(position.hands, position.leader, position.trick, rng, 0.3)
        assert sum(points) == position.coins_left


def test_greedy_last_seat_takes_the_coins_and_keeps_its_own():
    # last to play after 2O 3O: 4O and AO both win the three Coins; it spends
    # the lower one and keeps the Ace
    hand = parse_hand(".A4.2.")
    trick = [Card.parse("2O"), Card.parse("3O")]
    assert str(Card(greedy_card(hand, trick))) == "4O"
    # nothing to win: 2C 3C on the table, holding AO and 2S: AO would lose
    # (two Cups: the higher Cup wins), so shed 2S and keep the Coin
    hand = parse_hand(".A.2.")
    trick = [Card.parse("2C"), Card.parse("3C")]
    assert str(Card(greedy_card(hand, trick))) == "2S"


def test_single_deal_view_equals_the_open_hand_solver():
    for seed in range(6):
        record = record_cut(seed, 5)
        view = hide_one(record)
        truth = solve_maxn(record.final, card_results=True, line=False)
        mover = record.to_move
        result = hint(view, samples=4, time_limit=0, seed=seed)
        assert result.samples == result.exact == 4
        assert {e.card for e in result} == set(record.final.legal_cards())
        for entry in result:
            assert entry.mean == truth.card_results[entry.card][mover]
            assert entry.stderr == 0
        top = max(r[mover] for r in truth.card_results.values())
        assert all(e.best_rate == (1.0 if e.mean == top else 0.0) for e in result)
        assert result[0].mean == top


def test_true_deal_as_the_only_sample_in_both_modes():
    for seed in range(6):
        position = record_cut(seed + 10, 6).final
        mover = position.to_move
        maxn = hint(None, deals=[position], mode="maxn")
        truth = solve_maxn(position, card_results=True, line=False)
        assert {e.card: e.mean for e in maxn} == {
            c: r[mover] for c, r in truth.card_results.items()
        }
        paranoid = hint(None, deals=[position], mode="paranoid")
        values = solve(position, (mover,), line=False).card_values
        assert {e.card: e.mean for e in paranoid} == values


def test_entries_cover_every_legal_card_and_are_sorted():
    rng = random.Random(4)
    for cards in (16, 11, 7, 3, 1):
        position = Position.random(rng, cards, rng.randrange(3))
        result = hint(position, samples=3, seed=1)
        assert isinstance(result, Hint)
        assert sorted(e.card for e in result) == position.legal_cards()
        keys = [(-e.mean, -e.best_rate, e.card) for e in result]
        assert keys == sorted(keys)
        assert all(0 <= e.best_rate <= 1 and e.stderr >= 0 for e in result)
        assert result.seat == position.to_move


def test_rollout_values_count_the_trick_the_card_completes():
    # last to play with 2O 3O on the table: the 4O wins all three Coins at once
    position = Position.parse(".4.2.2 .K..3 .A..4 1 2O,3O")
    result = hint(None, deals=[position], exact_cards=0, rollouts=4)
    values = {str(e.card): e.mean for e in result}
    assert values["4O"] >= 3
    assert values["2S"] < values["4O"]


def test_seeded_reproducibility():
    view = record_cut(3, 12).view(record_cut(3, 12).to_move)
    first = hint(view, samples=5, time_limit=0, seed=7)
    again = hint(view, samples=5, time_limit=0, rng=random.Random(7))
    assert [e.to_json() for e in first] == [e.to_json() for e in again]
    other = hint(view, samples=5, time_limit=0, seed=8)
    assert [e.to_json() for e in first] != [e.to_json() for e in other]


def test_time_limit_stops_sampling_but_keeps_one_deal():
    position = Position.random(random.Random(2), 16)
    result = hint(position, samples=10_000, time_limit=0.05, seed=1)
    assert 1 <= result.samples < 10_000
    assert result.seconds < 1.0


def test_bad_arguments():
    position = Position.random(random.Random(2), 4)
    with pytest.raises(CoinsError):
        hint(position, mode="both")
    with pytest.raises(CoinsError):
        hint(position, samples=0)
    with pytest.raises(CoinsError):
        hint(Position.parse("... ... ... 0 -"))
    with pytest.raises(CoinsError):  # seat 1's view, but seat 2 is to move
        hint("? KNJ7543.96.AN874.96 ? 0 - | JO KC AO")
