"""The hint, match and play commands (coins.play_commands), run through their own parser.

Expected values: the open-hand solver (the hint's context column, and the
hint's means on a view that admits one deal), the bookkeeping of a
duplicate match (every deal played once per rotation: 12 points a hand), and
for whole matches RULES.md's rules re-derived from the records by
``test_match.check_match``, with wins and points recounted from the matches.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter

import pytest

from analysis.arena import SEATINGS, duplicate, matches
from coins import cli, play_commands
from solver.maxn import solve_maxn
from tests.test_match import check_match


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


# --- whole matches: coins match --target ------------------------------------------------


def test_matches_bookkeeping_on_fixed_seeds():
    """Every match keeps RULES.md's bookkeeping (check_match re-derives it from the
    records), the three seatings of a seed share the first deal and dealer, every
    bot sits every seat equally, and the wins add up to the matches played."""
    result = matches(["greedy", "random", "random"], 4, 12, seed=5)
    assert result.deals == 4 and result.matches == len(result.played) == 12
    seats = Counter()
    recount = [0, 0, 0]
    for seed_index in range(4):
        three = result.played[3 * seed_index : 3 * seed_index + 3]
        assert sorted(seating for seating, _ in three) == sorted(SEATINGS)
        firsts = {(m.first_dealer, m.seed, m.hands[0].record.start) for _, m in three}
        assert len(firsts) == 1, "the seatings of a seed share the first deal and dealer"
        for seating, match in three:
            check_match(match)  # dealers rotate, mid-hand end, one seat at the target
            assert match.target == 12
            for seat, bot in enumerate(seating):
                seats[bot, seat] += 1
            (reached,) = [s for s in range(3) if match.scores[s] >= 12]
            recount[seating[reached]] += 1
    assert all(seats[bot, seat] == 4 for bot in range(3) for seat in range(3))
    assert [score.won for score in result.scores] == recount
    assert sum(score.won for score in result.scores) == result.matches
    assert all(score.matches == 12 for score in result.scores)
    assert result.hands == sum(m.number_of_hands for _, m in result.played)


def test_matches_points_per_hand_and_shares_are_per_seed():
    result = matches(["greedy", "greedy", "random"], 3, 10, seed=8)
    for bot, score in enumerate(result.scores):
        shares, per_hand = [], []
        for seed_index in range(3):
            three = result.played[3 * seed_index : 3 * seed_index + 3]
            hands = sum(m.number_of_hands for _, m in three)
            points = sum(m.scores[seating.index(bot)] for seating, m in three)
            per_hand.append(points / hands)
            shares.append(sum(seating[m.winner] == bot for seating, m in three) / 3)
        assert score.mean == pytest.approx(sum(per_hand) / 3)
        assert score.won_share == pytest.approx(sum(shares) / 3)
        assert score.won_share == pytest.approx(score.won / score.matches)


def test_a_low_target_ends_matches_mid_hand():
    result = matches(["random", "random", "random"], 2, 2, seed=1)
    for _, match in result.played:
        check_match(match)
        assert match.number_of_hands == 1 and not match.hands[0].complete


def test_matches_are_reproducible():
    first = matches(["greedy", "random", "random"], 2, 15, seed=3)
    again = matches(["greedy", "random", "random"], 2, 15, seed=3)
    assert [m for _, m in first.played] == [m for _, m in again.played]


def test_match_target_json(capsys):
    out = json.loads(run(["match", "--seats", "greedy", "random", "random", "--target", "15",
                          "--matches", "3", "--seed", "2", "--json"], capsys))  # fmt: skip
    expected = matches(["greedy", "random", "random"], 3, 15, seed=2)
    assert out["target"] == 15 and out["deals"] == 3 and out["matches"] == 9
    assert [s["matches_won"] for s in out["scores"]] == [s.won for s in expected.scores]
    assert sum(s["matches_won"] for s in out["scores"]) == 9
    for got, score in zip(out["scores"], expected.scores):
        assert got["won_share"] == pytest.approx(score.won_share, abs=1e-4)
        assert got["mean"] == pytest.approx(score.mean, abs=1e-4)
        low, high = got["ci95"]
        assert low < got["mean"] < high


def test_match_target_table(capsys):
    out = run(["match", "--seats", "greedy", "random", "random", "--target", "10",
               "--matches", "2", "--seed", "4"], capsys)  # fmt: skip
    expected = matches(["greedy", "random", "random"], 2, 10, seed=4)
    assert "won" in out and "points/hand" in out
    rows = [line.split() for line in out.splitlines() if line.split()[:1] in (["greedy"], ["random"])]
    assert [int(row[1]) for row in rows] == [s.won for s in expected.scores]
    assert f"2 match seeds x 3 seatings = 6 matches to 10 points ({expected.hands} hands)" in out


@pytest.mark.parametrize(
    "argv, says",
    [
        (["--target", "0"], "the target must be a whole number of points, at least 1, not 0"),
        (["--target", "-4"], "at least 1, not -4"),
        (["--target", "ten"], "argument --target: invalid int value: 'ten'"),
        (["--target", "15", "--hands", "3"], "give the number of matches with --matches M"),
        (["--matches", "3"], "give the target score with --target T"),
        (["--target", "15", "--matches", "0"], "matches must be a positive whole number"),
    ],
)
def test_match_bad_target_exits_2_with_one_line(capsys, argv, says):
    status = cli.main(["match", "--seats", "greedy", "random", "random", *argv])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and says in err
