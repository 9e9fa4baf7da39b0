"""Match-aware values (RULES.md, "Values of a position in a match"): the compiled
search against its naive twin (tests/naive_match.py), the next-hands table,
and the match situations the issue names."""

from __future__ import annotations

import random

import numpy as np
import pytest
from test_maxn import random_position

from solver import Card, CoinsError, Position, solve
from solver.errors import OptionError
from solver.evaluator import default_net
from solver.match import MatchError, MatchState
from solver.match_values import card_chances, preferred, solve_match
from solver.next_hands import NextHands, default_table
from tests.naive_match import Reference


def random_match(rng: random.Random, position: Position) -> tuple[int, tuple[int, int, int]]:
    """A target and scores for ``position``: needs small enough that the match
    often ends in the hand, and large enough that it often does not."""
    needs = [rng.randint(1, position.coins_left + 3) for _ in range(3)]
    target = max(n + t for n, t in zip(needs, position.taken)) + rng.randint(0, 4)
    return target, tuple(target - n - t for n, t in zip(needs, position.taken))


def close(a, b) -> bool:
    return np.allclose(a, b, rtol=0, atol=1e-12)


def random_endings(seed: int, count: int):
    """(position, target, scores, its naive twin) for ``count`` random small endings."""
    rng = random.Random(seed)
    while count:
        position = random_position(rng)
        if not position.is_terminal:
            target, scores = random_match(rng, position)
            yield position, target, scores, Reference(target, scores, default_table().chances)
            count -= 1


@pytest.mark.kernels
@pytest.mark.parametrize("block", range(4))
def test_exact_values_match_the_naive_twin(block):
    ended = read_table = 0
    for position, target, scores, reference in random_endings(4800 + block, 40):
        values, cards = reference.values(position)
        result = solve_match(position, target, scores)
        assert result.exact
        assert close(result.chances, values), (position, target, scores)
        assert set(result.card_chances) == set(cards)
        for card, chances in cards.items():
            assert close(result.card_chances[card], chances), (position, target, scores, card)
        assert abs(sum(result.chances) - 1) < 1e-9
        ended += reference.ended
        read_table += reference.read_table
    # both ends of RULES.md's definition were reached: a match over mid-hand, the table
    assert ended > 20 and read_table > 20


@pytest.mark.kernels
def test_the_line_is_the_mover_choice_played_out():
    for position, target, scores, reference in random_endings(48, 20):
        result = solve_match(position, target, scores)
        walked = position
        for card in result.line:
            _, cards = reference.values(walked)
            assert card == preferred({c: list(v) for c, v in cards.items()}, walked.to_move)
            walked = walked.play(card)
        totals = [s + t for s, t in zip(scores, walked.taken)]
        assert walked.is_terminal or max(totals) >= target  # the line stops where the match does


# the first block also runs as plain Python in CI (the others would add minutes there)
@pytest.mark.parametrize("block", [pytest.param(0, marks=pytest.mark.kernels), 1, 2, 3, 4])
def test_estimate_matches_its_naive_twin(block):
    """Searched for one or two tricks, the network's points turned into chances."""
    rng = random.Random(4848 + block)
    net = default_net()
    checked = 0
    while checked < 5:
        position = Position.random(rng, rng.choice([3, 4]), rng.randrange(3))
        target, scores = random_match(rng, position)
        tricks = rng.choice([1, 2])
        reference = Reference(target, scores, default_table().chances)
        expected = reference.estimate(position, tricks, net.value)
        found, _ = card_chances(position, MatchState(target, scores), tricks)
        for card, chances in expected.items():
            assert np.allclose(found[card], chances, rtol=0, atol=1e-9), (position, card)
        checked += 1


@pytest.mark.kernels
def test_a_seat_one_coin_short_takes_a_sure_coin():
    """Seat 0 (14 of 15) is last to the trick KO 5C: 6B wins it and the King of
    Coins, and the match; for points it would play 2S (2 points against 1).
    Found by a search of random three-card endings."""
    position = Position.parse(".N.2.6 .6..9 .A..J 1 KO,5C")
    two_s, six_b = Card.parse("2S"), Card.parse("6B")
    points = solve(position, mode="maxn")
    assert points.equilibrium_line[0] == two_s
    assert points.card_results[two_s][0] > points.card_results[six_b][0]
    result = solve_match(position, 15, (14, 5, 5))
    assert result.best == six_b and result.chances == [1.0, 0.0, 0.0]
    assert result.card_chances[two_s][0] < 1
    assert result.line == [six_b]  # and the match ends there


@pytest.mark.kernels
def test_a_hand_that_ends_with_no_winner_reads_the_table():
    """The last trick: 7O takes 2O and 7O for seat 0 (3 + 2 short of 10), which
    then leads the next hand; the value is the table's."""
    position = Position.parse(".7.. 5... .2.. 0 -")
    result = solve_match(position, 10, (3, 4, 5))
    expected = default_table().chances_of((10 - 3 - 2, 10 - 4, 10 - 5), 0)
    assert result.chances == list(expected)
    assert [str(card) for card in result.line] == ["7O", "5C", "2O"]


def test_the_next_hands_table():
    table = default_table()
    assert table.most == 30 and table.stderr_max < 0.005
    assert np.allclose(table.chances.sum(axis=3), 1, atol=1e-12)
    # a seat needing 1 point against two needing 30 nearly always wins, leading or not
    assert min(table.chances[0, 29, 29, 0], table.chances[29, 0, 29, 1]) > 0.9
    # with equal needs far from the target, each seat has about a third
    assert np.allclose(table.chances[29, 29, 29], 1 / 3, atol=0.02)
    # on average a seat's chance falls as its need grows
    own = table.chances[:, :, :, 0].mean(axis=(1, 2))
    assert (np.diff(own) < 0).all()
    # needs beyond the table read as its largest
    assert table.chances_of((40, 31, 5), 2) == table.chances_of((30, 30, 5), 2)


def test_bad_match_states_are_refused(tmp_path):
    position = "J9.J4..52 .K75.6.N8 A753.8.5. 0 -"
    with pytest.raises(MatchError, match="the match is over"):
        solve_match(position, 15, (15, 0, 0))
    with pytest.raises(MatchError, match="the match is over"):
        solve_match(".K.A. 6.6.. ..J5. 0 - 2,0,0", 15, (13, 0, 0))
    with pytest.raises(OptionError):
        solve_match(position, 0)
    with pytest.raises(MatchError):
        solve_match(position, 15, (1, 2))
    with pytest.raises(CoinsError):
        card_chances(Position.parse(position), MatchState(15), tricks=0)
    np.savez(tmp_path / "bad.npz", chances=np.zeros((2, 3, 2, 3)))
    with pytest.raises(CoinsError, match="shape"):
        NextHands.load(tmp_path / "bad.npz")
    np.savez(tmp_path / "sums.npz", chances=np.full((2, 2, 2, 3), 0.5))
    with pytest.raises(CoinsError, match="adding up to 1"):
        NextHands.load(tmp_path / "sums.npz")


def test_a_budget_that_runs_out_gives_no_guess():
    result = solve_match("J9.J4..52 .K75.6.N8 A753.8.5. 0 -", 15, (13, 10, 7), max_nodes=50)
    assert not result.exact and result.chances is None and not result.line
