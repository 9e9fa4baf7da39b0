"""benchmarks/evaluator.py: the committed suite and dev set are the ones its
generator deals, their exact answers hold where they are cheap to check, and
a short run saves what it measured."""

import json
from pathlib import Path

import pytest

from benchmarks import evaluator
from solver import Position
from solver.cards import Card
from solver.maxn import solve_maxn

SETS = {
    "suite": (evaluator.SUITE, evaluator.SUITE_SIZE, evaluator.CARDS, evaluator.FIRST_SEED),
    "dev": (evaluator.DEV_SET, *(evaluator.DEV_MADE[k] for k in ("size", "cards", "first_seed"))),
}


@pytest.mark.parametrize("name", SETS)
def test_committed_sets_are_the_ones_their_generator_deals(name):
    path, size, cards, first_seed = SETS[name]
    records = evaluator.read_suite(path)
    assert [r["index"] for r in records] == list(range(size))
    for record in records:
        position, kind = evaluator.suite_position(record["index"], cards, first_seed)
        assert (str(position), kind) == (record["position"], record["kind"])
        assert position.cards_per_hand == cards
    kinds = [r["kind"] for r in records[: evaluator.SUITE_SIZE]]
    assert kinds.count("random") == kinds.count("played") == evaluator.SUITE_SIZE // 2
    on_table = {len(Position.parse(r["position"]).trick) for r in records}
    assert on_table == {0, 1, 2}


@pytest.mark.parametrize("name", SETS)
def test_every_card_has_an_exact_result_sharing_out_the_coins_left(name):
    for record in evaluator.read_suite(SETS[name][0]):
        position = Position.parse(record["position"])
        assert {Card.parse(c) for c in record["card_results"]} == set(position.legal_cards())
        for values in record["card_results"].values():
            assert sum(values) == position.coins_left


def _cheapest(name: str, count: int = 2) -> list[dict]:
    return sorted(evaluator.read_suite(SETS[name][0]), key=lambda r: r["seconds"])[:count]


@pytest.mark.parametrize(
    "record", _cheapest("suite") + _cheapest("dev"), ids=lambda r: r["position"]
)
def test_cheapest_answers_are_solved_again_alike(record):
    result = solve_maxn(Position.parse(record["position"]), card_results=True, line=False)
    assert {str(c): list(v) for c, v in result.card_results.items()} == record["card_results"]
    assert list(result.equilibrium) == record["equilibrium"]


def test_judge_finds_where_cards_differ_and_the_regret():
    # seat 1 to move; only its own points (the middle number) count
    record = {
        "position": "A... K2... 43... 0 5C",
        "card_results": {"KC": [0, 0, 0], "2C": [0, 2, 0]},
    }
    assert evaluator.judge(record, Card.parse("KC")) == (True, 2)
    assert evaluator.judge(record, Card.parse("2C")) == (True, 0)
    record["card_results"] = {"KC": [1, 0, 0], "2C": [0, 0, 1]}
    assert evaluator.judge(record, Card.parse("KC")) == (False, 0)


def test_short_run_saves_what_it_measured(tmp_path, capsys):
    output = tmp_path / "evaluator.json"
    report = evaluator.main(["--positions", "3", "--output", str(output)])
    assert json.loads(output.read_text()) == json.loads(json.dumps(report))
    assert list(report["evaluations"]) == ["estimate", "playout evaluation", "random card"]
    for row in report["evaluations"].values():
        assert 0 <= row["right"] <= row["differ"] <= 3 and row["mean_regret"] >= 0
    assert report["full_deals"]["count"] == 10
    assert 0 < report["full_deals"]["median"] <= report["full_deals"]["max"]
    assert "Picking a card" in capsys.readouterr().out


def test_another_set_and_network_are_named_in_the_report(tmp_path):
    shipped = Path(evaluator.__file__).resolve().parents[1] / "solver" / "value_net.npz"
    output = tmp_path / "dev.json"
    report = evaluator.main(
        [
            "--suite",
            str(evaluator.DEV_SET),
            "--positions",
            "2",
            "--no-baselines",
            "--net",
            str(shipped),
            "--time-limit",
            "0.2",
            "--output",
            str(output),
        ]
    )
    assert report["suite"] == json.loads(output.read_text())["suite"]
    assert report["suite"]["file"] == "dev_positions.jsonl" and report["suite"]["positions"] == 2
    assert report["options"]["net"] == str(shipped)
    assert list(report["evaluations"]) == ["estimate"]
    assert "targets" not in report  # they are the suite's


# seat 1 to move with the King or the 2 of Cups; only its own points (the middle number) count
SMALL = "A... K2... 43... 0 5C"


def _record(name: str, index: int, source: str, king: list, two: list) -> dict:
    """A hand-made record of SMALL: the results after KC and after 2C."""
    return {
        "set": name,
        "index": index,
        "source": source,
        "position": SMALL,
        "card_results": {"KC": king, "2C": two},
        "seconds": 0.01,
    }


def _tiny_sets() -> list[dict]:
    suite_like = _record("two.jsonl", 0, "", [0, 0, 0], [0, 2, 0])
    del suite_like["source"]
    suite_like["kind"] = "random"  # the suite names its sources kinds
    return [
        _record("one.jsonl", 0, "x", [0, 0, 0], [0, 2, 0]),  # decisive, KC costs 2
        _record("one.jsonl", 1, "x", [0, 1, 1], [0, 1, 1]),  # not decisive
        _record("one.jsonl", 2, "y", [0, 2, 0], [0, 0, 2]),  # decisive, KC best
        suite_like,
    ]


def test_per_source_report_counts_shares_and_regrets_by_hand():
    records = _tiny_sets()
    king = evaluator.pick(records, lambda p: Card.parse("KC"))
    rows = evaluator.breakdown(records, {"king": king})
    found = {(r["set"], r["source"]): r for r in rows}
    # a set of one source has no pooled row; the suite's kinds count as sources
    assert list(found) == [
        ("one.jsonl", "x"),
        ("one.jsonl", "y"),
        ("one.jsonl", "all"),
        ("two.jsonl", "random"),
    ]
    x = found["one.jsonl", "x"]
    assert (x["positions"], x["decisive"]) == (2, 1)
    assert (x["evaluations"]["king"]["right"], x["evaluations"]["king"]["differ"]) == (0, 1)
    assert x["evaluations"]["king"]["mean_regret"] == 1.0
    low, high = x["evaluations"]["king"]["regret_interval"]
    assert 0 <= low < 1.0 < high <= 2
    y = found["one.jsonl", "y"]["evaluations"]["king"]
    assert (y["right"], y["differ"], y["share_right"], y["mean_regret"]) == (1, 1, 1.0, 0)
    assert y["regret_interval"] == [0, 0]
    pooled = found["one.jsonl", "all"]
    assert (pooled["positions"], pooled["decisive"]) == (3, 2)
    result = pooled["evaluations"]["king"]
    assert (result["right"], result["differ"], result["share_right"]) == (1, 2, 0.5)
    assert result["mean_regret"] == pytest.approx(2 / 3)
    # the Wilson interval of 1 in 2: 0.0945-0.9055
    assert result["share_interval"] == pytest.approx([0.0945, 0.9055], abs=1e-4)
    two = found["two.jsonl", "random"]["evaluations"]["king"]
    assert (two["right"], two["differ"]) == (0, 1) and two["share_interval"][0] == pytest.approx(0)


def test_wilson_interval_of_none_and_all():
    assert evaluator.wilson_interval(0, 0) is None
    low, high = evaluator.wilson_interval(20, 20)
    assert high == 1 and low == pytest.approx(0.8389, abs=1e-4)


def test_several_sets_are_reported_together_and_per_source(tmp_path, capsys):
    paths = []
    for name in ("one.jsonl", "two.jsonl"):
        path = tmp_path / name
        lines = [json.dumps({"set": "header"})]  # a sources set's header line is skipped
        lines += [json.dumps(r) for r in _tiny_sets() if r["set"] == name]
        path.write_text("\n".join(lines) + "\n")
        paths.append(str(path))
    report = evaluator.main(
        [
            "--suite",
            *paths,
            "--no-baselines",
            "--time-limit",
            "0.1",
            "--output",
            str(tmp_path / "r.json"),
        ]
    )
    assert report["suite"]["file"] == "one.jsonl, two.jsonl" and report["suite"]["positions"] == 4
    assert [(r["set"], r["source"]) for r in report["by_source"]] == [
        ("one.jsonl", "x"),
        ("one.jsonl", "y"),
        ("one.jsonl", "all"),
        ("two.jsonl", "random"),
    ]
    assert [(r["set"], r["size"]) for r in report["by_size"]] == [
        ("one.jsonl", "2 cards"),
        ("two.jsonl", "2 cards"),
    ]
    assert [p["set"] for p in report["picks"]] == ["one.jsonl"] * 3 + ["two.jsonl"]
    # two cards a hand are solved exactly, and the report says so
    assert report["evaluations"]["estimate"]["exact"] == 4
    assert all(p["estimate_exact"] for p in report["picks"])
    assert "targets" not in report
    assert "Per set and source" in capsys.readouterr().out
