"""The hint and match commands (coins.play_commands), run through their own parser.

Expected values: the open-hand solver (the hint's context column, and the
hint's means on a view that admits one deal) and the bookkeeping of a
duplicate match (every deal played once per rotation: 12 points a hand).
"""

from __future__ import annotations

import argparse
import json

import pytest

from analysis.arena import duplicate
from coins import play_commands
from solver.maxn import solve_maxn


def run(argv, capsys):
    parser = argparse.ArgumentParser(prog="coins")
    commands = parser.add_subparsers(required=True)
    play_commands.register(commands)
    args = parser.parse_args(argv)
    args.run(args)
    return capsys.readouterr().out


ENDING = "J9.J4..52 .K75.6.N8 A753.8.5. 0 -"  # README: a six-card ending


def test_hint_json_on_a_full_position_shows_the_open_hand_values(capsys):
    out = json.loads(run(["hint", ENDING, "--seed", "1", "--samples", "5", "--json"], capsys))
    truth = solve_maxn(ENDING, line=False).card_results
    assert {c["card"] for c in out["cards"]} == {str(c) for c in truth}
    for entry in out["cards"]:
        assert entry["open_hand"] == next(v[0] for c, v in truth.items() if str(c) == entry["card"])
    assert out["seat"] == 0 and 1 <= out["samples"] <= 5
    assert out["view"].startswith("J9.J4..52 ? ? 0 -")


def test_hint_table_on_a_view(capsys):
    out = run(["hint", "? KNJ7543.96.AN874.96 ? 0 - | JO", "--samples", "3", "--seed", "2"], capsys)
    assert "Seat 1 to move" in out
    assert "3C" in out


def test_hint_sampler_option(capsys):
    # a full record read as seat 0's view: the other seats have played, so the
    # weighted sampler has something to weigh; the JSON says which one ran
    record = ENDING + " | JO 5O 8O 9C"
    for sampler in ("uniform", "weighted"):
        argv = ["hint", record, "--samples", "4", "--seed", "1", "--sampler", sampler, "--json"]
        out = json.loads(run(argv, capsys))
        assert out["sampler"] == sampler and out["samples"] == 4
        assert 1 <= out["effective_samples"] <= 4
    with pytest.raises(SystemExit):
        run(["hint", record, "--sampler", "clever"], capsys)


def test_match_json(capsys):
    out = json.loads(
        run(["match", "--seats", "greedy", "random", "random", "--hands", "4", "--seed", "3",
             "--json"], capsys)  # fmt: skip
    )
    assert out["hands"] == 12 and out["deals"] == 4
    assert [s["bot"] for s in out["scores"]] == ["greedy", "random", "random"]
    # every hand gives out 12 points
    assert sum(s["mean"] for s in out["scores"]) == pytest.approx(12)


def test_duplicate_is_seeded_and_balanced():
    first = duplicate(["greedy", "random", "random"], 5, seed=9)
    again = duplicate(["greedy", "random", "random"], 5, seed=9)
    assert first.per_deal == again.per_deal
    for deal in range(5):
        assert sum(first.per_deal[b][deal] for b in range(3)) == pytest.approx(12)
    # the two random bots' mean is the same bot: over the same deals, seat for seat
    assert first.scores[0].hands == 15


def test_match_with_pimc_runs(capsys):
    out = run(["match", "--seats", "pimc", "greedy", "random", "--hands", "1", "--seed", "1",
               "--pimc-samples", "2", "--pimc-time-limit", "0.02"], capsys)  # fmt: skip
    assert "pimc" in out and "points/hand" in out
