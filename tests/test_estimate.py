"""The open-hand estimate: the learned value, the depth-limited search and ``estimate``.

Expected values: the naive twins of tests/naive_maxn.py (written from
RULES.md): the full-width max^n search, and the same cut after some tricks
with the same network valuing the positions where it stops; and the exact
solver, which the estimate must equal wherever it searches to the end.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from importlib import import_module

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from analysis import estimate, preferred_card
from solver import Card, CoinsError, MatchState, Position
from solver import _kernels as k
from solver.evaluator import (
    SOFTNESS,
    ValueNet,
    default_committee,
    default_net,
    search_card_results,
)
from solver.maxn import solve_maxn
from tests.naive_maxn import depth_limited, maxn
from tests.positions import random_ending

estimate_module = import_module("analysis.estimate")  # the package's ``estimate`` is the function


def _close(a, b):
    return all(math.isclose(x, y, abs_tol=1e-9) for x, y in zip(a, b))


@pytest.mark.kernels
def test_network_values_share_out_the_coins_left():
    net = default_net()
    rng = random.Random(1)
    for _ in range(50):
        position = Position.random(rng, rng.randrange(1, 17), rng.randrange(3))
        values = net.value(position)
        assert all(v >= 0 for v in values)
        assert math.isclose(sum(values), position.coins_left, abs_tol=1e-9)
    no_coins = Position.parse("7... ...2 J... 0 -")
    assert net.value(no_coins) == (0.0, 0.0, 0.0)


@pytest.mark.kernels
def test_network_sees_only_the_order_of_live_cards():
    """Gone cards change nothing: each suit's live cards keep their order only.
    Cups A K N J and K N J 9, Coins A K 9 and A K 2, held by the same seats in
    the same order, look alike to the network; swapping two cards does not."""
    high = Position.parse("AK.9.. N.A.3. J.K.2. 0 -")
    same = Position.parse("KN.2.. J.A.3. 9.K.2. 0 -")
    other = Position.parse("AK.A.. N.9.3. J.K.2. 0 -")
    features = []
    for position in (high, same, other):
        x = np.empty(k.VALUE_FEATURES)
        k.value_features(*position.hands, x)
        features.append(x)
    np.testing.assert_array_equal(features[0], features[1])
    assert not np.array_equal(features[0], features[2])
    assert default_net().value(high) == default_net().value(same)


@pytest.mark.kernels
@pytest.mark.parametrize("softness", [0.0, SOFTNESS, 0.5])
@pytest.mark.parametrize("seed", range(12))
def test_search_agrees_with_its_naive_twin(seed, softness):
    """The compiled search (runs of equivalent cards, per-ply arrays, soft
    choices kept as running sums) against a full-width search over
    Position.play, both valuing leaves with the network."""
    rng = random.Random(seed)
    position = random_ending(rng, 4)
    net = default_net()
    tricks = rng.randrange(1, 5)  # 4 reach the end of the hand: no soft choice there
    found, _ = search_card_results(position, tricks, softness=softness)
    expected = depth_limited(position, tricks, net.value, softness)
    assert found.keys() == expected.keys()
    for card in found:
        assert _close(found[card], expected[card]), (str(position), card)


@pytest.mark.kernels
def test_soft_choices_move_the_values_where_the_network_decides():
    """Not a no-op: on some of these endings the soft choice gives other card
    results than the hard one."""
    moved = 0
    for seed in range(12):
        position = random_ending(random.Random(seed), 4)
        hard, _ = search_card_results(position, 2, softness=0)
        soft, _ = search_card_results(position, 2)
        moved += any(not _close(hard[card], soft[card]) for card in hard)
    assert moved >= 3


def _whole(values):
    """Largest remainders, written plainly: whole parts, then the points left
    over one each to the seats with the largest fractions (lower seat first)."""
    whole = [math.floor(v) for v in values]
    left = round(sum(values)) - sum(whole)
    order = sorted(range(3), key=lambda s: (-(values[s] - whole[s]), s))
    for seat in order[:left]:
        whole[seat] += 1
    return tuple(float(w) for w in whole)


@pytest.mark.kernels
@given(
    st.integers(0, 12),
    st.lists(st.floats(0.001, 1.0, allow_nan=False), min_size=3, max_size=3),
)
def test_whole_points_keep_the_coins_and_the_largest_remainders(coins, weights):
    shares = np.array(weights) / sum(weights) * coins
    rounded = k.whole_points(shares.copy())
    assert tuple(rounded) == _whole(list(shares))
    assert sum(rounded) == coins
    assert all(abs(r - v) < 1 for r, v in zip(rounded, shares))


@pytest.mark.kernels
@pytest.mark.parametrize("seed", range(12))
def test_search_in_whole_points_agrees_with_its_naive_twin(seed):
    """Leaves rounded to whole points, every choice hard: the twin's leaves are
    the network's values rounded by ``_whole``; every result is whole."""
    rng = random.Random(100 + seed)
    position = random_ending(rng, 4)
    net = default_net()
    tricks = rng.randrange(1, 4)
    found, _ = search_card_results(position, tricks, softness=0, whole_points=True)
    expected = depth_limited(position, tricks, lambda p: _whole(net.value(p)), 0.0)
    assert found.keys() == expected.keys()
    for card, values in found.items():
        assert _close(values, expected[card]), (str(position), card)
        assert all(v == round(v) for v in values)


def test_search_rejects_whole_points_not_a_flag():
    position = random_ending(random.Random(1), 3)
    with pytest.raises(CoinsError, match="whole_points must be True or False"):
        search_card_results(position, 1, whole_points=1)


@pytest.mark.parametrize("softness", [-0.1, math.inf, math.nan, "0.1", True])
def test_search_rejects_bad_softness(softness):
    position = random_ending(random.Random(1), 3)
    with pytest.raises(CoinsError, match="softness must be a number of points from 0"):
        search_card_results(position, 1, softness=softness)


@pytest.mark.kernels
@pytest.mark.parametrize("seed", range(12))
def test_search_to_the_end_is_the_exact_equilibrium(seed):
    """No network is read when the search reaches the end of the hand: the
    results are then the exact max^n card results (the choices are not soft)."""
    rng = random.Random(100 + seed)
    position = random_ending(rng, 4)
    found, _ = search_card_results(position, 5, threads=2)
    _, results, _ = maxn(position)
    assert {c: tuple(v) for c, v in found.items()} == {
        c: tuple(map(float, v)) for c, v in results.items()
    }


@pytest.mark.parametrize("seed", range(4))
def test_search_of_some_cards_gives_what_the_whole_search_gives_them(seed):
    rng = random.Random(200 + seed)
    position = Position.random(rng, 6, seed % 3)
    for _ in range(seed % 3):
        position = position.play(rng.choice(position.legal_cards()))
    everything, _ = search_card_results(position, 2)
    chosen = rng.sample(position.legal_cards(), 2)
    some, _ = search_card_results(position, 2, cards=chosen, threads=2)
    assert set(chosen) <= set(some)
    assert {c: everything[c] for c in some} == some
    # the others are the chosen cards' equivalents, which share their results
    assert all(some[c] in (some[chosen[0]], some[chosen[1]]) for c in some)


def test_search_refuses_cards_the_mover_does_not_hold():
    position = Position.parse("A5... K2... 43... 0 -")
    with pytest.raises(CoinsError, match="not all held by the seat to move"):
        search_card_results(position, 1, cards=[Card.parse("KC")])


def test_contenders_are_searched_deeper_until_the_best_card_is_one():
    """With the time to spare, the best card comes from a search one trick
    deeper, and each card searched deeper has that search's values."""
    from analysis.estimate import _card_points, _deepen_contenders

    position = Position.random(11, 7, 2)
    shallow, _ = _card_points(position, 1, net=None, threads=2, deadline=None)
    values = {c: tuple(v) for c, v in shallow.items()}
    deeper, nodes = _deepen_contenders(position, values, 2, time.perf_counter() + 60, 2, None)
    assert nodes > 0 and preferred_card(values, position.to_move) in deeper
    full, _ = _card_points(position, 2, net=None, threads=2, deadline=None)
    assert all(values[c] == tuple(full[c]) for c in deeper)
    assert all(values[c] == tuple(shallow[c]) for c in values if c not in deeper)


def test_estimate_is_exact_within_reach():
    rng = random.Random(5)
    for _ in range(5):
        position = random_ending(rng, 5)
        result = estimate(position, 5.0)
        exact = solve_maxn(position)
        assert result.exact and result.depth is None
        assert result.card_results == {c: tuple(v) for c, v in exact.card_results.items()}
        assert result.best == exact.line[0]


def test_estimate_averages_the_soft_search_and_the_one_in_whole_points():
    """Beyond exact reach, with the time for its whole depth (two cards on the
    table: a two-trick search of a few thousand nodes): each card's values are
    the two searches' at that depth, weighed by WHOLE_POINTS_WEIGHT."""
    weight = estimate_module.WHOLE_POINTS_WEIGHT
    assert 0 < weight < 1
    position = Position.random(3, 10, 1)
    for _ in range(2):
        position = position.play(position.legal_cards()[0])
    result = estimate(position, 30.0, net=default_net())
    assert not result.exact and result.depth == estimate_module.MAX_POINTS_DEPTH
    assert result.votes == {}  # one network: no vote
    soft, _ = search_card_results(position, result.depth)
    whole, _ = search_card_results(position, result.depth, softness=0, whole_points=True)
    assert any(not _close(soft[c], whole[c]) for c in soft)  # two opinions, not one
    for card, values in result.card_results.items():
        blend = [(1 - weight) * a + weight * b for a, b in zip(soft[card], whole[card])]
        assert _close(values, blend), card


def test_a_committee_votes_on_the_deepest_search_and_reports_its_mean():
    """With the time for every network (two cards on the table, 10 cards a hand:
    the leaves are 8-card boundaries, within the exact-label members' reach),
    each card's values are the mean of each network's own estimate at that
    depth, each network names its best card, and the most named is the choice
    (among those, the best by the mean)."""
    from analysis.estimate import _card_points

    committee = default_committee()
    assert len(committee) > 2
    position = Position.random(3, 10, 1)
    for _ in range(2):
        position = position.play(position.legal_cards()[0])
    result = estimate(position, 60.0)
    depth = result.depth
    assert not result.exact and depth == estimate_module.MAX_POINTS_DEPTH
    each = [
        {
            c: tuple(v)
            for c, v in _card_points(position, depth, net=n, threads=1, deadline=None)[0].items()
        }
        for n in committee
    ]
    assert any(each[0][c] != other[c] for other in each[1:] for c in each[0])  # not one opinion
    for card, values in result.card_results.items():
        mean = [sum(found[card][seat] for found in each) / len(each) for seat in range(3)]
        assert _close(values, mean), card
    named = Counter(preferred_card(found, position.to_move) for found in each)
    assert result.votes == dict(named)
    most = max(named.values())
    among = {c: v for c, v in result.card_results.items() if named[c] == most}
    assert result.best == preferred_card(among, position.to_move)
    assert result.to_json()["votes"] == {str(c): n for c, n in named.items()}


def test_a_committee_does_not_vote_where_its_networks_agree(monkeypatch):
    """Beyond the exact-label members' reach (12 cards a hand searched two tricks:
    10-card leaves) every network of the committee has the same members, so
    none is asked; a single network is never a committee."""

    def refused(*args, **kwargs):
        raise AssertionError("the committee was asked")

    monkeypatch.setattr(estimate_module, "_vote", refused)
    for network in (None, default_net()):
        result = estimate(Position.random(4, 12, 0), 30.0, net=network)
        assert result.depth == estimate_module.MAX_POINTS_DEPTH and result.votes == {}
    position = Position.random(3, 8, 1)
    position = position.play(position.legal_cards()[0])
    assert estimate(position, 30.0, net=default_net()).votes == {}
    twelve = Position.random(5, 12, 2)
    values = {network.value(twelve) for network in default_committee()}
    assert len(values) == 1  # the same large members
    eight = Position.random(5, 8, 2)
    assert len({network.value(eight) for network in default_committee()}) == len(
        default_committee()
    )


@pytest.mark.parametrize("net", ["value_net.npz", (), [None], 3])
def test_estimate_rejects_what_is_not_a_network(net):
    with pytest.raises(CoinsError, match="net must be a ValueNet"):
        estimate(Position.random(1, 10, 0), 1.0, net=net)


def test_estimate_beyond_reach_is_marked_and_complete():
    position = Position.random(7, 14, 1)
    result = estimate(position, 0.3)
    assert not result.exact and result.depth >= 1
    assert set(result.card_results) == set(position.legal_cards())
    for values in result.card_results.values():
        assert math.isclose(sum(values), position.coins_left, abs_tol=1e-6)
    assert result.best == preferred_card(result.card_results, position.to_move)
    out = result.to_json()
    assert out["exact"] is False and out["best"] == str(result.best)
    assert out["deeper"] == [str(c) for c in result.deeper]
    assert set(result.deeper) <= set(position.legal_cards())


@pytest.mark.parametrize("match", [None, MatchState(15, (3, 9, 12))])
def test_points_and_chances_take_separate_paths(monkeypatch, match):
    """The points never run the match-aware search nor the chances the points
    search: each path is refused the other's searches, and still answers."""

    def refused(*args, **kwargs):
        raise AssertionError("the other path's search was called")

    if match is None:
        monkeypatch.setattr(estimate_module, "solve_match", refused)
        monkeypatch.setattr(estimate_module, "card_chances", refused)
    else:
        monkeypatch.setattr(estimate_module, "solve_maxn", refused)
        monkeypatch.setattr(estimate_module, "search_card_results", refused)
    for cards in (4, 12):
        position = Position.random(3, cards, 2)
        result = estimate(position, 0.3, match=match)
        assert result.match == match and set(result.card_results) == set(position.legal_cards())
        assert result.exact == (cards == 4)
        assert match is None or result.deeper == ()


def test_preferred_card_follows_the_rules_order():
    """Own points first, then the smaller larger opponent, then index order."""
    c = [Card.parse(text) for text in ("2C", "3C", "4C")]
    assert preferred_card({c[0]: (1, 2, 0), c[1]: (2, 0, 1), c[2]: (2, 1, 0)}, 0) == c[1]
    assert preferred_card({c[0]: (1, 0, 3), c[1]: (1, 2, 1), c[2]: (1, 1, 2)}, 0) == c[1]
    assert preferred_card({c[2]: (1, 1, 1), c[1]: (1, 1, 1)}, 0) == c[1]


@pytest.mark.parametrize("limit", [0, -1, math.inf, math.nan, True, "1"])
def test_estimate_rejects_bad_time_limits(limit):
    with pytest.raises(CoinsError):
        estimate(Position.random(1, 3, 0), limit)


def test_estimate_rejects_a_finished_hand():
    with pytest.raises(CoinsError):
        estimate(Position.parse("... ... ... 0 -"))


def test_value_net_checks_its_shapes(tmp_path):
    net = default_net()
    path = tmp_path / "bad.npz"
    np.savez(path, w1=net.w1[:-1], b1=net.b1, w2=net.w2, b2=net.b2, w3=net.w3, b3=net.b3)
    with pytest.raises(CoinsError, match="w1"):
        ValueNet.load(str(path))
    np.savez(path, w1=net.w1, b1=net.b1, w2=net.w2, b2=net.b2, w3=net.w3)
    with pytest.raises(CoinsError, match="value network: no b3"):
        ValueNet.load(path)


def test_cards_too_close_to_call_are_tied_with_the_best():
    """An estimate names every card less than ESTIMATE_TIE behind its choice as
    tied with it; exact values tie only when equal."""
    from analysis.estimate import ESTIMATE_TIE, Estimate

    position = Position.parse("A5... K2... 43... 0 -")
    a, five = Card.parse("AC"), Card.parse("5C")
    for gap, tied in ((ESTIMATE_TIE - 0.01, [a, five]), (ESTIMATE_TIE + 0.01, [a])):
        values = {five: (1.0 - gap, 0.5, 0.5 + gap), a: (1.0, 0.5, 0.5)}
        found = Estimate(position, values, exact=False, depth=1, nodes=1, seconds=0.0)
        assert found.best == a and list(found.tied) == tied
        assert found.to_json()["tied"] == [str(c) for c in tied]
    three = Position.parse("AK5... N32... J94... 0 -")  # a committee's vote decides
    voted = {five: (1.0, 0.5, 0.5), a: (0.9, 0.6, 0.5), Card.parse("KC"): (0.2, 1.3, 0.5)}
    for votes, best in (({a: 2, five: 1}, a), ({a: 1, five: 1}, five), ({}, five)):
        found = Estimate(three, voted, False, 2, 1, 0.0, votes=votes)
        assert found.best == best and set(found.tied) == {a, five} and found.tied[0] == best
    exact = Estimate(position, {a: (1, 0, 1), five: (1, 1, 0)}, True, None, 1, 0.0)
    assert exact.tied == (five, a)  # the same points: the lower card is the choice
    assert Estimate(position, {a: (2, 0, 0), five: (1, 1, 0)}, True, None, 1, 0.0).tied == (a,)
