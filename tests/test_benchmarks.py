"""The solver benchmarks (paranoid and max^n): their committed suites, statistics and short runs."""

import json
import subprocess
from pathlib import Path

import pytest

from benchmarks import compare as compare_bench
from benchmarks import maxn as maxn_bench
from benchmarks import solver as bench
from solver import solve
from solver.maxn import solve_maxn


def test_committed_suite_is_the_one_its_header_describes():
    assert bench.SUITE.read_text() == bench.make_suite()
    assert bench.RUNS_SUITE.read_text() == bench.make_runs_suite()


def test_deals_in_runs_hold_one_run_a_suit_a_seat():
    for position in bench.read_suite(bench.RUNS_SUITE)[bench.FULL_DEAL]:
        assert position.cards_per_hand == 16 and position.leader == 0
        for seat in range(3):
            for suit in range(4):
                held = position.hands[seat] >> (12 * suit) & 0xFFF
                assert held & (held + (held & -held)) == 0  # one block of consecutive ranks


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
    assert summary["tt_hit_rate"] is None and summary["first_card_cutoffs"]["pair"] is None
    assert summary["seats"] == summary["seats_proven"] == summary["open_points"] == 0
    seated = [
        r | {"all_bounds": [[1, 1], None, [0, 3 if i == 2 else 0]]} for i, r in enumerate(records)
    ]
    summary = bench.summarize(seated)
    assert (summary["seats"], summary["seats_proven"], summary["open_points"]) == (20, 19, 3)
    profiled = [
        r
        | {
            "tt_probes": 10,
            "tt_hits": 4,
            "tt_decided": 2,
            "first_card_cutoffs": {"pair": 0.5, "seat": None if i > 1 else 0.9},
        }
        for i, r in enumerate(records)
    ]
    summary = bench.summarize(profiled)
    assert summary["tt_hit_rate"] == 0.4 and summary["tt_decided_rate"] == 0.2
    assert summary["first_card_cutoffs"] == {"pair": 0.5, "seat": 0.9}


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
        assert record["values"] == [record["value"], None, None] and record["seats"] == [0]
        assert record["tt_decided"] <= record["tt_hits"] <= record["tt_probes"] <= record["nodes"]
    assert "med s" in capsys.readouterr().out


def test_full_deal_records_carry_every_seat():
    # full deals are solved for all three seats: the same record shape on a small ending
    position = bench.read_suite()[6][1]
    record = bench.run_position(position, 10.0, 1, seats=(0, 1, 2))
    assert record["values"] == solve(position, card_values=False, line=False).guaranteed
    assert record["all_bounds"] == [[v, v] for v in record["values"]]
    assert record["value"] == record["values"][0] and record["exact"]


def test_full_deals_are_run_for_every_seat(tmp_path):
    report = bench.main(
        ["--sizes", "16", "--quick", "--time-cap", "0.2", "--output", str(tmp_path / "solver.json")]
    )
    records = report["positions"]
    assert list(report["sizes"]) == ["16", bench.RUNS]
    quick = bench.QUICK_POSITIONS
    assert [r["cards"] for r in records] == [16] * quick + [bench.RUNS] * quick
    for record in records:
        assert record["seats"] == [0, 1, 2]
        assert all(low <= high for low, high in record["all_bounds"])
    full = report["sizes"]["16"]
    assert full["seats"] == 3 * quick
    assert full["open_points"] == sum(
        high - low for r in records[:quick] for low, high in r["all_bounds"]
    )
    assert "seats proven" in bench.markdown(report)


def test_all_seats_solves_every_seat_of_the_endings(tmp_path, capsys):
    report = bench.main(
        ["--sizes", "6", "--quick", "--all-seats", "--output", str(tmp_path / "solver.json")]
    )
    assert report["options"]["all_seats"]
    for record in report["positions"]:
        assert record["seats"] == [0, 1, 2] and record["exact"]
        assert (
            record["values"] == solve(record["position"], card_values=False, line=False).guaranteed
        )
    assert report["sizes"]["6"]["seats"] == 3 * bench.QUICK_POSITIONS
    assert "Every seat's guaranteed value" in capsys.readouterr().out
    assert "all three seats' values of the endings too" in bench.markdown(report)


def test_repeat_keeps_the_run_of_median_time(monkeypatch):
    times = iter([3.0, 1.0, 2.0, 4.0])
    monkeypatch.setattr(bench, "run_position", lambda *args: {"seconds": next(times), "nodes": 7})
    record = bench.run_repeated(None, 1.0, 1, (0,), 3)
    assert record["seconds"] == 2.0
    assert record["repeat_seconds"] == [3.0, 1.0, 2.0] and record["repeat_nodes"] == [7, 7, 7]
    assert bench.run_repeated(None, 1.0, 1, (0,), 1) == {"seconds": 4.0, "nodes": 7}


def test_repeated_runs_are_saved_with_every_run(tmp_path):
    report = bench.main(
        [
            "--sizes",
            "6",
            "--quick",
            "--repeat",
            "2",
            "--threads",
            "1",
            "--output",
            str(tmp_path / "solver.json"),
        ]
    )
    assert report["options"]["repeat"] == 2
    for record in report["positions"]:
        assert record["seconds"] == min(record["repeat_seconds"])  # the lower middle of two
        assert record["repeat_nodes"] == [record["nodes"]] * 2  # one thread repeats exactly
    assert "the run of median time of 2" in bench.markdown(report)


@pytest.mark.parametrize("argv", [["--repeat", "0"], ["--repeat", "x"]])
def test_bad_repeat_is_a_usage_error(argv):
    with pytest.raises(SystemExit) as exit:
        bench.main(argv)
    assert exit.value.code == 2


@pytest.mark.parametrize("sizes", ["7", "6,x"])
def test_bad_sizes_are_a_usage_error(sizes):
    with pytest.raises(SystemExit) as exit:
        bench.main(["--sizes", sizes])
    assert exit.value.code == 2


def test_held_out_positions_are_dealt_like_the_suite_from_other_seeds():
    held_out = bench.held_out_suite(bench.SUITE_SIZES)
    suite = bench.read_suite()
    assert {cards: len(positions) for cards, positions in held_out.items()} == bench.SUITE_SIZES
    for cards, positions in held_out.items():
        assert all(p.cards_per_hand == cards and p.leader == 0 and not p.trick for p in positions)
        assert not set(map(str, positions)) & set(map(str, suite[cards]))
    assert bench.held_out_suite({6: 3}) == {6: held_out[6][:3]}  # the same every run


def test_quick_runs_never_overwrite_the_committed_results():
    """--quick saved over results/solver.json (and maxn.json, batch.json); now beside
    them, in a file git ignores."""
    for argv in (["--quick"], ["--quick", "--held-out"]):
        saved = bench.output_path(bench.parse_args(argv), bench.RESULTS)
        assert saved.parent == bench.RESULTS.parent and saved.name.endswith("_quick.json.tmp")
        ignored = subprocess.run(["git", "check-ignore", "-q", str(saved)], cwd=bench.HERE)
        assert ignored.returncode == 0, f"git would track {saved}"
    assert bench.output_path(
        bench.parse_args(["--quick", "--output", "x.json"]), bench.RESULTS
    ) == Path("x.json")


def test_held_out_runs_are_saved_apart(tmp_path):
    assert bench.output_path(bench.parse_args([]), bench.RESULTS) == bench.RESULTS
    held_out = bench.output_path(bench.parse_args(["--held-out"]), bench.RESULTS)
    assert held_out == bench.RESULTS.with_name("solver_held_out.json")
    chosen = tmp_path / "mine.json"
    assert (
        bench.output_path(bench.parse_args(["--held-out", "--output", str(chosen)]), bench.RESULTS)
        == chosen
    )
    report = bench.main(["--sizes", "6", "--quick", "--held-out", "--output", str(chosen)])
    assert report["options"]["held_out"]
    dealt = bench.held_out_suite({6: bench.QUICK_POSITIONS})[6]
    assert [r["position"] for r in report["positions"]] == list(map(str, dealt))


# ----- benchmarks/compare.py: two runs, position by position ------------------------------


def _record(position, nodes, exact=True, bounds=((0, 0), None, None)):
    return {
        "cards": 6,
        "position": position,
        "nodes": nodes,
        "exact": exact,
        "all_bounds": [None if b is None else list(b) for b in bounds],
    }


def _report(path, records, threads=1):
    path.write_text(json.dumps({"options": {"threads": threads}, "positions": records}))
    return path


def test_compare_gives_each_sizes_totals_and_geometric_mean():
    before = {("6", p): _record(p, n) for p, n in (("a", 100), ("b", 400), ("c", 50), ("d", 10))}
    after = {
        ("6", "a"): _record("a", 200),
        ("6", "b"): _record("b", 100),
        ("6", "c"): _record("c", 52),
        ("6", "d"): _record("d", 999, exact=False),
    }
    size = compare_bench.compare(before, after)["6"]
    assert (size["positions"], size["finished"]) == (4, 3)  # d was cut short after
    assert (size["nodes_before"], size["nodes_after"]) == (560, 1351)
    assert size["geometric_mean_ratio"] == pytest.approx((2 * 0.25 * 1.04) ** (1 / 3))
    assert (size["less"], size["same"], size["more"]) == (1, 1, 1)


def test_compare_finds_values_the_runs_disagree_on():
    paranoid = {("6", "a"): _record("a", 5, bounds=((1, 1), None, (0, 3)))}
    meeting = {("6", "a"): _record("a", 5, bounds=((1, 1), None, (2, 2)))}
    apart = {("6", "a"): _record("a", 5, bounds=((0, 0), None, (2, 2)))}
    assert compare_bench.disagreements(paranoid, meeting) == []
    assert len(compare_bench.disagreements(paranoid, apart)) == 1
    maxn = {"cards": 6, "position": "a", "nodes": 5, "exact": True, "equilibrium": [1, 2, 0]}
    other = maxn | {"equilibrium": [2, 1, 0]}
    assert len(compare_bench.disagreements({("6", "a"): maxn}, {("6", "a"): other})) == 1
    unfinished = other | {"exact": False}
    assert compare_bench.disagreements({("6", "a"): maxn}, {("6", "a"): unfinished}) == []


def test_compare_command(tmp_path, capsys):
    same = _report(tmp_path / "a.json", [_record("a", 100), _record("b", 10)])
    assert compare_bench.main([str(same), str(same)]) == 0
    assert "1.000" in capsys.readouterr().out
    changed = _report(tmp_path / "b.json", [_record("a", 100, bounds=((2, 2), None, None))], 2)
    assert compare_bench.main([str(same), str(changed)]) == 1
    out = capsys.readouterr().out
    assert "different value a:" in out and "note: 1 and 2 search threads" in out
    assert "(1 only before, 0 only after)" in out
    elsewhere = _report(tmp_path / "c.json", [_record("z", 1)])
    assert compare_bench.main([str(same), str(elsewhere)]) == 1
    assert "no position in common" in capsys.readouterr().out


@pytest.mark.parametrize("content", [None, "not json", '{"positions": [{"cards": 6}]}', "[]"])
def test_compare_rejects_what_is_not_a_report(tmp_path, capsys, content):
    path = tmp_path / "x.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(SystemExit) as exit:
        compare_bench.main([str(path), str(path)])
    assert exit.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert error.startswith("python -m benchmarks.compare: error: ") and "x.json" in error


# ----- benchmarks/maxn.py: the equilibrium (max^n) solver ---------------------------------


def test_committed_maxn_suite_is_the_one_its_header_describes():
    assert maxn_bench.SUITE.read_text() == maxn_bench.make_suite()


def test_maxn_suite_sizes_and_shared_positions():
    suite = bench.read_suite(maxn_bench.SUITE)
    assert {cards: len(positions) for cards, positions in suite.items()} == maxn_bench.SUITE_SIZES
    assert all(p.leader == 0 and not p.trick for positions in suite.values() for p in positions)
    # same seeds as the paranoid suite: its 6- and 8-card blocks start with these
    paranoid_suite = bench.read_suite()
    assert all(paranoid_suite[k][:10] == suite[k] for k in (6, 8))


def test_maxn_quick_run_saves_what_it_solved(tmp_path, capsys):
    output = tmp_path / "maxn.json"
    report = maxn_bench.main(
        ["--sizes", "6", "--quick", "--positions", "2", "--markdown", "--output", str(output)]
    )
    assert json.loads(output.read_text()) == json.loads(json.dumps(report))
    assert list(report["sizes"]) == ["6"] and report["sizes"]["6"]["positions"] == 2
    assert report["total_nodes"] == sum(r["nodes"] for r in report["positions"])
    assert [t["cards"] for t in report["targets"]] == [6]
    for record in report["positions"]:
        assert record["exact"]
        expected = solve_maxn(record["position"], line=False)
        assert record["equilibrium"] == expected.equilibrium
        assert record["card_results"] == {str(c): v for c, v in expected.card_results.items()}
    out = capsys.readouterr().out
    assert "med s" in out and "| 6 | 2 | 0 |" in out and "Targets (warm)" in out


@pytest.mark.parametrize("args", [["--sizes", "10"], ["--sizes", "6,x"], ["--positions", "0"]])
def test_maxn_bad_options_are_a_usage_error(args):
    with pytest.raises(SystemExit) as exit:
        maxn_bench.main(args)
    assert exit.value.code == 2
