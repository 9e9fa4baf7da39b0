"""The research scripts (research/): not run by CI; ``python -m pytest research`` runs these."""

import pytest

from benchmarks import solver as bench
from research import ordering_ceiling, proof_shape
from solver import Position, solve
from solver import _kernels as kernels
from solver.table import TranspositionTable

# ----- research/proof_shape.py: what a proof stores, trick by trick ----------------------


def test_cards_left_reads_each_entrys_from_its_key(monkeypatch):
    monkeypatch.setattr(proof_shape, "_READ_SLOTS", 1000)  # several blocks, the last one short
    table = TranspositionTable(1)
    expected = []
    for seed in range(60):
        position = Position.random(seed, cards=seed % 17, leader=seed % 3)
        h0, h1, h2 = position.hands
        key_a, key_b = kernels.relative_key(h0, h1, h0 | h1 | h2, position.leader, seed % 4)
        data = kernels._tt_pack(0, 12, -1, 1 + seed)
        kernels._tt_write(table.slots, 1000 * seed + 999, key_a, key_b, data)  # a block's last slot
        expected.append(position.cards_per_hand)
    assert sorted(proof_shape.cards_left(table).tolist()) == sorted(expected)


def test_proof_shape_counts_a_tests_entries_by_cards_left():
    position = bench.read_suite()[8][1]
    value = solve(position, seats=(0,), card_values=False, line=False).guaranteed[0]
    for need in (value, value + 1):
        if need < 1:
            continue
        record = proof_shape.run_test(position, need)
        assert record["holds"] == (need <= value)
        assert sum(record["by_cards_left"].values()) == record["entries"] > 0
        assert set(record["by_cards_left"]) <= set(range(2, 9))  # the last trick is never stored
        assert record["entries_per_spending"] == record["entries"] / 12870  # C(16, 8)
    assert proof_shape.pair_spendings(6, 4) == 15**2  # two cards gone of six, in each hand


@pytest.mark.parametrize(
    "spec, says",
    [
        ("12-3-1", "is not SIZE:INDEX:NEED"),
        ("12:99:1", "no ending #99 of 12 cards"),
        ("7:0:1", "no ending #0 of 7 cards"),
        ("12:0:0", "at least 1 point"),
    ],
)
def test_proof_shape_rejects_a_bad_test_in_one_line(capsys, spec, says):
    with pytest.raises(SystemExit) as exit:
        proof_shape.main([spec])
    assert exit.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert error.startswith("python -m research.proof_shape: error: ") and says in error


# ----- research/ordering_ceiling.py: what perfect ordering would save ---------------------


def test_ordering_drivers_answer_as_the_reference_and_perfect_order_visits_fewer():
    visited = {"outcome": 0, "perfect": 0}
    for seed in range(10):
        position = Position.random(seed, cards=4, leader=seed % 3)
        value = solve(position, seats=(0,), card_values=False, line=False).guaranteed[0]
        for need in range(max(value, 1), value + 2):
            # boundary -1: the drivers play every trick themselves, the search takes nothing
            outcome, perfect = (
                ordering_ceiling.Driver(ordering_ceiling.new_search(4), -1, oracle)
                for oracle in (None, ordering_ceiling.new_search(4))
            )
            assert outcome.holds(position, need) == perfect.holds(position, need) == (need <= value)
            assert outcome.search.nodes == perfect.search.nodes == 0
            # the perfect order visits only the deciding card the outcome order reaches first
            assert 0 < perfect.nodes <= outcome.nodes
            for decided, first in perfect.first_decides.values():
                assert 0 <= first <= decided
            visited["outcome"] += outcome.nodes
            visited["perfect"] += perfect.nodes
    assert visited["perfect"] < visited["outcome"]


def test_ordering_ceiling_runs_a_test_three_ways():
    position = bench.read_suite()[8][1]
    value = solve(position, seats=(0,), card_values=False, line=False).guaranteed[0]
    record = ordering_ceiling.run_test(position, value + 1, tricks=2)
    assert record["holds"] is False and record["search_nodes"] > 0
    perfect = record["perfect_order"]
    assert perfect["driver_nodes"] > 0 and perfect["oracle_nodes"] > 0
    assert perfect["nodes"] > perfect["driver_nodes"]  # the search took the last six tricks
    assert record["outcome_order"]["nodes"] > record["outcome_order"]["driver_nodes"]


def test_ordering_ceiling_rejects_no_tricks_in_one_line(capsys):
    with pytest.raises(SystemExit) as exit:
        ordering_ceiling.main(["12:3:1", "--tricks", "0"])
    assert exit.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert error == "python -m research.ordering_ceiling: error: --tricks must be at least 1, not 0"
