"""The gauntlet's parts: seatings, paired scores, the frozen deals, the pool's players,
the incumbent's protocol, and a tiny run."""

import itertools
import json
import random
import sys
from collections import Counter
from types import SimpleNamespace

import pytest

from analysis.arena import duplicate
from analysis.bots import greedy_bot, random_bot
from analysis.hint import hint
from benchmarks import gauntlet
from benchmarks.incumbent import IncumbentBot, IncumbentError
from benchmarks.pool import (
    POOL,
    BestResponder,
    NoisyGreedyBot,
    greedy_preference,
    members,
)
from solver import Position, Record
from solver.match import Hand
from solver.playouts import greedy_card


def test_three_different_bots_sit_in_all_six_seatings():
    found = gauntlet.seatings(("a", "b", "c"))
    assert sorted(found) == sorted(itertools.permutations(range(3)))
    for bot in range(3):  # each bot sits each seat twice
        assert Counter(seating.index(bot) for seating in found) == {0: 2, 1: 2, 2: 2}


@pytest.mark.parametrize("lineup", [("c", "m", "m"), ("c", "c", "m")])
def test_two_copies_sit_in_the_three_rotations(lineup):
    found = gauntlet.seatings(lineup)
    arrangements = {tuple(lineup[b] for b in seating) for seating in found}
    assert len(found) == len(arrangements) == 3
    single = next(b for b in range(3) if lineup.count(lineup[b]) == 1)
    assert sorted(seating.index(single) for seating in found) == [0, 1, 2]


def test_one_bot_three_times_is_one_seating():
    assert len(gauntlet.seatings(("x", "x", "x"))) == 1


def test_excess_and_interval_by_hand():
    """Copies are averaged deal by deal, the fair share taken off, and the interval
    is 1.959964 standard errors of the deals' values."""
    result = SimpleNamespace(deals=4, per_deal=[[5, 3, 6, 4], [5, 3, 8, 2], [2, 6, 1, 6]])
    excess = gauntlet.excess_by_deal(result, ("c", "c", "m"), "c")
    assert excess == [1.0, -1.0, 3.0, -1.0]
    single = gauntlet.excess_by_deal(result, ("c", "m", "m"), "c")
    assert single == [1.0, -1.0, 2.0, 0.0]
    score = gauntlet.Score.of(single)  # mean 0.5; variance (0.25+2.25+2.25+0.25)/3 = 5/3
    half = 1.959964 * (5 / 3) ** 0.5 / 2
    assert score.mean == pytest.approx(0.5)
    assert (score.low, score.high) == pytest.approx((0.5 - half, 0.5 + half))
    assert gauntlet.Score.of([1.0]).to_json()["ci95"] is None


def test_seed_sets_are_disjoint_and_deal_different_hands():
    sets = json.loads(gauntlet.SEEDS.read_text())
    tune, report = sets["tune"], sets["report"]
    assert not set(tune) & set(report)
    assert len(set(tune)) == len(tune) and len(set(report)) == len(report)

    def deal(seed):
        source = random.Random(seed)
        deal_seed, dealer = source.getrandbits(64), source.randrange(3)
        return Hand([greedy_bot] * 3, dealer, seed=deal_seed).play().record.start

    assert not {str(deal(s)) for s in tune} & {str(deal(s)) for s in report}


def test_frozen_seeds_replay_the_deals_of_a_one_deal_run():
    players = [random_bot] * 3
    one = duplicate(["a", "b", "c"], 1, seed=11, players=players)
    frozen = duplicate(["a", "b", "c"], 5, players=players, deal_seeds=[11])
    assert frozen.deals == 1
    assert frozen.per_deal == one.per_deal


def test_the_tune_set_never_reports_into_the_results(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the tune set was played into the report's file")

    monkeypatch.setattr(gauntlet, "run", refuse)
    with pytest.raises(SystemExit):
        gauntlet.main(["--tune", "--output", str(gauntlet.RESULTS)])


def test_the_pool_names_are_unique_and_unknown_ones_refused():
    names = [member.name for member in POOL]
    assert len(set(names)) == len(names)
    with pytest.raises(ValueError, match="not in the pool"):
        members(["greedy", "nobody"])


def test_greedy_preference_starts_with_greedy_and_orders_every_card():
    position = Position.random(7, cards=8)
    hand = position.hands[0]
    order = greedy_preference(hand, ())
    assert order[0] == greedy_card(hand, ())
    assert sum(1 << card for card in order) == hand and len(order) == 8


def test_noisy_greedy_is_greedy_when_cold_and_not_when_hot():
    position = Position.random(8, cards=10)
    greedy = greedy_bot(position, 0, random.Random(0))
    cold, hot = NoisyGreedyBot(0.01), NoisyGreedyBot(100.0)
    rng = random.Random(1)
    assert {cold(position, 0, rng) for _ in range(50)} == {greedy}
    assert len({hot(position, 0, rng) for _ in range(50)}) > 3


def test_best_responder_takes_what_greedy_leaves():
    """Last to play with two greedy opponents, the responder knows the trick's
    outcome: it wins the Coins on the table when it can."""
    position = Position.parse("9.A.. ..5. ...4 1 2O,KC")  # seat 0 plays last
    card = BestResponder(greedy_bot, samples=2).choose(position, 0, random.Random(0))
    assert str(card) == "AO"


def test_incumbent_protocol_round_trip():
    """The server, run here with this Python, answers as the hint does in-process
    with the same seed and budget; a view it cannot read is an error."""
    view = Record.parse("? KNJ7543.96.AN874.96 ? 0 - | JO")
    bot = IncumbentBot(4, 0, seed=3, python=sys.executable)
    try:
        expected = hint(view, 4, 0, rng=random.Random(3))[0].card
        assert bot.ask(view) == expected
        with pytest.raises(IncumbentError, match="refused"):
            bot.ask(Record.parse("? KNJ7543.96.AN874.96 ? 0 -"))
    finally:
        bot.close()


def test_a_tiny_gauntlet(tmp_path):
    output = tmp_path / "gauntlet.json"
    report = gauntlet.main(
        ["--members", "random,greedy", "--probe", "greedy", "--deals", "1"]
        + ["--samples", "1", "--time-limit", "0.01", "--probe-samples", "1"]
        + ["--output", str(output)]
    )
    assert json.loads(output.read_text()) == report
    assert (tmp_path / "gauntlet.png").exists()
    assert [row["lineup"] for row in report["lineups"]] == [
        ["candidate", "random", "random"],
        ["candidate", "candidate", "random"],
        ["candidate", "greedy", "greedy"],
        ["candidate", "candidate", "greedy"],
    ]
    assert all(row["hands"] == 3 for row in report["lineups"])
    excess = [row["excess_by_deal"][0] for row in report["lineups"]]
    assert report["pool_mean"]["mean"] == pytest.approx(sum(excess) / 4, abs=1e-3)
    worst = min(report["lineups"], key=lambda row: row["excess"]["mean"])
    assert report["worst"]["lineup"] == worst["lineup"]
    probe = report["probe"]["lineups"][0]
    assert probe["lineup"] == ["responder", "greedy", "greedy"] and probe["hands"] == 3


def test_a_single_line_up_gauntlet_with_the_candidates_settings(tmp_path, capsys):
    output = tmp_path / "gauntlet.json"
    report = gauntlet.main(
        ["--members", "greedy", "--probe", "", "--deals", "1", "--single", "--samples", "2"]
        + ["--time-limit", "0", "--sampler", "model", "--opponents", "model", "--threads", "1"]
        + ["--output", str(output)]
    )
    assert [row["lineup"] for row in report["lineups"]] == [["candidate", "greedy", "greedy"]]
    assert report["candidate"] | {"bot": None} == {
        "bot": None,
        "samples": 2,
        "time_limit": 0.0,
        "sampler": "model",
        "opponents": "model",
        "threads": 1,
    }
    assert "greedy" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        gauntlet.main(["--opponents", "clever", "--output", str(output)])


def test_the_probe_of_the_candidate_itself(tmp_path):
    output = tmp_path / "gauntlet.json"
    report = gauntlet.main(
        ["--members", "random", "--single", "--probe", "candidate", "--deals", "1"]
        + ["--samples", "1", "--time-limit", "0", "--probe-samples", "1"]
        + ["--output", str(output)]
    )
    (probe,) = report["probe"]["lineups"]
    assert probe["lineup"] == ["responder", "candidate", "candidate"] and probe["hands"] == 3
    assert probe["model_tricks"] == 0
    with pytest.raises(SystemExit):
        gauntlet.main(["--probe", "candidate,clever", "--output", str(output)])


def test_the_probe_alone(tmp_path, capsys):
    output = tmp_path / "gauntlet.json"
    report = gauntlet.main(
        ["--members", "", "--probe", "greedy", "--deals", "1", "--probe-samples", "1"]
        + ["--output", str(output)]
    )
    assert report["lineups"] == [] and report["pool_mean"] is None and report["worst"] is None
    (probe,) = report["probe"]["lineups"]
    assert probe["lineup"] == ["responder", "greedy", "greedy"] and probe["hands"] == 3
    assert "best responder beside two greedy" in capsys.readouterr().out
    assert (tmp_path / "gauntlet.png").exists()


def test_a_run_split_by_deals_combines_into_the_whole_run(tmp_path):
    common = ["--members", "greedy", "--single", "--probe", "", "--samples", "1"]
    common += ["--time-limit", "0", "--tune"]
    whole = gauntlet.main(common + ["--deals", "2", "--output", str(tmp_path / "whole.json")])
    parts = []
    for skip in (1, 0):  # out of order: the combined deals follow the set's order
        path = tmp_path / f"part{skip}.json"
        gauntlet.main(common + ["--skip", str(skip), "--deals", "1", "--output", str(path)])
        parts.append(str(path))
    combined = gauntlet.main(["--combine", *parts, "--output", str(tmp_path / "both.json")])
    assert combined["deal_seeds"] == whole["deal_seeds"] == gauntlet.deal_seeds("tune")[:2]
    assert combined["lineups"][0]["excess_by_deal"] == whole["lineups"][0]["excess_by_deal"]
    assert combined["pool_mean"] == whole["pool_mean"]
    assert combined["lineups"][0]["hands"] == whole["lineups"][0]["hands"] == 6
    assert (tmp_path / "both.png").exists()


def _report(deal_set="report", seeds=(1, 2), lineups=(("candidate", "a", "a"),), bot="hint"):
    rows = [
        {
            "lineup": list(names),
            "hands": 3 * len(seeds),
            "seconds": 1.0,
            "seconds_per_move": {"candidate": 0.1},
            "excess": {"mean": 0.0, "ci95": None},
            "excess_by_deal": [0.5] * len(seeds),
        }
        for names in lineups
    ]
    return {
        "machine": {"commit": "abc"},
        "candidate": {"bot": bot},
        "deal_set": deal_set,
        "double": False,
        "fair_share": 4.0,
        "incumbent_commit": "x",
        "deal_seeds": list(seeds),
        "pool": [{"name": names[1]} for names in lineups],
        "left_out": [],
        "lineups": rows,
        "probe": {"deals": 0, "lineups": []},
    }


def test_combining_refuses_reports_that_do_not_fit(monkeypatch, tmp_path):
    monkeypatch.setattr(gauntlet, "deal_seeds", lambda which: [1, 2, 3, 4])
    joined = gauntlet.combine([_report(seeds=(3,)), _report(seeds=(1, 2))], ["a", "b"])
    assert joined["deal_seeds"] == [1, 2, 3] and joined["lineups"][0]["hands"] == 9
    with pytest.raises(ValueError, match="candidate"):
        gauntlet.combine([_report(), _report(seeds=(3,), bot="greedy")], ["a", "b"])
    with pytest.raises(ValueError, match="deal in two reports"):
        gauntlet.combine([_report(), _report(seeds=(2, 3))], ["a", "b"])
    other = _report(seeds=(3,), lineups=(("candidate", "b", "b"),))
    with pytest.raises(ValueError, match="has 2 of the 3 deals"):
        gauntlet.combine([_report(), other], ["a", "b"])
    path = tmp_path / "not_a_report.json"
    path.write_text("{}")
    for argv in (["--combine", str(path)], ["--combine", str(path), "--output", str(path)]):
        with pytest.raises(SystemExit):
            gauntlet.main(argv)
    with pytest.raises(SystemExit):
        gauntlet.main(["--skip", "1000", "--output", str(tmp_path / "none.json")])


def test_two_reports_paired_deal_by_deal(tmp_path, capsys):
    new = _report(seeds=(1, 2), lineups=(("candidate", "a", "a"), ("candidate", "b", "b")))
    old = _report(seeds=(1, 2), lineups=(("candidate", "a", "a"),), bot="incumbent")
    new["lineups"][0]["excess_by_deal"] = [1.0, 0.0]
    old["lineups"][0]["excess_by_deal"] = [0.5, 0.5]
    difference = gauntlet.paired(new, old)
    (row,) = difference["lineups"]
    assert row["difference_by_deal"] == [0.5, -0.5] and row["difference"]["mean"] == 0.0
    assert difference["pool_mean"]["difference"]["mean"] == 0.0
    assert difference["pool_mean"]["new"]["mean"] == 0.5
    assert difference["left_out"] == [["candidate", "b", "b"]]
    with pytest.raises(ValueError, match="different deals"):
        gauntlet.paired(new, _report(seeds=(1, 3)))
    paths = [tmp_path / "new.json", tmp_path / "old.json"]
    for path, report in zip(paths, (new, old)):
        path.write_text(json.dumps(report))
    saved = tmp_path / "difference.json"
    gauntlet.main(["--compare", *map(str, paths), "--output", str(saved)])
    assert json.loads(saved.read_text())["lineups"][0]["difference_by_deal"] == [0.5, -0.5]
    out = capsys.readouterr().out
    assert "beside two a" in out and "in one report only, left out: candidate b b" in out
    with pytest.raises(SystemExit):
        gauntlet.main(["--compare", str(paths[0]), str(tmp_path / "missing.json")])
