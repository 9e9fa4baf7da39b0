"""benchmarks/review.py: a tiny run measures both parts and saves them where asked."""

import json

from analysis.reviews import LABELS
from benchmarks import review as benchmark
from solver import Position
from solver.maxn import solve_maxn


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


def test_truth_solves_what_it_lacks_and_reads_what_it_has(tmp_path):
    path = tmp_path / "truth.jsonl"
    position = Position.random(3, 4)
    found = benchmark.Truth(path).card_results(position)
    exact = solve_maxn(position, line=False).card_results
    assert found == {str(c): list(v) for c, v in exact.items()}
    assert [json.loads(line)["position"] for line in path.read_text().splitlines()] == [
        str(position)
    ]
    # a later run reads the file instead of solving: a planted answer comes back as is
    other = Position.random(4, 4)
    planted = {"position": str(other), "card_results": {"2C": [9, 9, 9]}}
    with path.open("a") as file:
        file.write(json.dumps(planted) + "\n")
    again = benchmark.Truth(path)
    assert again.card_results(other) == {"2C": [9, 9, 9]}
    assert again.card_results(position) == found
    assert len(path.read_text().splitlines()) == 2
