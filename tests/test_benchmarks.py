"""The solver benchmark: its committed suite, its statistics and a short run."""

import json

import pytest

from benchmarks import solver as bench
from solver import solve


def test_committed_suite_is_the_one_its_header_describes():
    assert bench.SUITE.read_text() == bench.make_suite()


def test_suite_sizes():
    suite = bench.read_suite()
    assert {cards: len(positions) for cards, positions in suite.items()} == bench.SUITE_SIZES
    assert all(p.leader == 0 and not p.trick for positions in suite.values() for p in positions)


def test_summarize():
    # seconds 1..10 and nodes 10..100: numpy's linear percentile gives 9.1 at p90
    records = [{"seconds": float(i), "nodes": 10 * i, "exact": i < 9} for i in range(1, 11)]
    summary = bench.summarize(records)
    assert summary["positions"] == 10 and summary["unfinished"] == 2
    assert summary["seconds"] == {"median": 5.5, "p90": pytest.approx(9.1), "max": 10.0}
    assert summary["nodes"]["total"] == 550 and summary["nodes"]["max"] == 100
    assert summary["nodes_per_second"] == pytest.approx(10.0)


def test_quick_run_saves_what_it_solved(tmp_path, capsys):
    output = tmp_path / "solver.json"
    report = bench.main(["--sizes", "6", "--quick", "--output", str(output)])
    assert json.loads(output.read_text()) == json.loads(json.dumps(report))
    assert list(report["sizes"]) == ["6"]
    assert report["sizes"]["6"]["positions"] == bench.QUICK_POSITIONS
    assert report["total_nodes"] == sum(r["nodes"] for r in report["positions"])
    for record in report["positions"]:
        assert record["exact"]
        assert record["value"] == solve(record["position"], seats=(0,)).guaranteed[0]
    assert "med s" in capsys.readouterr().out


@pytest.mark.parametrize("sizes", ["7", "6,x"])
def test_bad_sizes_are_a_usage_error(sizes):
    with pytest.raises(SystemExit) as exit:
        bench.main(["--sizes", sizes])
    assert exit.value.code == 2
