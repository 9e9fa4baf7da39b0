"""Endgame studies (analysis.study, ``coins study``): constrained random endings and their
statistics."""

from __future__ import annotations

import json

import pytest

from analysis.batch import BatchError
from analysis.study import StudySpec, aggregate, study_lines
from coins import cli
from solver import Position, solve
from solver.cards import COINS_MASK, Card, popcount

AO, KO, TWO_C = (1 << int(Card.parse(c)) for c in ("AO", "KO", "2C"))


def test_constraints_hold_in_every_position():
    spec = StudySpec(
        60, 5, seed=4, leader=2, coins_left=4, hold=(AO | TWO_C, 0, 0), not_hold=(0, KO, 0), trick=2
    )
    lines = list(study_lines(spec))
    assert lines == list(study_lines(spec)) and [n for n, _ in lines] == list(range(1, 61))
    assert lines != list(
        study_lines(
            StudySpec(
                60,
                5,
                seed=5,
                leader=2,
                coins_left=4,
                hold=(AO | TWO_C, 0, 0),
                not_hold=(0, KO, 0),
                trick=2,
            )
        )
    )
    for _, text in lines:
        position = Position.parse(text)
        assert position.leader == 2 and len(position.trick) == 2
        on_table = sum(1 << int(c) for c in position.trick)
        hands = position.hands
        assert hands[0] & (AO | TWO_C) == AO | TWO_C  # seat 0 never plays a card it must hold
        assert not hands[1] & KO  # seat 1 has not played yet
        assert popcount((sum(hands) | on_table) & COINS_MASK) == 4
        assert [popcount(h) for h in hands] == [4, 5, 4]  # seats 2 and 0 played to the trick


def test_random_leader_and_impossible_constraints():
    leaders = {Position.parse(t).leader for _, t in study_lines(StudySpec(30, 3, seed=1))}
    assert leaders == {0, 1, 2}
    with pytest.raises(BatchError, match="hold and not hold"):
        StudySpec(1, 3, hold=(AO, 0, 0), not_hold=(AO, 0, 0))
    with pytest.raises(BatchError, match="same card"):
        StudySpec(1, 3, hold=(AO, AO, 0))
    with pytest.raises(BatchError, match="Coins"):
        StudySpec(1, 2, coins_left=7)


def test_aggregate_by_hand():
    # two records made by hand: leader 0 then leader 1, no trick; values as written
    a = Position.parse(".A.. 2... 3... 0 -")  # seat 0 holds AO, each seat one card
    b = Position.parse("2... .A.. 3... 1 -")
    records = [
        {
            "line": 1,
            "position": str(a),
            "guaranteed": [1, 0, 0],
            "equilibrium": [1, 0, 0],
            "exact": True,
            "equilibrium_line": ["AO"],
            "optimal": ["AO"],
        },
        {
            "line": 2,
            "position": str(b),
            "guaranteed": [0, 0, 1],
            "equilibrium": [0, 0, 1],
            "exact": True,
            "equilibrium_line": ["AO"],
            "optimal": ["AO"],
        },
        {"line": 3, "text": "x", "error": "bad"},
        {
            "line": 4,
            "position": str(a),
            "guaranteed": [None] * 3,
            "equilibrium": None,
            "exact": False,
        },
    ]
    stats = aggregate(records)
    assert (stats.positions, stats.errors, stats.not_exact) == (2, 1, 1)
    # leader: seat 0 in a (1 point), seat 1 in b (0); third: seat 2 in a (0), seat 0 in b (0)
    assert stats.by_seat["leader"]["equilibrium"] == {"mean": 0.5, "histogram": {"0": 1, "1": 1}}
    assert stats.by_seat["second"]["guaranteed"]["mean"] == 0.5  # seat 1 in a, seat 2 in b
    # leading: a: 1 - 0 = 1; b: 0 - (1 + 0) / 2 = -0.5; mean 0.25
    assert stats.lead["equilibrium"] == {"positions": 2, "mean_advantage": 0.25}
    assert stats.coin_first["equilibrium_card_is_a_coin"] == {"count": 2, "of": 2, "share": 1.0}
    # AO: held by seat 0 in a (1 point) and seat 1 in b (0 points)
    assert stats.card_worth["AO"] == {"positions": 2, "mean_equilibrium": 0.5}
    assert stats.card_worth["KO"] == {"positions": 0, "mean_equilibrium": None}
    assert "AO,2,0.5" in stats.card_worth_csv()
    assert "leader,equilibrium,1,1" in stats.by_seat_csv()


def test_study_command(tmp_path, capsys):
    out, export = tmp_path / "study.jsonl", tmp_path / "study.json"
    args = [
        "study",
        "--count",
        "12",
        "--cards",
        "4",
        "--seed",
        "3",
        "--hold",
        "0:AO",
        "--workers",
        "1",
        "--quiet",
        "--out",
        str(out),
        "--json",
        str(export),
        "--csv",
        str(tmp_path / "study"),
    ]
    assert cli.main(args) == 0
    shown = capsys.readouterr().out
    assert "12 solved" in shown and "Value of leading" in shown and "Card worth" in shown
    stats = json.loads(export.read_text())
    assert stats["positions"] == 12 and stats["card_worth"]["AO"]["positions"] == 12
    records = [json.loads(line) for line in out.read_text().splitlines()]
    for record in records[:3]:  # the batch behind the study is solve()'s
        result = solve(record["position"], mode="both", threads=1)
        assert record["equilibrium"] == result.equilibrium
        assert record["guaranteed"] == result.guaranteed
    assert (tmp_path / "study-cards.csv").read_text().startswith("card,positions,")
    assert cli.main(args) == 2  # run again: its exports are there, and need --force
    assert "give --force to replace" in capsys.readouterr().err
    assert cli.main([*args, "--force"]) == 0  # nothing new to solve, the same statistics
    assert "0 solved" in capsys.readouterr().out and json.loads(export.read_text()) == stats
    assert cli.main(["study", "--hold", "4:AO", "--out", str(out)]) == 2


def test_plots(tmp_path):
    pytest.importorskip("matplotlib")
    from analysis.study import plot_study

    a = Position.parse(".A.. 2... 3... 0 -")
    records = [
        {
            "line": 1,
            "position": str(a),
            "guaranteed": [1, 0, 0],
            "equilibrium": [1, 0, 0],
            "exact": True,
        }
    ]
    paths = plot_study(aggregate(records), str(tmp_path / "s"))
    assert paths == [str(tmp_path / "s-histograms.png"), str(tmp_path / "s-seats.png")]
    for path in paths:
        assert open(path, "rb").read(8) == b"\x89PNG\r\n\x1a\n"
