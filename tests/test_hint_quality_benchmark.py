"""benchmarks/hint_quality.py: a tiny run measures every part and saves it."""

import json

from benchmarks import hint_quality


def test_quick_hint_quality_run(tmp_path):
    output = tmp_path / "hint_quality.json"
    report = hint_quality.main(
        [
            "--eval-cards",
            "5",
            "--eval-views",
            "1",
            "--eval-deals",
            "1",
            "--time-views",
            "1",
            "--agree-sizes",
            "3",
            "--agree-views",
            "2",
            "--samples",
            "2",
            "--deals",
            "1",
            "--pimc-samples",
            "2",
            "--output",
            str(output),
        ]
    )
    assert json.loads(output.read_text()) == json.loads(json.dumps(report))
    assert [row["evaluator"] for row in report["evaluation"]] == [
        label for label, *_ in hint_quality.EVALUATORS
    ]
    for row in report["evaluation"]:
        assert row["deals"] == 1 and 0 <= row["best_rate"] <= 1 and row["mean_regret"] >= 0
    assert [row["evaluator"] for row in report["evaluation_seconds"]] == [
        label for label, *_ in hint_quality.EVALUATORS
    ]
    assert {(row["played_by"], row["cards"]) for row in report["agreement"]} == {
        ("greedy", 3),
        ("random", 3),
        ("pimc", 3),
    }
    assert all(0 <= row[s] <= 1 for row in report["agreement"] for s in hint_quality.COMPARED)
    assert [m["bots"] for m in report["matches"]] == [
        ["pimc-uniform", "pimc-weighted", "greedy"],
        ["pimc-uniform", "pimc-weighted", "random"],
    ]
    for match in report["matches"]:
        assert match["hands"] == 3 and len(match["uniform_minus_weighted"]) == 2
