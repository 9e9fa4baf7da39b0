"""benchmarks/strength.py: a tiny run saves what it measured."""

import json

from benchmarks import strength


def test_quick_strength_run(tmp_path):
    output = tmp_path / "strength.json"
    report = strength.main(
        [
            "--deals",
            "1",
            "--pimc-samples",
            "2",
            "--pimc-time-limit",
            "0.02",
            "--hint-views",
            "1",
            "--hint-sizes",
            "6",
            "16",
            "--output",
            str(output),
        ]
    )
    assert json.loads(output.read_text()) == json.loads(json.dumps(report))
    assert set(report["hint_seconds"]) == set(report["hint_seconds_1_thread"]) == {"6", "16"}
    assert set(report["hint_seconds_2_threads"]) == {"6", "16"}
    assert [m["bots"] for m in report["matches"]] == [list(lineup) for lineup in strength.LINEUPS]
    for match in report["matches"]:
        assert match["hands"] == 3
        # means are rounded to 4 places in the JSON: three of them are off by 1.5e-4 at most
        assert abs(sum(s["mean"] for s in match["scores"]) - 12) <= 1.5e-4 + 1e-9
