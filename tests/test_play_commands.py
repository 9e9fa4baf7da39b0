"""The hint, match and play commands (coins.play_commands), run through their own parser.

Expected values: the open-hand solver (the hint's context column, and the
hint's means on a view that admits one deal), the bookkeeping of a
duplicate match (every deal played once per rotation: 12 points a hand), and
for whole matches (``coins match --target`` and the ``coins play`` game)
RULES.md's rules re-derived from the records by ``test_match.check_match``,
with wins, points and the user's cards recounted from the records.
"""

from __future__ import annotations

import io
import json
import os
import pty
import re
import select
import signal
import subprocess
import sys
import termios
import time
from collections import Counter
from pathlib import Path

import pytest
from rich.console import Console

from analysis import hint
from analysis.arena import SEATINGS, duplicate, matches
from analysis.hint import HintEntry
from coins import cli, render
from coins import game as game_module
from coins.game import TerminalGame
from solver import MatchState
from solver.cards import FULL_DECK, Card, cards_in
from solver.maxn import solve_maxn
from tests.test_match import check_match, replay_tricks

REPO = Path(__file__).resolve().parents[1]


def run(argv, capsys):
    args = cli.build_parser().parse_args(argv)
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
        run(
            [
                "match",
                "--seats",
                "greedy",
                "random",
                "random",
                "--hands",
                "4",
                "--seed",
                "3",
                "--json",
            ],
            capsys,
        )
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
    out = run(
        [
            "match",
            "--seats",
            "pimc",
            "greedy",
            "random",
            "--hands",
            "1",
            "--seed",
            "1",
            "--pimc-samples",
            "2",
            "--pimc-time-limit",
            "0.02",
        ],
        capsys,
    )
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
        if len(set(shares)) > 1:
            low, high = score.won_ci
            assert 0 <= low < score.won_share < high <= 1
        else:  # no spread over the seeds: no interval
            assert score.won_ci is None


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
    out = json.loads(
        run(
            [
                "match",
                "--seats",
                "greedy",
                "random",
                "random",
                "--target",
                "15",
                "--matches",
                "3",
                "--seed",
                "2",
                "--json",
            ],
            capsys,
        )
    )
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
    out = run(
        [
            "match",
            "--seats",
            "greedy",
            "random",
            "random",
            "--target",
            "10",
            "--matches",
            "2",
            "--seed",
            "4",
        ],
        capsys,
    )
    expected = matches(["greedy", "random", "random"], 2, 10, seed=4)
    assert "won" in out and "points/hand" in out
    rows = [
        line.split() for line in out.splitlines() if line.split()[:1] in (["greedy"], ["random"])
    ]
    assert [int(row[1]) for row in rows] == [s.won for s in expected.scores]
    assert f"2 match seeds x 3 seatings = 6 matches to 10 points ({expected.hands} hands)" in out


@pytest.mark.parametrize(
    "argv, says",
    [
        (["--target", "0"], "argument --target: the target must be 1 to 10,000, not 0"),
        (["--target", "-4"], "the target must be 1 to 10,000, not -4"),
        (["--target", "ten"], "argument --target: the target must be a whole number, not 'ten'"),
        (["--target", "15", "--hands", "3"], "count matches with --matches M, not --hands"),
        (["--matches", "3"], "give their target with --target T"),
        (["--target", "15", "--matches", "0"], "the number of matches must be 1 to 10^6, not 0"),
    ],
)
def test_match_bad_target_exits_2_with_one_line(capsys, argv, says):
    status = cli.main(["match", "--seats", "greedy", "random", "random", *argv])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and says in err


# --- the terminal game: coins play --------------------------------------------------------


FAST_HINT = {"samples": 2, "time_limit": 0, "rollouts": 1}


class Script:
    """Scripted input for a TerminalGame: each answer is text or a function of the
    position at the user's turn; when the answers run out, the first legal card
    (or the end of input, with ``then_eof``)."""

    def __init__(self, *answers, then_eof=False):
        self.answers = list(answers)
        self.then_eof = then_eof
        self.game = None

    def __call__(self):
        if self.answers:
            answer = self.answers.pop(0)
            return (answer(self.game.position) if callable(answer) else answer) + "\n"
        if self.then_eof:
            return ""
        return f"{self.game.position.legal_cards()[0]}\n"


def new_game(script, **settings):
    out = io.StringIO()
    settings = {"bots": ("greedy", "random"), "seed": 4, "hint_options": FAST_HINT} | settings
    game = TerminalGame(
        Console(file=out, width=200, color_system=None), script, echo=True, **settings
    )
    script.game = game
    return game, out


def user_moves(result, seat):
    """The cards ``seat`` played in a match, from the records."""
    return [
        card
        for hand in result.hands
        for position, card in zip(hand.record.positions(), hand.record.moves)
        if position.to_move == seat
    ]


@pytest.mark.parametrize("seat", [0, 2])
def test_a_scripted_match_plays_the_cards_typed_to_the_end(seat):
    typed = []

    def first_legal(position):
        typed.append(position.legal_cards()[-1])  # typed in lower case every other turn
        return str(typed[-1]).lower() if len(typed) % 2 else str(typed[-1])

    script = Script(*([first_legal] * 200))
    game, out = new_game(script, seat=seat, target=15)
    result = game.play()
    check_match(result)  # the rules, and the end at the target
    assert result.target == 15 and max(result.scores) >= 15
    text = out.getvalue()
    assert user_moves(result, seat) == game.played
    assert text.count("Your card: ") == len(typed)
    # the user's last card of a hand is played without asking: the rest were typed
    last_cards = [Card.parse(c) for c in re.findall(r"You play your last card, (\w+)\.", text)]
    assert last_cards and len(game.played) == len(typed) + len(last_cards)
    rest = list(game.played)
    for card in last_cards:
        rest.remove(card)
    assert rest == typed
    per_hand = [
        [
            c
            for position, c in zip(hand.record.positions(), hand.record.moves)
            if position.to_move == seat
        ]
        for hand in result.hands
    ]
    assert last_cards == [cards[-1] for cards in per_hand if len(cards) == 16]
    for hand in result.hands:
        points = ", ".join(f"{game.labels[s]} {hand.points[s]}" for s in range(3))
        assert f"Hand {hand.number} " in text and f"points this hand {points};" in text
    scores = ", ".join(f"{game.labels[s]} {result.scores[s]}" for s in range(3))
    assert text.rstrip().endswith(f"the match, {scores}, after {result.number_of_hands} hand(s).")
    assert game.names[result.winner].capitalize() in text.splitlines()[-1]


def test_the_output_shows_the_trick_as_it_forms_and_who_won_it():
    game, out = new_game(Script(), seat=1, target=15, seed=2)
    result = game.play()
    text = out.getvalue()
    record = result.hands[0].record
    trick_one = record.moves[:3]
    leader = record.leader
    names = [game.names[(leader + i) % 3] for i in range(3)]
    on_table = ", ".join(f"{names[i]} {trick_one[i]}" for i in range((1 - leader) % 3))
    if on_table:
        assert f"On the table: {on_table}." in text
    else:
        assert "You lead." in text
    winner, points = replay_tricks(leader, list(record.moves))[0]
    cards = ", ".join(f"{names[i]} {trick_one[i]}" for i in range(3))
    coins = f"{points} Coin{'' if points == 1 else 's'}"
    assert f"Trick 1: {cards} - {game.names[winner]} win" in text and f"it, {coins}." in text
    assert "Score random 0, you 0, greedy 0" in text  # seat order: seat 0 holds random
    # at each of the user's turns: the match score and, in brackets, this hand's Coins
    for hand in result.hands:
        scores = [b - p for b, p in zip(hand.scores, hand.points)]
        for position in list(hand.record.positions())[:-1]:
            if position.to_move == 1:
                line = ", ".join(
                    f"{game.labels[s]} {scores[s] + position.taken[s]} ({position.taken[s]})"
                    for s in range(3)
                )
                trick = (48 - sum(h.bit_count() for h in position.hands)) // 3 + 1
                assert f"Hand {hand.number}, trick {trick}. Score (this hand): {line}." in text


def test_unknown_and_unheld_cards_are_rejected_and_asked_again():
    def not_held(position):
        return str(cards_in(FULL_DECK & ~position.hands[0])[0])

    def held(position):
        return str(position.legal_cards()[3])

    script = Script("ZZ", "", "10O", not_held, held, "quit")
    game, out = new_game(script)
    assert game.play() is None
    text = out.getvalue()
    assert text.count("Your card: ") == 6
    assert '"ZZ" is not a card' in text and '"10O" is not a card' in text
    assert text.count("is not a card") == 3
    assert "You do not hold" in text
    assert len(game.played) == 1
    assert "You left the game." in text


def test_quit_leaves_at_once():
    script = Script("quit", "AO", "AO")
    game, out = new_game(script)
    assert game.play() is None
    assert game.played == [] and script.answers == ["AO", "AO"]
    assert out.getvalue().rstrip().endswith("You left the game. Score you 0, greedy 0, random 0.")


def test_end_of_input_leaves_cleanly():
    game, out = new_game(Script("hint", then_eof=True))
    assert game.play() is None
    assert "End of input: you left the game." in out.getvalue()


def test_hint_ranks_the_users_cards_from_the_view(monkeypatch):
    """hint (and ?) show analysis.hint's table, computed on the user's view: the
    record of the hand so far with the other two hands hidden, for the match
    (the target, the scores when the hand began), with the points beside."""
    views = []

    def spy(view, **options):
        views.append(view)
        assert options["match"] == MatchState(game.match.target, game.hand_scores)
        assert options["points"]
        return real_hint(view, **options)

    real_hint = game_module.hint
    monkeypatch.setattr(game_module, "hint", spy)
    script = Script("hint", lambda position: str(position.legal_cards()[0]), "?", "quit")
    game, out = new_game(script, seat=1)
    game.play()
    text = out.getvalue()
    assert len(views) == 2 and text.count("± stderr") == 2
    for view in views:
        assert view.is_view and view.hidden == (0, 2)
        assert view.to_move == 1
    assert game.hand_number == 1 and views[0].hands[1] == game.start.hands[1]
    assert views[1].moves[: len(views[0].moves) + 1] == views[0].moves + (game.played[0],)
    # the first table lists each card of the user's hand once
    first = text.split("Your card: hint")[1].split("win: your chance of winning the match")[0]
    rows = [line.split()[0] for line in first.splitlines()[3:] if line.strip()]
    assert sorted(rows) == sorted(str(c) for c in cards_in(views[0].hands[1]))
    assert len(rows) == len(cards_in(views[0].hands[1])) == 16 - len(views[0].moves) // 3


def test_hints_flag_shows_the_hint_at_every_turn():
    game, out = new_game(Script(), hints=True, target=3)
    game.play()
    assert out.getvalue().count("± stderr") == len(game.played) > 0


def test_a_low_target_ends_the_game_mid_hand():
    game, out = new_game(Script(), target=2, seed=7)
    result = game.play()
    check_match(result)
    assert result.number_of_hands == 1 and not result.hands[0].complete
    text = out.getvalue()
    assert "Hand 1 stopped at the target" in text and "Hand 2" not in text
    assert "wins the match" in text or "You win the match" in text


def test_play_against_pimc():
    game, out = new_game(
        Script(),
        bots=("pimc", "greedy"),
        target=2,
        bot_options={"samples": 2, "time_limit": 0, "rollouts": 1},
    )
    result = game.play()
    check_match(result)
    assert "seat 1 (pimc) plays" in out.getvalue()


def test_play_command_exits_0_at_end_of_input():
    done = subprocess.run(
        [sys.executable, "-m", "coins", "play", "--seed", "1", "--bots", "greedy", "random"],
        input="hint\nquit\n",
        capture_output=True,
        text=True,
        cwd=REPO,
        env=dict(os.environ, NO_COLOR="1"),
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "Your card: hint" in done.stdout and "You left the game." in done.stdout
    eof = subprocess.run(
        [sys.executable, "-m", "coins", "play", "--seed", "1", "--bots", "greedy", "random"],
        input="",
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=300,
    )
    assert eof.returncode == 0 and "End of input: you left the game." in eof.stdout
    assert eof.stderr == ""


@pytest.mark.parametrize(
    "argv, says",
    [
        (["--target", "0"], "the target must be 1 to 10,000, not 0"),
        (["--target", "x"], "argument --target: the target must be a whole number, not 'x'"),
        (["--seat", "3"], "argument --seat: invalid choice: 3"),
        (["--bots", "greedy", "smart"], "argument --bots: invalid choice: 'smart'"),
        (["--bots", "greedy"], "argument --bots: expected 2 arguments"),
    ],
)
def test_play_bad_settings_exit_2_with_one_line(capsys, argv, says):
    status = cli.main(["play", *argv])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and says in err


def test_play_at_a_terminal_edits_lines_with_the_arrow_keys():
    # in a pseudo-terminal, as a person plays: the arrow keys move in the line
    # (readline) instead of echoing ^[[D, and the word typed around them is read whole
    pytest.importorskip("readline", reason="this platform's Python has no readline")
    pid, terminal = pty.fork()
    if pid == 0:  # the child: the game, on the pseudo-terminal
        os.chdir(REPO)
        os.execve(
            sys.executable,
            [sys.executable, "-m", "coins", "play", "--seed", "1", "--bots", "greedy", "random"],
            dict(os.environ, NO_COLOR="1", TERM="xterm"),
        )

    def read_until(text: str, prompts: int = 1) -> str:
        """What the game wrote until ``text``, or until it asked for a card ``prompts`` times."""
        seen = b""
        deadline = time.monotonic() + 300
        while (
            text.encode() not in seen
            and seen.count(b"Your card: ") < prompts
            and time.monotonic() < deadline
        ):
            ready, _, _ = select.select([terminal], [], [], 1)
            if ready:
                try:
                    seen += os.read(terminal, 4096)
                except OSError:  # the game ended: the terminal closed
                    break
        return seen.decode(errors="replace")

    try:
        read_until("Your card: ")
        give_up = time.monotonic() + 120
        while termios.tcgetattr(terminal)[3] & termios.ICANON:  # until readline takes the keys
            assert time.monotonic() < give_up, "the terminal stayed in line mode: no editing"
            time.sleep(0.01)
        os.write(terminal, b"qit\x1b[D\x1b[Du\r")  # "qit", two lefts, "u": "quit"
        out = read_until("You left the game.", prompts=2)
    finally:
        if os.waitpid(pid, os.WNOHANG) == (0, 0):  # still running: the test failed
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(terminal)
    assert "You left the game." in out and "^[[D" not in out


@pytest.mark.parametrize("width", [30, 40, 50, 80])
def test_the_hint_table_fits_a_narrow_terminal_without_cutting_a_figure(width):
    found = hint(
        "876.J8.ANJ864.A8542 ? ? 0 -", 20, 0, seed=1, match=MatchState(15, (0, 0, 0)), points=True
    )
    console = Console(width=width, record=True, no_color=True)
    console.print(render.hint_table(found, match=True, width=width))
    shown = console.export_text()
    assert "…" not in shown and all(len(line) <= width for line in shown.splitlines())
    for entry in found:  # every card with its chance and its points, whole
        assert re.search(rf"{entry.card}\s+{100 * entry.mean:.2f}%", shown)
        assert f"{entry.points:.2f}" in shown
    assert ("deals" in shown) == (width >= 80)  # the first column left out when narrow


def test_a_card_ranked_above_a_higher_mean_is_explained():
    best = HintEntry(Card.parse("AS"), 3.0, 0.1, 0.5, 40)
    dropped = HintEntry(Card.parse("KO"), 3.2, 0.3, 0.1, 8, behind=0.9, tied=False)
    second = HintEntry(Card.parse("2B"), 2.9, 0.1, 0.2, 40, behind=0.1)
    note = render.ranking_note([best, second, dropped]).plain
    assert "KO ranks below AS although its mean is higher" in note and "8 deals" in note
    assert render.ranking_note([best, second]) is None
