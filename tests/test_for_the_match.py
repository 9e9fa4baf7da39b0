"""Playing for the match above the solver: the estimate, hints, bots, matches from
given scores, analyses and reviews, and the command line.

Expected values come from ``solver.match_values.solve_match``, itself held to its
naive twin in tests/test_match_values.py, and from RULES.md's match rules.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from test_match import check_match

from analysis import analyze, hint, matches, review
from analysis.bots import make_bot
from analysis.estimate import estimate
from coins import cli, notice
from solver import Card, CoinsError, MatchState, Position, Record, solve_match
from solver.match import Hand, Match, MatchError, random_player
from solver.sampling import resample_position

README_POSITION = "J9.J4..52 .K75.6.N8 A753.8.5. 0 -"
SURE_COIN = (
    ".N.2.6 .6..9 .A..J 1 KO,5C"  # seat 0 wins the match with 6B (tests/test_match_values.py)
)
LATE = MatchState(15, (13, 10, 7))


def test_estimate_within_reach_is_the_exact_chances():
    found = estimate(README_POSITION, 5.0, match=LATE)
    exact = solve_match(README_POSITION, 15, (13, 10, 7))
    assert found.exact and found.depth is None and found.match == LATE
    assert {c: list(v) for c, v in found.card_results.items()} == exact.card_chances
    assert found.best == exact.best == Card.parse("4O")
    assert found.to_json()["match"] == {"target": 15, "scores": [13, 10, 7]}


def test_estimate_beyond_reach_gives_chances():
    deal = Position.random(48, 16)
    found = estimate(deal, 0.5, match=LATE)
    assert not found.exact and found.depth >= 1
    assert set(found.card_results) == set(deal.legal_cards())
    for chances in found.card_results.values():
        assert all(0 <= c <= 1 for c in chances) and abs(sum(chances) - 1) < 1e-6


def test_hint_for_a_match_averages_the_exact_chances_of_its_deals():
    """Given deals of four cards a hand are each solved exactly; the hint's mean
    is the mean of the mover's chances over them, and its points those of max^n."""
    rng = random.Random(7)
    seen = Position.random(rng, 4, 1)  # seat 1 leads; the others' cards dealt again
    deals = [resample_position(seen, 1, rng) for _ in range(6)]
    result = hint(None, len(deals), 0, seed=1, deals=deals, match=LATE, points=True)
    assert result.exact == len(deals) and result.match == LATE
    solved = [solve_match(d, 15, (13, 10, 7)).card_chances for d in deals]
    for entry in result:
        if entry.samples == len(deals):
            expected = np.mean([s[entry.card][1] for s in solved])
            assert entry.mean == pytest.approx(expected, abs=1e-12)
            assert entry.points is not None
    assert "points" in result.to_json()["cards"][0]


def test_hint_for_a_match_refuses_paranoid_mode():
    with pytest.raises(CoinsError, match="mode must be maxn"):
        hint(README_POSITION, 2, 0, mode="paranoid", match=LATE)


def test_pimc_plays_for_the_match_and_pimc_points_for_points():
    record = Record.parse(SURE_COIN + " |")
    options = {"samples": 8, "time_limit": 0}
    match = MatchState(15, (14, 5, 5))
    pimc, points = make_bot("pimc", **options), make_bot("pimc-points", **options)
    assert pimc.for_match and not points.for_match
    assert pimc.choose_for_match(record, 0, random.Random(1), match) == Card.parse("6B")
    # without the match the same bot plays the card of most points over its deals
    by_points = points.choose_for_match(record, 0, random.Random(1), match)
    assert by_points == pimc.choose_record(record, 0, random.Random(1))


def test_pimc_for_the_match_does_not_look_at_the_hidden_hands():
    """The same view (own hand, trick, taken) and stream give the same card,
    whatever the other two hands hold."""
    bot = make_bot("pimc", samples=4, time_limit=0)
    rng = random.Random(5)
    for _ in range(30):
        position = Position.random(rng, rng.randrange(2, 17), rng.randrange(3))
        for _ in range(rng.randrange(3)):
            position = position.play(rng.choice(position.legal_cards()))
        seat = position.to_move
        other = resample_position(position, seat, random.Random(1))
        match = MatchState(15, tuple(rng.randrange(3, 15) for _ in range(3)))
        cards = [
            bot.choose_for_match(Record.parse(f"{shown} |"), seat, random.Random(9), match)
            for shown in (position, other)
        ]
        assert cards[0] == cards[1]


class Spy:
    """A player that records what a hand of a match tells it."""

    def __init__(self):
        self.seen = []

    def choose(self, position, seat, rng):
        return position.legal_cards()[0]

    def choose_for_match(self, record, seat, rng, match):
        self.seen.append((record.final.taken, match))
        return record.final.legal_cards()[0]


def test_hands_of_a_match_tell_players_the_match():
    spy = Spy()
    Hand([spy, random_player, random_player], 0, seed=3, scores=(4, 5, 6), target=20).play()
    assert spy.seen and all(match == MatchState(20, (4, 5, 6)) for _, match in spy.seen)
    spy = Spy()
    Hand([spy, random_player, random_player], 0, seed=3).play()  # no target: choose
    assert not spy.seen


def test_a_match_from_start_scores():
    result = Match([random_player] * 3, 15, 1, seed=5, start_scores=(13, 10, 7)).play()
    assert result.start_scores == (13, 10, 7) and result.hands[0].scores[0] >= 13
    check_match(result)
    with pytest.raises(MatchError, match="the match is over"):
        Match([random_player] * 3, 15, seed=5, start_scores=(15, 0, 0))


def test_matches_from_start_scores_seat_every_bot_at_every_score():
    result = matches(["greedy", "random", "random"], 3, 15, seed=2, start_scores=(13, 10, 7))
    assert result.start_scores == (13, 10, 7)
    for _, played in result.played:
        assert played.start_scores == (13, 10, 7)
        check_match(played)
    greedy_seats = {seating.index(0) for seating, _ in result.played}
    assert greedy_seats == {0, 1, 2}  # greedy started from 13, from 10 and from 7
    assert result.to_json()["start_scores"] == [13, 10, 7]

    drawn = matches(
        ["greedy", "random", "random"],
        3,
        15,
        seed=2,
        start_scores=lambda rng: [rng.randint(8, 14) for _ in range(3)],
    )
    starts = [played.start_scores for _, played in drawn.played]
    assert starts[0] == starts[1] == starts[2] and len(set(starts)) > 1
    assert all(8 <= s <= 14 for start in starts for s in start)
    assert drawn.start_scores is None


def test_analyze_follows_the_match_line_to_the_end_of_the_match():
    report = analyze(README_POSITION, match=LATE)
    exact = solve_match(README_POSITION, 15, (13, 10, 7))
    assert report.exact and report.chances == exact.chances
    assert report.line == exact.line
    first = report.decisions[0]
    assert first.played == Card.parse("4O") and first.chances == exact.chances
    assert {c.card: c.chances for c in first.cards} == exact.card_chances
    assert [c.card for c in first.cards if c.match_choice] == [first.played]
    assert report.to_json()["scores"] == [13, 10, 7]
    # a match that ends in the hand stops the line there
    short = analyze(SURE_COIN, match=MatchState(15, (14, 5, 5)))
    assert [str(d.played) for d in short.decisions] == ["6B"]


def test_review_costs_in_chances_of_winning():
    record = f"{README_POSITION} | 9C 5O AC 3C"
    found = review(record, match=LATE)
    first = found.moves[0]
    exact = solve_match(README_POSITION, 15, (13, 10, 7))
    assert first.best_chance == exact.chances[0]
    assert first.match_cost == pytest.approx(
        exact.chances[0] - exact.card_chances[Card.parse("9C")][0]
    )
    assert first.match_best == [Card.parse("4O")] and first.match_cost > 0.05
    assert found.summary[0].biggest_match is first
    # once the target is reached the match is over: no chances after that card
    over = review(f"{SURE_COIN} | 6B 2S 9B", match=MatchState(15, (14, 5, 5)))
    assert over.moves[0].match_cost == 0.0
    assert [m.chances for m in over.moves[1:]] == [None, None]
    with pytest.raises(MatchError):
        review(record, match=MatchState(15, (15, 0, 0)))


@pytest.fixture
def run(capsys, monkeypatch):
    monkeypatch.setattr(notice, "is_compiled", lambda: True)

    def run(*argv):
        status = cli.main(list(argv))
        out, err = capsys.readouterr()
        return status, out, err

    return run


def test_solve_command_gives_the_chances(run):
    status, out, _ = run(
        "solve", README_POSITION, "--target", "15", "--scores", "13,10,7", "--json"
    )
    assert status == 0
    match = json.loads(out)["match"]
    assert match["best"] == "4O" and match["scores"] == [13, 10, 7]
    assert match["chances"] == pytest.approx([0.77961, 0.18541, 0.03498], abs=1e-5)
    status, out, _ = run("solve", README_POSITION, "--target", "15", "--scores", "13,10,7")
    assert "4O 78.0-18.5-3.5 *" in out and "Match line" in out


def test_match_command_from_start_scores(run):
    status, out, _ = run(
        "match",
        "--seats",
        "greedy",
        "random",
        "random",
        "--target",
        "15",
        "--start-scores",
        "13,10,7",
        "--matches",
        "2",
        "--seed",
        "1",
        "--json",
    )
    assert status == 0 and json.loads(out)["start_scores"] == [13, 10, 7]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["solve", README_POSITION, "--scores", "1,2,3"], "give the match's --target"),
        (["solve", README_POSITION, "--target", "15", "--scores", "15,0,0"], "the match is over"),
        (["hint", README_POSITION, "--target", "15", "--mode", "paranoid"], "mode must be maxn"),
        (["match", "--start-scores", "1,2,3"], "give their target"),
    ],
)
def test_match_options_that_do_not_fit_are_refused(run, argv, message):
    status, _, err = run(*argv)
    assert status == 2 and message in err and len(err.splitlines()) == 1
