"""benchmarks/review.py: a tiny run measures both parts and saves them where asked."""

import json

from analysis.reviews import LABELS
from benchmarks import review as benchmark


def test_quick_review_run(tmp_path):
    output = tmp_path / "review.json"
    report = benchmark.main(["--quick", "--output", str(output)])
    assert json.loads(output.read_text()) == json.loads(json.dumps(report))
    timing = report["timing"]
    assert timing["deals"] == len(timing["hands"]) == 2 and timing["cards"] == 6
    assert timing["all_reviewed"] and timing["median_s"] <= timing["worst_s"]
    for hand in timing["hands"]:
        assert hand["reviewed"] == 18 and hand["missing"] == 0
    agreement = report["agreement"]
    assert agreement["cards"] == 8 and agreement["decisions"] == len(agreement["rows"])
    labels = {None, *(name for name, _ in LABELS)}
    for row in agreement["rows"]:
        assert row["exact_label"] in labels and row["estimated_label"] in labels
        assert isinstance(row["exact_cost"], int) and row["exact_cost"] >= 0


def test_quick_runs_leave_the_committed_results_alone():
    assert benchmark.QUICK_RESULTS != benchmark.RESULTS
    assert benchmark.QUICK_RESULTS.name.endswith(".tmp")  # ignored by git
