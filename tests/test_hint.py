"""Hints by determinised Monte Carlo search (analysis.hint) and the playout helpers.

Expected values: the open-hand solvers themselves. When the view admits one
deal, or the true deal is the only sample, each card's mean must be the
mover's own points in ``solve_maxn``'s card result (max^n) or its paranoid
card value from ``solve``. The compiled greedy heuristic and playouts are
held to a plain-Python reference written here.
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from positions import random_ending

from analysis.bots import greedy_bot
from analysis.evaluators import MatchEvaluator, PlayoutEvaluator, SearchEvaluator
from analysis.hint import Hint, HintSettings, aggregate, configure, hint
from analysis.inference import deal_weights, hidden_plays, log_likelihood
from analysis.reach import EXACT_REACH
from solver import CoinsError, MatchState, Position, Record, solve
from solver.card_policy import default_policy
from solver.cards import Card, parse_hand
from solver.errors import OptionError
from solver.match import Hand, random_player
from solver.maxn import solve_maxn
from solver.playouts import (
    Policy,
    greedy_card,
    greedy_reply,
    greedy_reply_values,
    play_until,
    playout,
)
from solver.rules import trick_winner
from solver.sampling import ViewSampler


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


# ----- the greedy heuristic as first written in Python: the compiled kernel's reference

RANK_FIRST = sorted(range(48), key=lambda c: (c % 12, c))  # low rank first
COINS, COINS_MASK, RANKS_PER_SUIT = 1, 0xFFF << 12, 12


def reference_coins(cards) -> int:
    return sum(1 for c in cards if c // 12 == COINS)


def reference_lowest(mask: int) -> int:
    for card in RANK_FIRST:
        if mask >> card & 1:
            return card
    raise ValueError("empty hand")


def reference_greedy(hand: int, trick: list[int] | tuple[int, ...]) -> int:
    """The greedy heuristic's card from ``hand`` with ``trick`` on the table."""
    n = len(trick)
    if n == 2:
        a, b = trick
        pot = reference_coins(trick)
        best, best_key = -1, None
        for card in RANK_FIRST:
            if not hand >> card & 1:
                continue
            coin = card // 12 == COINS
            if trick_winner((a, b, card)) == 2:
                value = pot + coin
            else:
                value = -coin
            key = (value, -(card % RANKS_PER_SUIT))
            if best_key is None or key > best_key:
                best, best_key = card, key
        return best
    if n == 1 and trick[0] // 12 == COINS:
        higher = hand & COINS_MASK & ~((2 << trick[0]) - 1)
        if higher:
            return (higher & -higher).bit_length() - 1
    others = hand & ~COINS_MASK
    return reference_lowest(others if others else hand)


@pytest.mark.kernels
def test_compiled_greedy_card_matches_the_python_reference():
    rng = random.Random(9)
    for _ in range(20000):
        cards = rng.sample(range(48), rng.randrange(3, 19))
        n = rng.randrange(3)
        trick, hand = cards[:n], sum(1 << c for c in cards[n:])
        assert greedy_card(hand, trick) == reference_greedy(hand, trick)


def reference_play_until(hands, leader, trick, cards_left):
    """Greedy play (no random cards) with Position, checked at every card."""
    position = Position(tuple(hands), leader, tuple(trick))
    start = position.taken
    while max(len(position.hand(s)) for s in range(3)) > cards_left:
        seat = position.to_move
        position = position.play(reference_greedy(position.hands[seat], list(position.trick)))
    points = [t - s for t, s in zip(position.taken, start)]
    return list(position.hands), position.leader, list(position.trick), points


@pytest.mark.kernels
def test_compiled_play_until_matches_greedy_play_with_positions():
    rng = random.Random(10)
    for _ in range(300):
        position = random_ending(rng, 16)
        left = rng.randrange(0, 8)
        got = play_until(position.hands, position.leader, position.trick, rng, 0.0, left)
        assert got == reference_play_until(position.hands, position.leader, position.trick, left)


@pytest.mark.kernels
def test_random_cards_in_playouts_are_legal_and_seeded():
    rng = random.Random(11)
    for _ in range(200):
        position = Position.random(rng, rng.randrange(1, 17), rng.randrange(3))
        state = rng.getstate()
        hands, leader, trick, points = play_until(
            position.hands, position.leader, position.trick, rng, 0.7, 2
        )
        rng.setstate(state)
        again = play_until(position.hands, position.leader, position.trick, rng, 0.7, 2)
        assert again == (hands, leader, trick, points)
        assert all(
            h & ~o == 0 for h, o in zip(hands, position.hands)
        )  # only cards held were played
        assert max(bin(h).count("1") for h in hands) <= 2  # it stops at 2 cards a hand
        left = Position(tuple(hands), leader, tuple(trick))  # a valid position
        assert sum(points) + left.coins_left == position.coins_left


SEEDED_PLAYOUTS = """
import json, random
from solver.playouts import play_until
from solver import Position
print(json.dumps([
    play_until(position.hands, position.leader, position.trick, random.Random(seed), 0.7, seed % 4)
    for seed, position in ((seed, Position.random(seed, 1 + seed % 16, seed % 3)) for seed in range(40))
]))
"""


def test_seeded_playouts_are_the_same_as_plain_python():
    """Playouts with random cards play the same cards, and count the same
    points, compiled and as plain Python (NUMBA_DISABLE_JIT=1), where
    arithmetic does not wrap at 64 bits and NumPy's booleans add up as
    logical or."""
    root = Path(__file__).resolve().parents[1]
    runs = [
        subprocess.run(
            [sys.executable, "-c", SEEDED_PLAYOUTS],
            capture_output=True,
            text=True,
            cwd=root,
            env=dict(os.environ, NUMBA_DISABLE_JIT=plain),
            timeout=600,
        )
        for plain in ("0", "1")
    ]
    for run in runs:
        assert run.returncode == 0, run.stderr[-3000:]
    compiled, plain = (json.loads(run.stdout) for run in runs)
    assert plain == compiled
    assert sum(sum(points) for *_, points in compiled) > 40  # Coins were won on the way


@pytest.mark.kernels
def test_playout_gives_out_every_coin_left():
    rng = random.Random(1)
    for _ in range(200):
        position = random_ending(rng, 16)
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
        result = hint(view, samples=4, time_limit=0, seed=seed, policy_weight=0)
        assert result.samples == result.exact == 4
        assert {e.card for e in result} == set(record.final.legal_cards())
        for entry in result:
            assert entry.mean == truth.card_results[entry.card][mover]
            assert entry.stderr == 0
        top = max(r[mover] for r in truth.card_results.values())
        assert all(e.best_rate == (1.0 if e.mean == top else 0.0) for e in result)
        assert result[0].mean == top


def test_true_deal_as_the_only_sample_in_both_modes():
    # the other seats not modelled (the model may draw them as greedy, and
    # then the values are the best reply to greedy: tested below)
    for seed in range(6):
        position = record_cut(seed + 10, 6).final
        mover = position.to_move
        maxn = hint(None, deals=[position], mode="maxn", policy_weight=0, opponents="greedy")
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
        keys = [(-round(e.mean, 9), -e.best_rate, e.card) for e in result]
        assert keys == sorted(keys)  # every card on every deal: the means decide
        assert all(0 <= e.best_rate <= 1 and e.stderr >= 0 for e in result)
        assert [e.behind for e in result] == pytest.approx(
            [result[0].mean - e.mean for e in result]
        )
        assert result.seat == position.to_move


def test_rollout_values_count_the_trick_the_card_completes():
    # last to play with 2O 3O on the table: the 4O wins all three Coins at once
    position = Position.parse(".4.2.2 .K..3 .A..4 1 2O,3O")
    result = hint(None, deals=[position], exact_cards=0, rollouts=4, evaluation="playout")
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


# ----- weighted sampling and aggregation ------------------------------------------------------


def reference_entries(values):
    """The unweighted aggregation, written out plainly: mean, s / sqrt(n), share best."""
    n = len(values)
    out = {}
    for card in values[0]:
        vs = [v[card] for v in values]
        mean = sum(vs) / n
        stderr = (sum((x - mean) ** 2 for x in vs) / (n - 1) / n) ** 0.5 if n > 1 else None
        best = sum(v[card] == max(v.values()) for v in values) / n
        out[card] = (mean, stderr, best)
    return out


def random_values(rng, deals, cards=4):
    return [{Card(c): float(rng.randrange(5)) for c in range(cards)} for _ in range(deals)]


def test_equal_weights_aggregate_as_the_uniform_mean():
    rng = random.Random(5)
    for deals in (1, 2, 7, 30):
        values = random_values(rng, deals)
        expected = reference_entries(values)
        for weight in (1, 0.25, 3):
            entries, effective = aggregate(values, [weight] * deals)
            assert effective == pytest.approx(deals)
            for e in entries:
                mean, stderr, best = expected[e.card]
                assert e.mean == pytest.approx(mean)
                assert e.stderr == (None if stderr is None else pytest.approx(stderr))
                assert e.best_rate == pytest.approx(best)


def test_whole_number_weights_are_repeated_deals():
    # a deal of weight k counts as k copies for the mean and the best rate;
    # the effective size shrinks to (sum w)^2 / sum w^2, never above the copies
    rng = random.Random(6)
    for _ in range(20):
        values = random_values(rng, rng.randrange(2, 8))
        weights = [rng.randrange(1, 4) for _ in values]
        copies = [v for v, w in zip(values, weights) for _ in range(w)]
        expected = reference_entries(copies)
        entries, effective = aggregate(values, weights)
        assert effective <= len(copies) + 1e-9
        assert effective == pytest.approx(sum(weights) ** 2 / sum(w * w for w in weights))
        for e in entries:
            mean, _, best = expected[e.card]
            assert e.mean == pytest.approx(mean)
            assert e.best_rate == pytest.approx(best)


def test_aggregate_rejects_weightless_deals():
    with pytest.raises(CoinsError):
        aggregate([{Card(0): 1.0}], [0])
    with pytest.raises(CoinsError):
        aggregate([], [])


def test_deal_weights_are_positive_and_the_likelihood_matches_the_model():
    rng = random.Random(7)
    for seed in range(8):
        record = record_cut(seed, rng.randrange(3, 14))
        view = record.view(record.to_move)
        sampler = ViewSampler(view)
        pool = [sampler.sample_hands(rng) for _ in range(20)] + [record.hands]
        weights = deal_weights(view, pool)
        assert all(w > 0 for w in weights) and max(weights) == 1
        # slow reference: replay with Position and apply the model card by card
        for hands in pool[-3:]:
            full = Record(hands, view.leader, view.trick, view.taken, view.moves)
            logp = 0.0
            for n, card in enumerate(full.moves):
                before = full.position_after(n)
                seat = before.to_move
                if seat in view.hidden:
                    hand = before.hands[seat]
                    p = 0.5 / len(before.hand(seat))
                    p += 0.5 if greedy_card(hand, list(before.trick)) == card else 0
                    logp += math.log(p)
            assert log_likelihood(view, hands) == pytest.approx(logp)
        assert hidden_plays(view) == sum(
            record.position_after(n).to_move in view.hidden for n in range(len(view.moves))
        )


def test_a_weighted_pool_is_cut_short_by_the_time_limit_not_below_its_least():
    """Ten uniform deals a deal asked for with no limit; with a limit already
    spent, the pool stops at POOL_MIN, whatever the machine's speed."""
    from analysis.hint import POOL_FACTOR, POOL_MIN, _pool

    record = record_cut(3, 9)
    sampler = ViewSampler(record.view(record.to_move))
    unlimited = _pool(sampler, HintSettings(samples=30, time_limit=0), random.Random(1))
    assert len(unlimited) == POOL_FACTOR * 30 > POOL_MIN
    spent = _pool(sampler, HintSettings(samples=10_000, time_limit=1e-9), random.Random(1))
    assert len(spent) == POOL_MIN
    assert spent == unlimited[:POOL_MIN]  # the same deals, fewer of them


def test_greedy_opponents_make_greedy_deals_likelier():
    # seats 1 and 2 play greedy, so the true deal explains their plays perfectly
    record = Hand([random_player, greedy_bot, greedy_bot], seed=4).play().record
    moves = next(n for n in range(18, 48) if record.position_after(n).to_move == 0)
    cut = Record(record.hands, record.leader, record.trick, record.taken, record.moves[:moves])
    view = cut.view(0)  # seat 0 to move: both hidden seats played greedy
    assert hidden_plays(view) >= 10
    sampler = ViewSampler(view)
    rng = random.Random(1)
    pool = [sampler.sample_hands(rng) for _ in range(200)]
    truth = log_likelihood(view, cut.hands)
    others = sorted(log_likelihood(view, h) for h in pool)
    assert truth >= others[len(others) // 2]


def test_weighted_hint_of_a_single_deal_view_is_the_open_hand_values():
    for seed in range(4):
        record = record_cut(seed, 5)
        view = hide_one(record)
        mover = record.to_move
        truth = solve_maxn(record.final, card_results=True, line=False)
        result = hint(view, samples=4, time_limit=0, seed=seed, sampler="weighted", policy_weight=0)
        assert result.sampler == "weighted" and result.samples == 4
        assert {e.card: e.mean for e in result} == {
            c: r[mover] for c, r in truth.card_results.items()
        }


def test_weighted_hint_without_opponent_plays_is_the_uniform_hint():
    # nobody hidden has played yet: every deal weighs the same
    record = record_cut(2, 16)
    start = Record(record.hands, record.leader, record.trick, record.taken, ())
    view = start.view(start.to_move)
    uniform = hint(view, samples=3, time_limit=0, seed=5, sampler="uniform")
    weighted = hint(view, samples=3, time_limit=0, seed=5, sampler="weighted")
    assert [e.to_json() for e in uniform] == [e.to_json() for e in weighted]


def test_weighted_hint_is_reproducible_and_counts_its_deals():
    record = record_cut(8, 9)
    view = record.view(record.to_move)
    first = hint(view, samples=6, time_limit=0, seed=3, sampler="weighted")
    again = hint(view, samples=6, time_limit=0, rng=random.Random(3), sampler="weighted")
    assert first.to_json()["cards"] == again.to_json()["cards"]
    assert first.samples == 6
    assert 1 <= first.effective <= 6
    assert sorted(e.card for e in first) == record.final.legal_cards()


def test_horizon_rollouts_end_in_the_exact_value():
    # with every card's playout ending at once (horizon at least the cards
    # held), a rollout value is the exact value after the card (the other
    # seats greedy in the playouts, not read as greedy: max^n at the end)
    for seed in range(4):
        position = record_cut(seed + 20, 5).final
        mover = position.to_move
        result = hint(
            None,
            deals=[position],
            exact_cards=0,
            horizon=5,
            seed=1,
            evaluation="playout",
            policy_weight=0,
            opponents="greedy",
        )
        assert result.exact == 0
        for entry in result:
            after = position.play(entry.card)
            rest = solve_maxn(after, card_results=False, line=False).equilibrium[mover]
            gained = after.taken[mover] - position.taken[mover]
            assert entry.mean == rest + gained


def test_bad_sampler_and_horizon():
    position = Position.random(random.Random(2), 4)
    with pytest.raises(CoinsError):
        hint(position, sampler="clever")
    with pytest.raises(CoinsError):
        hint(position, horizon=-1)
    with pytest.raises(CoinsError):
        hint(position, tremble=0)


def test_values_do_not_depend_on_the_threads():
    # deals are shared out over threads, each on its own stream: same deals, same values
    for seed in range(3):
        record = record_cut(seed + 30, 12)
        view = record.view(record.to_move)
        for evaluation in ("search", "playout"):
            one = hint(view, samples=5, time_limit=0, threads=1, seed=seed, evaluation=evaluation)
            two = hint(view, samples=5, time_limit=0, threads=2, seed=seed, evaluation=evaluation)
            assert one.exact == two.exact == 0
            assert [e.to_json() for e in one] == [e.to_json() for e in two]


# ----- paired comparisons, contention ----------------------------------------------------


def test_a_card_always_a_point_behind_is_not_tied_though_the_means_overlap():
    """Deal luck moves both cards alike: separate standard errors overlap, the
    difference deal by deal does not."""
    a, b = Card.parse("AC"), Card.parse("KC")
    values = [{a: float(x + 1), b: float(x)} for x in (0, 5, 1, 6, 2, 7, 3, 4)]
    entries, _ = aggregate(values, [1] * len(values))
    best, other = entries
    assert best.card == a and other.card == b
    assert best.mean - 2 * best.stderr < other.mean + 2 * other.stderr  # overlap
    assert other.behind == 1 and other.behind_stderr == 0 and not other.tied
    assert best.tied and best.behind == 0


def test_a_card_ahead_by_noise_is_tied():
    a, b = Card.parse("AC"), Card.parse("KC")
    values = [{a: x, b: y} for x, y in ((2, 1), (0, 1), (3, 2), (1, 2), (2, 1), (1, 1))]
    entries, _ = aggregate(values, [1] * len(values))
    assert entries[0].card == a and entries[1].tied
    assert entries[1].behind == pytest.approx(1 / 6)  # differences 1, -1, 1, -1, 1, 0


def test_one_deal_shows_no_standard_error():
    position = record_cut(1, 8).final
    result = hint(None, deals=[position])
    assert result.samples == 1
    assert all(e.stderr is None and e.behind_stderr is None for e in result)
    assert all(e.to_json()["stderr"] is None for e in result)


def test_cards_clearly_behind_leave_contention():
    """A card whose paired deficit is many standard errors below the leader's is
    no longer valued: it keeps the deals it had, the leaders get more."""
    record = record_cut(4, 13)
    view = record.view(record.to_move)  # uniform: every draw a new deal
    result = hint(view, samples=40, time_limit=0, seed=2, sampler="uniform")
    counts = [e.samples for e in result]
    assert max(counts) == 40 and min(counts) < 40
    assert all(e.samples == 40 for e in result if e.tied)
    assert all(not e.tied for e in result if e.samples < 40)


def test_a_card_out_of_contention_is_never_tied_and_ranks_after_the_contenders():
    """It left because it was clearly behind the leader of its time; on its few
    deals it may even be ahead of the final best, which is no reason to call it tied."""
    a, b, c = Card.parse("AC"), Card.parse("KC"), Card.parse("NC")
    early = [{a: 2.0, b: 2.0, c: 3.0}, {a: 1.0, b: 2.0, c: 1.0}, {a: 3.0, b: 2.0, c: 3.0}]
    late = [{a: x, b: y} for x, y in ((3.0, 2.0), (1.0, 2.0), (3.0, 2.0))]
    entries, _ = aggregate(early + late, [1] * 6, contenders=[a, b])
    assert [e.card for e in entries] == [a, b, c]
    assert entries[1].tied and entries[2].behind < 0 and not entries[2].tied
    everyone, _ = aggregate(early + late, [1] * 6)  # no contenders given: every card may be tied
    assert everyone[1].card == c and everyone[1].tied


@pytest.mark.parametrize("seed", [2, 3, 4])
def test_only_cards_still_in_contention_are_tied(seed):
    """Cards dropped after a few deals once showed as tied with the best, some
    of them 0.8 points behind it (a hint on the first card of a hand)."""
    result = hint("AJ32.AJ98632.AJ6.KN ? ? 0 -", samples=60, time_limit=0, seed=seed)
    most = max(e.samples for e in result)
    assert any(e.samples < most for e in result)  # some cards did leave contention
    assert all(e.samples == most for e in result if e.tied)
    positions = range(len(result))
    last_tied = max(i for i in positions if result[i].tied)
    assert last_tied < min(i for i in positions if result[i].samples < most)  # contenders first


def test_a_view_before_any_card_is_a_view():
    """RULES.md: before any card is played a view is the position with hidden hands."""
    text = "AJ32.AJ98632.AJ6.KN ? ? 0 -"
    result = hint(text, samples=3, time_limit=0, seed=1)
    assert result.seat == 0 and result.samples == 3
    assert Record.parse(text) == Record.parse(text + " |")


# ----- the settings and evaluator objects, and the older keywords that stand for them


def test_the_older_keywords_and_the_objects_give_the_same_hint():
    record = record_cut(41, 9)
    view = record.view(record.to_move)
    match = MatchState(15, (3, 4, 5))
    cases = [
        (
            {"samples": 5, "time_limit": 0, "evaluation": "search", "threads": 1},
            HintSettings(samples=5, time_limit=0, threads=1),
            SearchEvaluator(),
        ),
        (
            {"samples": 4, "time_limit": 0, "mode": "paranoid", "horizon": 3, "rollouts": 2},
            HintSettings(samples=4, time_limit=0),
            PlayoutEvaluator("paranoid", horizon=3, rollouts=2),
        ),
        (
            {"samples": 3, "time_limit": 0, "match": match, "points": True, "exact_cards": 6},
            HintSettings(samples=3, time_limit=0),
            MatchEvaluator(match, exact_cards=6, points=PlayoutEvaluator()),
        ),
    ]
    for keywords, settings, evaluator in cases:
        older = hint(view, seed=11, **keywords)
        newer = hint(view, seed=11, settings=settings, evaluator=evaluator)
        assert older.samples == newer.samples and older.exact == newer.exact
        assert older.mode == newer.mode and older.evaluation == newer.evaluation
        assert [e.to_json() for e in older] == [e.to_json() for e in newer], keywords


def test_the_keywords_map_onto_the_objects_in_one_place():
    match = MatchState(10)
    settings, evaluator = configure(samples=7, sampler="weighted", threads=1)
    assert settings == HintSettings(samples=7, sampler="weighted", threads=1)
    assert evaluator == PlayoutEvaluator()
    assert configure(mode="paranoid", evaluation="search")[1] == PlayoutEvaluator("paranoid")
    assert configure(evaluation="search", exact_cards=3)[1] == SearchEvaluator(exact_cards=3)
    # with a match, exact_cards is the match's reach; the points keep the mode's own
    _, evaluator = configure(match=match, exact_cards=4, points=True, horizon=2)
    assert evaluator == MatchEvaluator(match, 4, PlayoutEvaluator(horizon=2))
    assert evaluator.points.exact_cards == EXACT_REACH.hint_points
    assert configure(match=match)[1] == MatchEvaluator(match, EXACT_REACH.hint_chances)


def test_evaluators_take_their_exact_reach_from_one_place():
    assert PlayoutEvaluator().exact_cards == EXACT_REACH.hint_points
    assert PlayoutEvaluator("paranoid").exact_cards == EXACT_REACH.hint_guaranteed
    assert SearchEvaluator().exact_cards == EXACT_REACH.hint_points
    assert MatchEvaluator(MatchState(15)).exact_cards == EXACT_REACH.hint_chances


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: configure(HintSettings(), samples=3), CoinsError, "give settings or samples"),
        (lambda: configure(None, SearchEvaluator(), horizon=3), CoinsError, "give evaluator"),
        (lambda: configure(samples=3, rollout=2), TypeError, "'rollout'"),
        (lambda: PlayoutEvaluator(exact_cards=-1), OptionError, "exact_cards"),
        (lambda: PlayoutEvaluator(epsilon=1.5), OptionError, "epsilon"),
        (lambda: PlayoutEvaluator(epsilon="often"), OptionError, "epsilon"),
        (lambda: PlayoutEvaluator("both"), CoinsError, "not a hint mode"),
        (lambda: SearchEvaluator("paranoid"), CoinsError, "mode must be maxn"),
        (lambda: MatchEvaluator(15), CoinsError, "MatchState"),
        (
            lambda: MatchEvaluator(MatchState(15), points=PlayoutEvaluator("paranoid")),
            CoinsError,
            "mode must be maxn",
        ),
        (lambda: HintSettings(samples=0), OptionError, "samples"),
        (lambda: HintSettings(threads=0), OptionError, "threads"),
        (lambda: HintSettings(sampler="clever"), CoinsError, "not a sampler"),
        (lambda: HintSettings(policy_weight=1.5), OptionError, "policy_weight"),
        (lambda: HintSettings(policy_weight=True), OptionError, "policy_weight"),
    ],
)
def test_bad_settings_and_evaluators_are_refused_in_one_line(call, error, words):
    with pytest.raises(error, match=words) as raised:
        call()
    assert "\n" not in str(raised.value)


def test_a_card_as_good_as_the_best_is_zero_behind_not_minus_zero():
    # equal means whose deal-by-deal differences leave -9e-18 in floating point
    first, second = Card.parse("2C"), Card.parse("3C")
    values = [{first: 0.1, second: 0.3}, {first: 0.2, second: 0.0}, {first: 0.3, second: 0.3}]
    entries, _ = aggregate(values, [1.0, 1.0, 1.0])
    behind = [entry.behind for entry in entries]
    assert behind == [0.0, 0.0] and all(f"{b:.2f}" == "0.00" for b in behind)
    assert all(entry.tied for entry in entries)


def test_the_policy_weight_blends_each_deals_value_with_the_card_policy():
    """Fewer deals than MIN_SAMPLES: no card leaves contention, so both hints
    value every card on the same deals, and each mean is the blend of the
    unblended mean and the policy's value from the mover's view, whether
    the deals were estimated (10 cards a hand) or solved exactly (5)."""
    for seed, cards in ((0, 10), (1, 10), (2, 5), (3, 5)):
        record = record_cut(seed, cards)
        view = record.view(record.to_move)
        alone = hint(view, 6, 0, seed=seed, policy_weight=0)
        blended = hint(view, 6, 0, seed=seed, policy_weight=0.3)
        policy = default_policy().values(record.final)
        assert alone.policy_weight == 0 and blended.policy_weight == 0.3
        assert blended.exact == alone.exact == (6 if cards == 5 else 0)
        means = {entry.card: entry.mean for entry in alone}
        assert {entry.card: entry.mean for entry in blended} == pytest.approx(
            {card: 0.7 * mean + 0.3 * policy[card] for card, mean in means.items()}
        )


def test_guaranteed_values_and_match_chances_are_not_blended():
    for cards in (5, 9):
        record = record_cut(cards, cards)
        view = record.view(record.to_move)
        for keywords in ({"mode": "paranoid"}, {"match": MatchState(15)}):
            alone = hint(view, 4, 0, seed=2, policy_weight=0, **keywords)
            blended = hint(view, 4, 0, seed=2, policy_weight=1, **keywords)
            assert blended.policy_weight == 0
            assert [(e.card, e.mean) for e in blended] == [(e.card, e.mean) for e in alone]


def reference_greedy_reply(position: Position, seat: int) -> int:
    """The most Coins ``seat`` takes from ``position`` on with the other seats
    playing greedy's card: every order of its own cards, through Position."""
    if position.is_terminal:
        return 0
    if position.to_move != seat:
        after = position.play(reference_greedy(position.hands[position.to_move], position.trick))
        return after.taken[seat] - position.taken[seat] + reference_greedy_reply(after, seat)
    return max(
        position.play(card).taken[seat]
        - position.taken[seat]
        + reference_greedy_reply(position.play(card), seat)
        for card in position.legal_cards()
    )


@pytest.mark.kernels
def test_the_best_reply_to_greedy_seats_matches_a_plain_search():
    rng = random.Random(12)
    for _ in range(150):
        position = random_ending(rng, rng.randrange(1, 6))
        mover = position.to_move
        trick = [int(c) for c in position.trick]
        values = greedy_reply_values(position.hands, position.leader, trick)
        assert set(values) == {int(c) for c in position.legal_cards()}
        for card, value in values.items():
            after = position.play(card)
            gained = after.taken[mover] - position.taken[mover]
            assert value == gained + reference_greedy_reply(after, mover)
        for seat in range(3):
            assert greedy_reply(position.hands, position.leader, trick, seat) == (
                reference_greedy_reply(position, seat)
            )


def test_the_exact_part_replies_to_seats_read_as_greedy():
    # both other seats greedy: the best reply to them; otherwise max^n
    greedy, noisy, random_kind = Policy(0.02, 0.0), Policy(0.0, 2.0), Policy(1.0, 0.0)
    evaluator = PlayoutEvaluator(exact_cards=5)
    replied = 0
    for seed in range(12):
        position = random_ending(random.Random(seed), 4)
        mover = position.to_move
        others = [s for s in range(3) if s != mover]
        rng = random.Random(seed)
        reply = greedy_reply_values(position.hands, position.leader, list(map(int, position.trick)))
        maxn = solve_maxn(position, line=False).card_results
        got = evaluator(position, None, rng, {s: greedy for s in others})
        assert got.exact and got.values == {Card(c): float(v) for c, v in reply.items()}
        for kinds in (
            None,
            {others[0]: greedy, others[1]: noisy},
            {s: random_kind for s in others},
        ):
            got = evaluator(position, None, rng, kinds)
            assert got.values == {c: float(r[mover]) for c, r in maxn.items()}
        replied += any(reply[int(c)] != r[mover] for c, r in maxn.items())
    assert replied  # the two values differ somewhere, so the test tells them apart


def test_playouts_against_greedy_seats_end_in_the_best_reply():
    # every card's playout ends at once (horizon at least the cards held): its
    # value is the best reply to the greedy seats after the card
    for seed in range(4):
        position = record_cut(seed + 20, 5).final
        mover = position.to_move
        kinds = {s: Policy(0.0, 0.0) for s in range(3) if s != mover}
        evaluator = PlayoutEvaluator(exact_cards=0, horizon=5, rollouts=1)
        values = evaluator(position, None, random.Random(1), kinds).values
        reply = greedy_reply_values(position.hands, position.leader, list(map(int, position.trick)))
        assert values == {Card(c): float(v) for c, v in reply.items()}
