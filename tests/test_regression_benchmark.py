"""The regression set (benchmarks/regression.jsonl): the benchmark suites' endings with both
modes' values, which the solvers must keep."""

import json

import pytest

from benchmarks import regression
from benchmarks.regression import REGRESSION, differences, positions, read, solve_all

RESULTS = REGRESSION.parent / "results"


def test_the_file_holds_the_suites_positions_in_order():
    assert [r["position"] for r in read()] == positions()
    assert len(read()) == 50


def test_values_agree_with_the_committed_benchmark_runs():
    # benchmarks/results/solver.json (seat 0's guaranteed value) and maxn.json (the
    # equilibrium) were solved one by one with fresh tables, apart from the batch code
    values = {r["position"]: r for r in read()}
    paranoid = json.loads((RESULTS / "solver.json").read_text())["positions"]
    maxn = json.loads((RESULTS / "maxn.json").read_text())["positions"]
    checked = 0
    for p in paranoid:
        if p["position"] in values and p["exact"]:
            assert values[p["position"]]["guaranteed"][0] == p["value"]
            checked += 1
    for p in maxn:
        if p["position"] in values and p["exact"]:
            assert values[p["position"]]["equilibrium"] == p["equilibrium"]
            checked += 1
    assert checked == 70


def test_small_endings_keep_their_values():
    small = positions(max_cards=7)
    expected = [r for r in read() if r["position"] in small]
    assert differences(expected, solve_all(small, workers=1)) == []


@pytest.mark.slow
def test_all_keep_their_values(capsys):
    assert regression.main([]) == 0
    assert "all 50 positions keep their values" in capsys.readouterr().out
