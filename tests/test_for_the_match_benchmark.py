"""benchmarks/for_the_match.py: a tiny run saves what it measured."""

import json

from benchmarks import for_the_match


def test_quick_run(tmp_path):
    output = tmp_path / "for_the_match.json"
    report = for_the_match.main(
        ["--seeds", "2", "1", "1", "--samples", "2", "--exact-sizes", "3", "--output", str(output)]
    )
    assert json.loads(output.read_text()) == json.loads(json.dumps(report))
    assert [run["start"] for run in report["runs"]] == list(for_the_match.STARTS)
    for run in report["runs"]:
        assert run["matches"] == 3 * run["seeds"]
        assert sum(bot["matches_won"] for bot in run["bots"]) == run["matches"]
        shares = [bot["won_share"] for bot in run["bots"]]
        assert abs(run["pimc_minus_points"] - (shares[0] - shares[1])) < 1e-3
    assert report["goal_met"] == (report["runs"][0]["pimc_minus_points"] >= 0.05)
    assert list(report["exact"]) == ["3"] and report["exact"]["3"]["endings"] == 8
