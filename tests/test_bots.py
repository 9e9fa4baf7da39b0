"""Bots (analysis.bots): legal cards only, no peeking at hidden hands, seeded play.

Expected values: RULES.md (any card held may be played: no duty to follow
suit); ``solver.match.Hand`` raises ``PlayerError`` on any card the seat does
not hold, so whole hands played without an error are hands of legal cards.
"""

from __future__ import annotations

import random

import pytest

from analysis.bots import (
    PimcBot,
    choose_from_view,
    greedy_bot,
    make_bot,
    policy_bot,
    random_bot,
)
from solver import CoinsError, Position, Record
from solver.cards import parse_hand
from solver.match import Hand, Match
from solver.sampling import resample_position, sample_deal

FAST_PIMC = PimcBot(samples=2, time_limit=0, rollouts=1)


def random_positions(n: int, seed: int):
    rng = random.Random(seed)
    for _ in range(n):
        position = Position.random(rng, rng.randrange(1, 17), rng.randrange(3))
        for _ in range(rng.randrange(3)):
            position = position.play(rng.choice(position.legal_cards()))
        yield position, rng


@pytest.mark.parametrize(
    "bot",
    [random_bot, greedy_bot, policy_bot, FAST_PIMC],
    ids=["random", "greedy", "policy", "pimc"],
)
def test_bots_play_legal_cards_at_random_positions(bot):
    for position, rng in random_positions(150, seed=3):
        seat = position.to_move
        card = bot(position, seat, rng)
        assert card in position.legal_cards()


def test_whole_hands_of_every_pairing_are_legal():
    bots = [random_bot, greedy_bot, FAST_PIMC]
    for seed in range(6):
        order = bots[seed % 3 :] + bots[: seed % 3]
        result = Hand(order, dealer=seed % 3, seed=seed).play()
        assert result.complete and sum(result.points) == 12


def test_many_greedy_and_random_hands_are_legal():
    for seed in range(60):
        result = Hand([greedy_bot, random_bot, greedy_bot], dealer=seed % 3, seed=seed).play()
        assert len(result.record.moves) == 48


@pytest.mark.parametrize(
    "bot",
    [random_bot, greedy_bot, policy_bot, FAST_PIMC],
    ids=["random", "greedy", "policy", "pimc"],
)
def test_bots_do_not_look_at_the_hidden_hands(bot):
    for position, rng in random_positions(40, seed=5):
        seat = position.to_move
        other = resample_position(position, seat, random.Random(1))
        state = rng.getstate()
        first = bot(position, seat, rng)
        rng.setstate(state)
        assert bot(other, seat, rng) == first


def test_pimc_is_seeded():
    bot = PimcBot(samples=3, time_limit=0, rollouts=2)
    first = Hand([bot, greedy_bot, random_bot], seed=11).play()
    again = Hand([bot, greedy_bot, random_bot], seed=11).play()
    assert first == again


WEIGHTED_PIMC = PimcBot(samples=3, time_limit=0, sampler="weighted")


def test_weighted_pimc_reads_only_its_view_of_the_record():
    # two records with one view: the hidden hands differ, the card does not
    for seed in range(6):
        full = Hand([greedy_bot] * 3, seed=seed).play().record
        cut = 3 * (seed + 3) + seed % 3
        record = Record(full.hands, full.leader, full.trick, full.taken, full.moves[:cut])
        seat = record.to_move
        other = sample_deal(record.view(seat), seed=seed).record
        assert other.view(seat) == record.view(seat)
        first = WEIGHTED_PIMC.choose_record(record, seat, random.Random(seed))
        assert WEIGHTED_PIMC.choose_record(other, seat, random.Random(seed)) == first
        assert first in record.final.legal_cards()


def test_weighted_pimc_plays_seeded_legal_hands():
    first = Hand([WEIGHTED_PIMC, greedy_bot, random_bot], seed=12).play()
    assert first == Hand([WEIGHTED_PIMC, greedy_bot, random_bot], seed=12).play()
    assert first.complete


def test_pimc_without_the_opponent_model_plays_the_same_from_the_record_or_the_position():
    full = Hand([greedy_bot] * 3, seed=3).play().record
    record = Record(full.hands, full.leader, full.trick, full.taken, full.moves[:20])
    seat = record.to_move
    bot = PimcBot(samples=2, time_limit=0, sampler="uniform", opponents="greedy")
    by_record = bot.choose_record(record, seat, random.Random(4))
    assert by_record == bot.choose(record.final, seat, random.Random(4))


def test_choose_from_view():
    view = "? KNJ7543.96.AN874.96 ? 0 - | JO KC"  # seat 2 to move: hidden
    with pytest.raises(CoinsError):
        choose_from_view(greedy_bot, view, random.Random(0))
    view = "? KNJ7543.96.AN874.96 ? 0 - | JO"  # seat 1 to move after JO
    card = choose_from_view(greedy_bot, view, random.Random(0))
    # JO led and no higher Coin (96 only): shed the lowest non-Coin
    assert str(card) == "3C"
    card = choose_from_view(FAST_PIMC, view, random.Random(0))
    assert parse_hand("KNJ7543.96.AN874.96") >> card & 1


def test_make_bot():
    assert make_bot("random") is random_bot
    assert make_bot("greedy") is greedy_bot
    assert make_bot("policy") is policy_bot
    assert make_bot("pimc", samples=4).samples == 4
    with pytest.raises(CoinsError):
        make_bot("clever")


def test_a_short_match_of_bots_ends():
    result = Match([greedy_bot, random_bot, FAST_PIMC], target=10, seed=2).play()
    assert max(result.scores) >= 10
