"""The learned card policy: its features and network against plain numpy, the
shipped weights, the ``policy`` bot, its playouts, and the training script's
smoke run.

Expected values: a plain-Python twin of the features written from the
definitions in ``solver._policy_kernels`` (``solver.rules.trick_winner``, checked
against RULES.md's tricks, for who wins a trick) and
numpy's matrix products for the network, on seeded random positions reached
by random play (so with tricks on the table and Coins taken).
"""

from __future__ import annotations

import importlib
import random
from pathlib import Path

import numpy as np
import pytest

from analysis.bots import policy_bot, random_bot
from analysis.evaluators import PolicyEvaluator
from analysis.hint import hint
from coins import cli
from solver import CoinsError, Position
from solver import _policy_kernels as pk
from solver.card_policy import WEIGHTS_FILE, CardPolicy, default_policy
from solver.match import Hand
from solver.maxn import solve_maxn
from solver.rules import trick_winner

ROOT = Path(__file__).resolve().parents[1]


def random_positions(count: int, seed: int) -> list[Position]:
    """Positions reached by random cards from random deals, at every stage."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        position = Position.random(rng, 16, rng.randrange(3))
        for _ in range(rng.randrange(47)):
            position = position.play(rng.choice(position.legal_cards()))
        out.append(position)
    return out


def suit_cards(suit: int) -> range:
    return range(12 * suit, 12 * suit + 12)


def naive_features(position: Position, card: int) -> np.ndarray:
    """The inputs for ``card`` of the mover, from the definitions."""
    x = np.zeros(pk.POLICY_FEATURES)
    seat = position.to_move
    left, right = (seat + 1) % 3, (seat + 2) % 3
    hand = set(position.hand(seat))
    trick = list(position.trick)
    held = hand | {c for s in range(3) for c in position.hand(s)} | set(trick)
    gone = set(range(48)) - held
    unseen = set(range(48)) - hand - gone - set(trick)
    for c in hand:
        x[pk.HAND + c] = 1
    for c in gone:
        x[pk.GONE + c] = 1
    # the trick's cards in play order come from the leader, then its left
    by_seat = {(position.leader + i) % 3: c for i, c in enumerate(trick)}
    if right in by_seat:
        x[pk.RIGHT_ON_TABLE + by_seat[right]] = 1
    if left in by_seat:
        x[pk.LEFT_ON_TABLE + by_seat[left]] = 1
    x[pk.IN_TRICK + len(trick)] = 1
    taken = position.taken
    x[pk.TAKEN : pk.TAKEN + 3] = [taken[seat] / 12, taken[left] / 12, taken[right] / 12]
    x[pk.COINS_OUT] = (12 - sum(taken)) / 12
    x[pk.CARDS_LEFT] = len(hand) / 16
    for suit in range(4):
        x[pk.UNSEEN_BY_SUIT + suit] = len(unseen & set(suit_cards(suit))) / 12
        x[pk.HELD_BY_SUIT + suit] = len(hand & set(suit_cards(suit))) / 12
    a = x[pk.STATE_FEATURES :]
    a[pk.CARD + card] = 1
    is_coin = card // 12 == 1
    a[pk.IS_COIN] = is_coin
    same = set(suit_cards(card // 12))
    a[pk.UNSEEN_ABOVE] = len({c for c in unseen & same if c > card}) / 11
    a[pk.UNSEEN_BELOW] = len({c for c in unseen & same if c < card}) / 11
    a[pk.OWN_SUIT] = (len(hand & same) - 1) / 11
    if len(trick) == 2:
        wins = trick_winner([*trick, card]) == 2
        a[pk.SURE_WIN] = a[pk.CAN_WIN] = wins
    elif len(trick) == 1:
        # the third seat plays one of the cards the mover cannot see
        outcomes = {trick_winner([trick[0], card, third]) == 1 for third in unseen}
        a[pk.SURE_WIN] = outcomes == {True}
        a[pk.CAN_WIN] = True in outcomes
    a[pk.POT] = (is_coin + sum(c // 12 == 1 for c in trick)) / 3
    return x


def naive_values(policy: CardPolicy, position: Position) -> dict[int, float]:
    rows = {c: naive_features(position, c) for c in position.legal_cards()}
    x = np.array(list(rows.values()))
    hidden = np.maximum(x @ policy.w1 + policy.b1, 0)
    hidden = np.maximum(hidden @ policy.w2 + policy.b2, 0)
    return dict(zip(rows, hidden @ policy.w3 + policy.b3[0]))


def random_policy(seed: int, sizes=(24, 12)) -> CardPolicy:
    rng = np.random.default_rng(seed)
    n1, n2 = sizes
    return CardPolicy(
        rng.normal(0, 0.3, (pk.POLICY_FEATURES, n1)),
        rng.normal(0, 0.3, n1),
        rng.normal(0, 0.3, (n1, n2)),
        rng.normal(0, 0.3, n2),
        rng.normal(0, 0.3, n2),
        rng.normal(0, 0.3, 1),
    )


def test_the_kernels_features_and_values_equal_plain_numpys():
    policy = random_policy(1)
    for position in random_positions(60, seed=2):
        seat = position.to_move
        t0, t1 = (list(position.trick) + [-1, -1])[:2]
        hand = position.hands[seat]
        gone = pk.FULL_DECK & ~(sum(position.hands) | position.trick_mask)
        taken = position.taken
        for card in position.legal_cards():
            x = np.full(pk.POLICY_FEATURES, 7.0)  # stale values must be overwritten
            unseen = pk.state_features(
                hand,
                gone,
                len(position.trick),
                t0,
                t1,
                taken[seat],
                taken[(seat + 1) % 3],
                taken[(seat + 2) % 3],
                x,
            )
            pk.card_features(card, hand, unseen, len(position.trick), t0, t1, x)
            np.testing.assert_allclose(x, naive_features(position, card), err_msg=str(position))
        got = policy.values(position)
        expected = naive_values(policy, position)
        assert got.keys() == expected.keys()
        np.testing.assert_allclose(list(got.values()), list(expected.values()), rtol=1e-9)
        assert policy.card(position) == max(expected, key=lambda c: (expected[c], -c))


def test_the_shipped_weights_load_with_the_expected_shapes_and_stay_small():
    policy = default_policy()
    n1, n2 = policy.b1.shape[0], policy.b2.shape[0]
    assert policy.w1.shape == (pk.POLICY_FEATURES, n1)
    assert policy.w2.shape == (n1, n2) and policy.w3.shape == (n2,) and policy.b3.shape == (1,)
    assert (ROOT / "solver" / WEIGHTS_FILE).stat().st_size < 1_000_000


def test_weights_of_the_wrong_shape_are_refused(tmp_path):
    policy = random_policy(3)
    arrays = {name: getattr(policy, name) for name in pk.PolicyNet._fields}
    np.savez(tmp_path / "short.npz", **(arrays | {"w2": arrays["w2"][:, :5]}))
    with pytest.raises(CoinsError, match="w2 has shape"):
        CardPolicy.load(tmp_path / "short.npz")
    np.savez(tmp_path / "missing.npz", **{n: a for n, a in arrays.items() if n != "b3"})
    with pytest.raises(CoinsError, match="no b3"):
        CardPolicy.load(tmp_path / "missing.npz")


def test_the_policy_bot_plays_whole_hands_and_only_for_the_seat_to_move():
    """Hand checks every card is held (tests/test_bots.py checks legal cards at
    random positions, and that the bot does not look at the hidden hands)."""
    for seed in range(4):
        result = Hand([policy_bot, random_bot, policy_bot], dealer=seed % 3, seed=seed).play()
        assert result.complete and sum(result.points) == 12
    with pytest.raises(CoinsError, match="not to move"):
        policy_bot(Position.random(0), 1, random.Random(0))


def largest_hand(position: Position) -> int:
    return max(len(position.hand(seat)) for seat in range(3))


def test_the_playout_kernel_plays_the_policys_cards():
    policy = random_policy(4)
    for i, position in enumerate(random_positions(12, seed=7)):
        cards_left = i % 4 * 2  # 0: to the end of the hand
        walk = position
        if largest_hand(walk) > cards_left:  # else it stops at once, even inside a trick
            walk = walk.play(policy.card(walk))
            while walk.trick or largest_hand(walk) > cards_left:
                walk = walk.play(policy.card(walk))
        reached, points = policy.play_until(position, cards_left)
        assert reached == walk
        assert points == tuple(w - t for w, t in zip(walk.taken, position.taken))


def test_the_policy_evaluation_plays_the_policy_to_the_horizon_then_exactly():
    """Each card: the points of a trick it completes, the policy's play to
    ``horizon`` cards a hand, then the exact max^n points."""
    evaluator = PolicyEvaluator(exact_cards=0, horizon=3)
    policy = default_policy()
    rng = random.Random(0)
    for position in random_positions(40, seed=8):
        if position.cards_per_hand < 5:
            continue
        mover = position.to_move
        values = evaluator(position, None, rng).values
        assert sorted(values) == position.legal_cards()
        for card, value in values.items():
            walk = position.play(card)
            while walk.trick or largest_hand(walk) > 3:
                walk = walk.play(policy.card(walk))
            rest = 0 if walk.is_terminal else solve_maxn(walk).equilibrium[mover]
            assert value == walk.taken[mover] - position.taken[mover] + rest


def test_the_hint_and_the_command_line_take_the_policy(capsys):
    result = hint("? KNJ7543.96.AN874.96 ? 0 - | JO", 6, 0, evaluation="policy", seed=1)
    assert result.evaluation == "policy"
    status = cli.main(["match", "--seats", "policy", "greedy", "greedy", "--hands", "2"])
    assert status == 0 and "policy" in capsys.readouterr().out


def test_the_training_script_runs_a_round_and_writes_weights_the_policy_reads(
    tmp_path, monkeypatch
):
    # imported by name: Numba's cache finds a kernel's module again by its name
    monkeypatch.syspath_prepend(str(ROOT / "training"))
    train_policy = importlib.import_module("train_policy")
    out = tmp_path / "run"
    train_policy.main(
        ["--out", str(out), "--rounds", "2", "--episodes", "3", "--eval-deals", "4"]
        + ["--hidden", "8,4", "--eval-minutes", "0"]
    )
    policy = CardPolicy.load(out / "best.npz")
    assert policy.w1.shape == (pk.POLICY_FEATURES, 8)
    assert sorted(p.name for p in out.glob("checkpoint_*.npz")) == [
        f"checkpoint_000000{r}.npz" for r in range(3)
    ]
    position = Position.random(9)
    assert policy.card(position) in position.legal_cards()
