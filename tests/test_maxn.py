"""The compiled equilibrium (max^n) solver against the reference vectors and
against its naive twin (tests/naive_maxn.py, written straight from RULES.md)."""

from __future__ import annotations

import random

import pytest
from conftest import load_jsonl

from solver import SearchPolicy, solve
from solver.cards import COINS_MASK, DECK_SIZE, SEATS, Card
from solver.maxn import MaxnTable, maxn_table_megabytes, solve_maxn
from solver.position import Position
from solver.table import shared_table
from tests.naive_maxn import maxn as naive_maxn


def random_position(rng: random.Random) -> Position:
    """A small random position: 1-3 cards a hand (sometimes 4), a third of them
    mid-trick, some with points already taken, some with no Coins left, and
    often from a few suits and ranks so that runs and ties are common."""
    cards = rng.choice([1, 2, 2, 3, 3, 3, 4])
    deck = list(range(DECK_SIZE))
    if rng.random() < 0.15:
        deck = [c for c in deck if not COINS_MASK >> c & 1]
    if rng.random() < 0.5:
        suits = rng.sample(range(4), rng.choice([2, 3]))
        ranks = rng.sample(range(12), rng.randint(max(3, 3 * cards // len(suits) + 1), 12))
        narrow = [c for c in deck if c // 12 in suits and c % 12 in ranks]
        if len(narrow) >= 3 * cards:
            deck = narrow
    chosen = rng.sample(deck, 3 * cards)
    hands = [0, 0, 0]
    for i, card in enumerate(chosen):
        hands[i % SEATS] |= 1 << card
    leader = rng.randrange(SEATS)
    trick = []
    if rng.random() < 1 / 3:
        for i in range(rng.choice([1, 2])):
            seat = (leader + i) % SEATS
            card = rng.choice([c for c in range(DECK_SIZE) if hands[seat] >> c & 1])
            hands[seat] &= ~(1 << card)
            trick.append(card)
    position = Position(tuple(hands), leader, tuple(trick))
    gone = 12 - position.coins_left
    if gone and rng.random() < 0.4:
        left = rng.randint(0, gone)
        first = rng.randint(0, left)
        second = rng.randint(0, left - first)
        position = Position(
            position.hands, leader, position.trick, (first, second, left - first - second)
        )
    return position


def _agree(position: Position, result) -> None:
    values, card_results, line = naive_maxn(position)
    assert result.exact
    assert result.equilibrium == list(values), position
    assert result.card_results == {c: list(v) for c, v in card_results.items()}, position
    assert result.line == line, position


@pytest.mark.parametrize("vector", load_jsonl("maxn.jsonl"), ids=lambda v: v["position"])
def test_reference_vectors(vector):
    position = Position.parse(vector["position"])
    result = solve_maxn(position)
    assert result.exact
    assert result.to_move == vector["mover"]
    assert result.equilibrium == vector["equilibrium"]
    assert {str(c): v for c, v in result.card_results.items()} == vector["card_results"]
    assert [str(c) for c in result.line] == vector["line"]
    assert sum(result.equilibrium) == position.coins_left


@pytest.mark.kernels
@pytest.mark.parametrize("block", range(6))
def test_matches_naive_on_random_positions(block):
    rng = random.Random(6000 + block)
    for _ in range(60):
        position = random_position(rng)
        result = solve_maxn(position)
        _agree(position, result)
        assert sum(result.equilibrium) == position.coins_left
        for card in position.legal_cards():
            assert sum(result.card_results[card]) == position.coins_left


@pytest.mark.kernels
@pytest.mark.parametrize(
    "options",
    [
        dict(policy=SearchPolicy(maxn_pruning=False)),
        dict(policy=SearchPolicy(use_table=False)),
        dict(policy=SearchPolicy(rank_equivalence=False)),
        dict(policy=SearchPolicy(maxn_pruning=False, use_table=False, rank_equivalence=False)),
        dict(table=MaxnTable(0.0005)),  # 16 entries: constant replacement
        dict(threads=1),
        dict(threads=3, table=MaxnTable(0.0005)),  # threads racing on a tiny shared table
    ],
    ids=[
        "no-pruning",
        "no-table",
        "no-equivalence",
        "plain",
        "tiny-table",
        "one-thread",
        "three-threads",
    ],
)
def test_speedups_change_nothing(options):
    rng = random.Random(7100)
    for _ in range(40):
        position = random_position(rng)
        _agree(position, solve_maxn(position, **options))


@pytest.mark.kernels
def test_values_only_search_agrees():
    """Without card results the root's cards may be pruned: the value and line stay."""
    rng = random.Random(7200)
    for _ in range(60):
        position = random_position(rng)
        values, _, line = naive_maxn(position)
        result = solve_maxn(position, card_results=False)
        assert result.equilibrium == list(values)
        assert result.card_results == {}
        assert result.line == line
        only = solve_maxn(position, card_results=False, line=False)
        assert only.equilibrium == list(values) and only.line == []


def test_at_least_the_guaranteed_value():
    """Playing for itself, every seat wins at least what it can be sure of."""
    rng = random.Random(7300)
    for _ in range(40):
        position = random_position(rng)
        equilibrium = solve_maxn(position, card_results=False, line=False).equilibrium
        guaranteed = solve(position, card_values=False, line=False).guaranteed
        for seat in range(SEATS):
            assert equilibrium[seat] >= guaranteed[seat], (position, seat)


@pytest.mark.parametrize("cards", [5, 6])
def test_larger_positions_keep_their_invariants(cards):
    for seed in range(3):
        position = Position.random(seed, cards, leader=seed % 3)
        result = solve_maxn(position)
        assert result.exact
        assert sum(result.equilibrium) == position.coins_left
        mover = position.to_move
        best = max(v[mover] for v in result.card_results.values())
        assert result.equilibrium[mover] == best
        assert result.card_results[result.line[0]] == result.equilibrium
        # the line replays to the equilibrium
        after = position
        for card in result.line:
            after = after.play(card)
        gained = [after.taken[s] - position.taken[s] for s in range(SEATS)]
        assert gained == result.equilibrium


def test_taken_plays_no_part():
    position = Position.parse("5.2.. .K6.. K..6. 0 - 0,0,0")
    with_taken = Position(position.hands, position.leader, position.trick, (3, 4, 1))
    assert solve_maxn(position).to_json() | {"position": 0, "seconds": 0, "nodes": 0} == (
        solve_maxn(with_taken).to_json() | {"position": 0, "seconds": 0, "nodes": 0}
    )


def test_terminal_position():
    position = Position.parse("... ... ... 1 - 4,4,4")
    result = solve_maxn(position)
    assert result.exact and result.equilibrium == [0, 0, 0]
    assert result.card_results == {} and result.line == []


@pytest.mark.kernels
def test_equivalent_cards_and_the_index_order_tie_break():
    # seat 0's 2C-3C-4C form one run: all give the same, the line takes 2C
    position = Position.parse("432... 765... J98... 0 -")
    result = solve_maxn(position)
    assert result.equilibrium == [0, 0, 0]
    assert result.line[0] == Card.parse("2C")
    assert len(set(map(tuple, result.card_results.values()))) == 1


@pytest.mark.kernels
def test_budgets_give_inexact_results():
    position = Position.random(11, 6)
    few = solve_maxn(position, max_nodes=50, table=MaxnTable(1))
    assert not few.exact
    assert few.equilibrium is None and few.card_results == {} and few.line == []
    assert few.nodes <= 50 + 2  # each thread may count the node that finds the budget spent
    late = solve_maxn(Position.random(12, 9), time_limit=1e-4, table=MaxnTable(1))
    assert not late.exact and late.equilibrium is None


@pytest.mark.kernels
def test_budget_during_the_line_keeps_only_what_is_proven():
    # one thread: node counts then repeat exactly, so the budget can be cut between
    # the root search and the line
    position = Position.random(13, 5)
    full = solve_maxn(position, table=MaxnTable(1), threads=1)
    first = solve_maxn(position, line=False, table=MaxnTable(1), threads=1)
    # enough for the root search but not for the whole line
    cut = solve_maxn(position, max_nodes=first.nodes + 1, table=MaxnTable(1), threads=1)
    assert not cut.exact
    assert cut.equilibrium == full.equilibrium
    assert cut.card_results == full.card_results
    assert cut.line == []


def test_bad_arguments():
    from solver.errors import CoinsError

    with pytest.raises(CoinsError):
        solve_maxn(Position.random(1, 2), max_nodes=0)
    with pytest.raises(CoinsError):
        solve_maxn(Position.random(1, 2), time_limit=-1)
    with pytest.raises(CoinsError):
        solve_maxn(42)


def test_default_tables_are_sized_for_the_position_and_only_grow():
    assert [maxn_table_megabytes(c) for c in (1, 6, 8, 9, 10, 16)] == [4, 16, 64, 128, 256, 256]
    table = shared_table(MaxnTable, 4)
    assert shared_table(MaxnTable, 4) is table and table.megabytes >= 4
    larger = shared_table(MaxnTable, table.megabytes * 2)
    assert larger is not table and larger.megabytes == table.megabytes * 2
    assert shared_table(MaxnTable, 4) is larger  # a smaller search keeps the larger table
    assert isinstance(larger, MaxnTable)
