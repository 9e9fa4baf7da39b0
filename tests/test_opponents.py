"""Opponent models (analysis.opponents), the per-seat playouts they drive, and
the beliefs a hint reports.

Expected values: probabilities of a kind sum to 1 over the cards of a hand
(each card has one place in greedy's order, counted here by removing
greedy's card one at a time); the playouts' draws match the kinds'
probabilities (the likelihood and the policy are the same law); a seat
whose cards were played by a known bot ends with most belief on that bot's
kind; the true deal of a record played by greedy bots maximises every
kind's likelihood, so it weighs 1, the most of any deal.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import numpy as np
import pytest
from test_hint import reference_greedy, reference_play_until
from test_play_commands import run

from analysis.bots import greedy_bot, random_bot
from analysis.hint import HintSettings, hint
from analysis.opponents import KINDS, PRIOR, Kind, OpponentModel, SeatBelief
from solver import CoinsError, Position, Record
from solver.cards import popcount
from solver.errors import OptionError
from solver.match import Hand
from solver.playouts import Policy, greedy_card, greedy_place, greedy_places, play_until
from solver.rules import trick_winner
from solver.sampling import ViewSampler


def reference_places(hand: int, trick) -> dict[int, int]:
    """Every card's place in greedy's order, by taking greedy's card away in turn."""
    places = {}
    while hand:
        card = reference_greedy(hand, list(trick))
        places[card] = len(places)
        hand &= ~(1 << card)
    return places


def random_hand_and_trick(rng):
    cards = rng.sample(range(48), rng.randrange(3, 19))
    n = rng.randrange(3)
    return sum(1 << c for c in cards[n:]), cards[:n]


@pytest.mark.kernels
def test_greedy_place_is_the_place_in_greedys_order():
    rng = random.Random(1)
    for _ in range(300):
        hand, trick = random_hand_and_trick(rng)
        for card, place in reference_places(hand, trick).items():
            assert greedy_place(hand, trick, card) == place
        assert greedy_place(hand, trick, greedy_card(hand, trick)) == 0


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_a_kinds_probabilities_sum_to_one_over_a_hand(kind):
    rng = random.Random(2)
    for _ in range(100):
        hand, trick = random_hand_and_trick(rng)
        places = np.array(list(reference_places(hand, trick).values()))
        p = kind.probabilities(places, np.float64(popcount(hand)))
        assert p.sum() == pytest.approx(1.0) and (p > 0).all()


def play(bots, seed: int, cards: int) -> Record:
    """The first ``cards`` cards of a hand by ``bots``, from seed ``seed``'s deal."""
    full = Hand(bots, seed=seed).play().record
    return Record(full.hands, full.leader, full.trick, full.taken, full.moves[:cards])


def evidence_of(record: Record, deals: int = 300, seed: int = 0):
    view = record.view(record.to_move)
    sampler, rng = ViewSampler(view), random.Random(seed)
    return view, OpponentModel().evidence(view, [sampler.sample_hands(rng) for _ in range(deals)])


@pytest.mark.parametrize(
    "bot, kind, least",
    [(greedy_bot, "greedy", 0.6), (random_bot, "random", 0.9)],
    ids=["greedy", "random"],
)
def test_the_belief_moves_to_the_kind_that_played(bot, kind, least):
    # seat 0 plays greedy throughout; seats 1 and 2 are the bot; after six
    # tricks each has played six cards (the record is seat 0's view)
    for seed in range(4):
        view = play([greedy_bot, bot, bot], seed, 18).view(0)
        sampler, rng = ViewSampler(view), random.Random(seed)
        evidence = OpponentModel().evidence(view, [sampler.sample_hands(rng) for _ in range(300)])
        for belief in evidence.beliefs():
            assert belief.plays == 6
            assert belief.likeliest[0] == kind and belief.posterior[kind] >= least
            assert sum(belief.posterior.values()) == pytest.approx(1.0)


def test_with_nothing_seen_the_belief_is_the_prior():
    model = OpponentModel()
    record = play([greedy_bot] * 3, 5, 0)
    view, evidence = evidence_of(record, 20)
    for belief in evidence.beliefs():
        assert belief.plays == 0
        assert list(belief.posterior.values()) == pytest.approx(list(PRIOR))
        assert "no card seen yet" in str(belief)
    assert (evidence.deal_weights() == 1).all()
    assert max(PRIOR) < 1  # the prior is not greedy alone
    for belief in model.without_evidence([1, 2]).beliefs():
        assert list(belief.posterior.values()) == pytest.approx(list(PRIOR))


def test_the_true_deal_of_greedy_play_weighs_the_most():
    for seed in range(3):
        record = play([greedy_bot] * 3, seed, 14 + seed)
        view = record.view(record.to_move)
        sampler, rng = ViewSampler(view), random.Random(seed)
        deals = [sampler.sample_hands(rng) for _ in range(200)] + [record.hands]
        weights = OpponentModel().evidence(view, deals).deal_weights()
        assert weights[-1] == 1.0 and weights.max() == 1.0
        assert weights.min() < 1.0  # the plays told some deals apart


def test_a_deals_kinds_are_drawn_from_its_posterior():
    record = play([greedy_bot, random_bot, greedy_bot], 3, 20)
    view = record.view(0)
    evidence = OpponentModel().evidence(view, [record.hands])
    rng = random.Random(4)
    drawn = Counter(evidence.draw(0, rng)[1].name for _ in range(400))
    assert drawn["random"] > 390  # seat 1 played at random: 6 cards say so


@pytest.mark.kernels
def test_greedy_places_follow_the_hands_through_the_record():
    record = play([random_bot] * 3, 7, 25)
    turns, hands, trick, leader = [], list(record.hands), [], record.leader
    for card in record.moves:
        seat = (leader + len(trick)) % 3
        turns.append((seat, list(trick), card))
        hands[seat] &= ~(1 << card)
        trick.append(card)
        if len(trick) == 3:
            leader, trick = (leader + trick_winner(trick)) % 3, []
    places = greedy_places([record.hands, record.hands], turns)
    assert places.shape == (2, 25) and (places[0] == places[1]).all()
    hands = list(record.hands)
    for (seat, before, card), place in zip(turns, places[0]):
        assert place == reference_places(hands[seat], before)[card]
        hands[seat] &= ~(1 << card)


# ----- per-seat playouts


@pytest.mark.kernels
def test_greedy_policies_play_the_old_greedy_playout():
    rng = random.Random(10)
    for _ in range(100):
        position = Position.random(rng, rng.randrange(1, 17), rng.randrange(3))
        left = rng.randrange(0, 6)
        args = (position.hands, position.leader, position.trick)
        got = play_until(*args, rng, 0.0, left, [Policy()] * 3)
        assert got == reference_play_until(*args, left)
        state = rng.getstate()
        trembling = play_until(*args, rng, 0.3, left, [Policy(0.3)] * 3)
        rng.setstate(state)
        assert trembling == play_until(*args, rng, 0.3, left)  # the same random stream


@pytest.mark.kernels
@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_the_playouts_draw_cards_as_the_kind_says(kind):
    # one trick from hands of 8, seat 1 leading by the kind, many times: how
    # often its card comes from each place of greedy's order is the kind's probability
    position = Position.random(random.Random(11), 8, 1)
    hand, draws = position.hands[1], 4000
    rng = random.Random(12)
    counts = Counter()
    for _ in range(draws):
        hands, _, _, _ = play_until(
            position.hands, 1, (), rng, 0.0, 7, [Policy(), kind.policy, Policy()]
        )
        counts[greedy_place(hand, (), (hand & ~hands[1]).bit_length() - 1)] += 1
    expected = kind.probabilities(np.arange(8), np.float64(8))
    for place in range(8):
        assert counts[place] / draws == pytest.approx(expected[place], abs=0.03)


def test_bad_policies_and_models_are_refused():
    position = Position.random(random.Random(1), 5, 0)
    args = (position.hands, position.leader, position.trick, random.Random(1), 0.0, 0)
    with pytest.raises(OptionError, match="each of the 3 seats"):
        play_until(*args, [Policy()] * 2)
    for bad in (Policy(1.5, 0), Policy(0, -1), Policy(float("nan"), 0), Policy(True, 0)):
        with pytest.raises(OptionError, match="playout policy"):
            play_until(*args, [Policy(), Policy(), bad])
    with pytest.raises(OptionError, match="does not hold"):
        greedy_place(0b11, (), 5)
    with pytest.raises(OptionError, match="does not hold"):
        greedy_places([position.hands], [(0, [], 47 if not position.hands[0] >> 47 & 1 else 0)])
    with pytest.raises(OptionError, match="twice"):
        card = greedy_card(position.hands[0], ())
        greedy_places([position.hands], [(0, [], card), (0, [card], card)])
    with pytest.raises(OptionError):
        Kind("shaky", tremble=2.0)
    with pytest.raises(OptionError, match="sum to 1"):
        OpponentModel(prior=(0.5, 0.2, 0.2, 0.2))
    with pytest.raises(OptionError, match="one prior probability"):
        OpponentModel(prior=(1.0,))
    with pytest.raises(OptionError, match="above 0"):
        OpponentModel(prior=(1.0, 0.0, 0.0, 0.0))
    with pytest.raises(OptionError, match="different names"):
        OpponentModel(kinds=(KINDS[0], KINDS[0]), prior=(0.5, 0.5))
    with pytest.raises(CoinsError, match="is not a way to play them"):
        HintSettings(opponents="clever")
    with pytest.raises(CoinsError, match="uniform, weighted, model"):
        HintSettings(sampler="clever")
    with pytest.raises(CoinsError, match="OpponentModel"):
        HintSettings(model="greedy")


# ----- the hint's beliefs

VIEW_AFTER_A_LEAD = "? KNJ7543.96.AN874.96 ? 0 - | JO"  # seat 0 led a Coin: not greedy's card


def test_the_hint_reports_its_belief_and_is_reproducible():
    record = play([greedy_bot] * 3, 8, 16)
    view = record.view(record.to_move)
    found = hint(view, 30, 0, seed=3, sampler="model", opponents="model", threads=2)
    again = hint(view, 30, 0, seed=3, sampler="model", opponents="model", threads=2)
    assert [(e.card, e.mean) for e in found] == [(e.card, e.mean) for e in again]
    assert [b.seat for b in found.beliefs] == [s for s in range(3) if s != record.to_move]
    for belief in found.beliefs:
        assert isinstance(belief, SeatBelief) and belief.plays >= 5
        assert belief.likeliest[0] == "greedy"
        assert str(belief).startswith(f"seat {belief.seat} plays like greedy (")
    out = found.to_json()
    assert out["opponents"] == "model" and out["sampler"] == "model"
    assert [b["seat"] for b in out["beliefs"]] == [b.seat for b in found.beliefs]
    assert out["beliefs"][0]["likeliest"] == "greedy"
    assert sum(out["beliefs"][0]["posterior"].values()) == pytest.approx(1.0, abs=1e-3)
    plain = hint(view, 10, 0, seed=3, sampler="uniform", opponents="greedy")
    assert plain.beliefs == [] and plain.to_json()["beliefs"] == []


def test_a_hint_without_the_other_seats_plays_believes_the_prior():
    found = hint(Position.random(random.Random(2), 6, 0), 8, 0, seed=1, opponents="model")
    assert [b.plays for b in found.beliefs] == [0, 0]
    assert [b.posterior["greedy"] for b in found.beliefs] == pytest.approx([PRIOR[0]] * 2)


def test_coins_hint_says_what_it_believes(capsys):
    argv = ["hint", VIEW_AFTER_A_LEAD, "--samples", "6", "--seed", "1", "--time-limit", "0"]
    model = ["--sampler", "model", "--opponents", "model"]
    out = json.loads(run(argv + model + ["--json"], capsys))
    assert out["opponents"] == "model"
    assert {b["seat"]: b["plays"] for b in out["beliefs"]} == {0: 1, 2: 0}
    assert out["beliefs"][0]["likeliest"] != "greedy"
    text = run(argv + model, capsys)
    assert "Belief: seat 0 plays like" in text and "seat 2: no card seen yet" in text
    assert "Belief" not in run(argv + ["--sampler", "uniform", "--opponents", "greedy"], capsys)
    with pytest.raises(SystemExit):
        run(argv + ["--opponents", "clever"], capsys)


def test_uniform_deals_with_the_model_are_fresh_and_read_one_by_one():
    record = play([greedy_bot, random_bot, random_bot], 9, 19)
    view = record.view(record.to_move)
    found = hint(view, 40, 0, seed=1, sampler="uniform", opponents="model", threads=1)
    assert max(entry.samples for entry in found) == 40  # every draw a new deal
    assert found.effective == 40
    assert all(b.likeliest[0] == "random" for b in found.beliefs if b.seat != 0)
