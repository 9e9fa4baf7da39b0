"""benchmarks/evaluator.py: the committed suite is the one its generator deals,
its exact answers hold where they are cheap to check, and a short run saves
what it measured."""

import json

import pytest

from benchmarks import evaluator
from solver import Position
from solver.cards import Card
from solver.maxn import solve_maxn

RECORDS = evaluator.read_suite()


def test_committed_suite_is_the_one_its_generator_deals():
    assert [r["index"] for r in RECORDS] == list(range(evaluator.SUITE_SIZE))
    for record in RECORDS:
        position, kind = evaluator.suite_position(record["index"])
        assert (str(position), kind) == (record["position"], record["kind"])
        assert position.cards_per_hand == evaluator.CARDS
    kinds = [r["kind"] for r in RECORDS]
    assert kinds.count("random") == kinds.count("played") == evaluator.SUITE_SIZE // 2
    on_table = {len(Position.parse(r["position"]).trick) for r in RECORDS}
    assert on_table == {0, 1, 2}


def test_every_card_has_an_exact_result_sharing_out_the_coins_left():
    for record in RECORDS:
        position = Position.parse(record["position"])
        assert {Card.parse(c) for c in record["card_results"]} == set(position.legal_cards())
        for values in record["card_results"].values():
            assert sum(values) == position.coins_left


@pytest.mark.parametrize("record", sorted(RECORDS, key=lambda r: r["seconds"])[:2],
                         ids=lambda r: f"index {r['index']}")  # fmt: skip
def test_cheapest_answers_are_solved_again_alike(record):
    result = solve_maxn(Position.parse(record["position"]), card_results=True, line=False)
    assert {str(c): list(v) for c, v in result.card_results.items()} == record["card_results"]
    assert list(result.equilibrium) == record["equilibrium"]


def test_judge_finds_where_cards_differ_and_the_regret():
    # seat 1 to move; only its own points (the middle number) count
    record = {"position": "A... K2... 43... 0 5C",
              "card_results": {"KC": [0, 0, 0], "2C": [0, 2, 0]}}  # fmt: skip
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
