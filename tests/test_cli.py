"""The ``coins`` command line: output matches ``solve()``, bad input gives one line and exit 2.

Expected values come from ``solver.solve`` itself: the CLI is a layer over it,
and the solver's own values are checked against the naive twin elsewhere.
"""

import json
import os
import signal
import subprocess
import sys
import time
from contextlib import nullcontext
from pathlib import Path

import pytest

from coins import api, cli, notice, solve_commands
from solver import Position, solve
from solver.maxn import solve_maxn

REPO = Path(__file__).resolve().parents[1]
FULL_DEAL = "982.J8732.K95.AJ542 KNJ7543.96.AN874.96 A6.AKN54.J632.KN873 0 -"  # RULES.md
# a 6-card ending whose card values differ (some cards lose a point)
ENDING = "J9.J4..52 .K75.6.N8 A753.8.5. 0 -"
# mid-trick, with points taken: seat 2 to move
MID_TRICK = "J9.J..52 .K7.6.N8 A753.8.5. 0 4O,5O 0,1,0"


def run(capsys, *argv):
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def run_process(*argv):
    """``python -m coins`` in a child process: the real exit status and streams."""
    env = dict(os.environ, NO_COLOR="1")
    return subprocess.run(
        [sys.executable, "-m", "coins", *argv], capture_output=True, text=True, cwd=REPO, env=env
    )


@pytest.mark.parametrize("text", [ENDING, MID_TRICK])
def test_solve_text_shows_the_values_of_solve(capsys, text):
    expected = solve(text)
    status, out, _ = run(capsys, "solve", text)
    assert status == 0
    seat_rows = [line.split() for line in out.splitlines() if line[:2] in ("0 ", "1 ", "2 ")]
    rows = {words[0]: words for words in seat_rows}
    for seat in range(3):
        assert rows[str(seat)][-1] == str(expected.guaranteed[seat])
    assert rows[str(expected.to_move)][1:3] == ["to", "move"]
    for card, value in expected.card_values.items():
        mark = " *" if card in expected.optimal else ""
        assert f"{card} {value}{mark}" in out
    assert "exact," in out and "not exact" not in out


def test_solve_text_groups_the_line_by_trick(capsys):
    expected = solve(ENDING)
    _, out, _ = run(capsys, "solve", ENDING)
    tricks = [
        line.split() for line in out.splitlines() if line.strip()[:1].isdigit() and ":" in line
    ]
    assert [int(t[0]) for t in tricks] == list(range(1, len(expected.line) // 3 + 1))
    played = [word.split(":")[1] for trick in tricks for word in trick[1:4]]
    assert played == [str(c) for c in expected.line]


def test_solve_json_matches_solve(capsys):
    expected = solve(MID_TRICK).to_json()
    status, out, _ = run(capsys, "solve", MID_TRICK, "--json")
    assert status == 0
    got = json.loads(out)
    assert set(got) == {
        "position",
        "mode",
        "to_move",
        "guaranteed",
        "bounds",
        "card_values",
        "optimal",
        "line",
        "exact",
        "interrupted",
        "nodes",
        "seconds",
    }
    for key in (
        "position",
        "to_move",
        "guaranteed",
        "bounds",
        "card_values",
        "optimal",
        "line",
        "exact",
        "interrupted",
    ):
        assert got[key] == expected[key], key


def test_position_may_be_given_as_separate_words(capsys):
    _, quoted, _ = run(capsys, "solve", ENDING, "--json")
    _, words, _ = run(capsys, "solve", *ENDING.split(), "--json")
    assert json.loads(words)["guaranteed"] == json.loads(quoted)["guaranteed"]


def test_seat_solves_one_seat_and_the_mover_cards(capsys):
    expected = solve(ENDING, seats=(1,))
    _, out, _ = run(capsys, "solve", ENDING, "--seat", "1", "--json")
    got = json.loads(out)
    assert got["guaranteed"] == [None, expected.guaranteed[1], None]
    assert got["card_values"] == {str(c): v for c, v in expected.card_values.items()}


def test_memory_lends_a_fixed_table_of_that_size(capsys, monkeypatch):
    lent = []

    def solve_noting_the_table(*args, table, **kwargs):
        lent.append(table)
        return solve(*args, table=table, **kwargs)

    monkeypatch.setattr(api, "solve", solve_noting_the_table)
    _, out, _ = run(capsys, "solve", ENDING, "--memory", "2", "--json")
    [table] = lent
    assert table.megabytes == 2 and not table.can_grow
    got, expected = json.loads(out), solve(ENDING)
    assert got["guaranteed"] == expected.guaranteed and got["line"] == [
        str(c) for c in expected.line
    ]


def test_a_limit_says_not_exact_and_shows_the_interval(capsys):
    text = str(Position.random(3, 10))
    status, out, _ = run(capsys, "solve", text, "--max-nodes", "1000")
    assert status == 0
    assert "Not exact" in out and "Not reached: card values, optimal line." in out
    assert " 0-" in out and "low-high is the proven interval" in " ".join(out.split())
    _, out, _ = run(capsys, "solve", text, "--max-nodes", "1000", "--json")
    got = json.loads(out)
    assert got["exact"] is False and got["guaranteed"] == [None, None, None]
    assert all(low <= high for low, high in got["bounds"])


def test_max_n_alone_stopped_short_speaks_of_no_interval(capsys):
    """--mode maxn shows no guaranteed values, so no proven interval to speak of."""
    status, out, _ = run(
        capsys, "solve", str(Position.random(3, 10)), "--mode", "maxn", "--max-nodes", "1000"
    )
    assert status == 0
    assert "Not exact: the search hit its node or time limit." in " ".join(out.split())
    assert "interval" not in out


def test_ctrl_c_prints_what_was_proven(capsys, monkeypatch):
    """Stopped after seat 0's value, the report gives it and status 130."""
    expected = solve(ENDING)

    def interrupt_at_seat_1(message):
        if message.startswith("seat 1"):
            raise KeyboardInterrupt

    monkeypatch.setattr(solve_commands, "search_status", lambda: nullcontext(interrupt_at_seat_1))
    status, out, err = run(capsys, "solve", ENDING, "--json")
    got = json.loads(out)
    assert status == 130 and err == "coins: interrupted\n"
    assert got["interrupted"] is True and got["exact"] is False
    assert got["guaranteed"] == [expected.guaranteed[0], None, None]
    assert got["bounds"][1] == [0, Position.parse(ENDING).coins_left]


def test_compile_notice_goes_to_stderr(capsys, monkeypatch):
    monkeypatch.setattr(notice, "is_compiled", lambda: False)
    _, out, err = run(capsys, "solve", ENDING, "--json")
    assert err.startswith("compiling the solver (first run only")
    json.loads(out)  # stdout is still exactly one JSON object


def test_compile_notice_only_on_the_first_run(tmp_path):
    """With an empty cache the first solve says it compiles (all the kernels,
    not only the paranoid ones it needs); the next run loads them silently."""
    script = (
        f"import sys; from coins.cli import main; sys.exit(main(['solve', {ENDING!r}, '--json']))"
    )
    runs = [
        subprocess.run(
            [sys.executable, "-c", script],
            cwd=REPO,
            capture_output=True,
            text=True,
            env=dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path)),
        )
        for _ in range(2)
    ]
    assert [r.returncode for r in runs] == [0, 0]
    assert runs[0].stderr.startswith("compiling the solver (first run only")
    assert runs[1].stderr == ""
    first, second = (json.loads(r.stdout) for r in runs)
    assert first["guaranteed"] == second["guaranteed"] == solve(ENDING).guaranteed
    assert first["card_values"] == second["card_values"]


def test_deal_is_reproducible_and_parses(capsys):
    _, first, _ = run(capsys, "deal", "--seed", "7")
    _, again, _ = run(capsys, "deal", "--seed", "7")
    assert first == again
    position = Position.parse(first)
    assert position.cards_per_hand == 16 and position.leader == 0
    assert first.strip() == str(Position.random(7))


def test_deal_ending_with_leader(capsys):
    _, out, _ = run(capsys, "deal", "--seed", "1", "--cards", "6", "--leader", "2")
    position = Position.parse(out)
    assert position.cards_per_hand == 6 and position.to_move == 2


@pytest.mark.parametrize(
    "argv, says",
    [
        (["solve", "1X... ... ... 0 -"], '"1" in the Cups group is not a rank'),
        (["solve", "J9.J4..52 .K75.6.N8 0 -"], "5 or 6 fields"),
        (["solve", "J9.J4..52 .K75.6.N8 A753.8.5. 0 1X"], 'card "1X" is not a card'),
        (["solve", ENDING, "--seat", "3"], "invalid choice: 3"),
        (["solve", ENDING, "--seat", "x"], "invalid int value: 'x'"),
        (["solve", ENDING, "--max-nodes", "0"], "the node limit must be 1 to 10^18, not 0"),
        (["solve", ENDING, "--memory", "0"], "transposition table size must be positive"),
        (["solve", ENDING, "--memory", str(10**9)], "does not fit in this machine's"),
        (["deal", "--cards", "17"], "cards per hand must be 0 to 16, not 17"),
        (["deal", "--leader", "5"], "invalid choice: 5"),
        (["solve"], "the following arguments are required: POSITION"),
        ([], "the following arguments are required: COMMAND"),
        (["plya"], "invalid choice: 'plya'"),  # no such command
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, argv, says):
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("coins")
    assert ": error: " in err and says in err


def test_python_m_coins_reports_bad_input_without_traceback():
    done = run_process("solve", "1X... ... ... 0 -")
    assert done.returncode == 2
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("coins: error: hand 0") and done.stderr.count("\n") == 1


def test_python_m_coins_solves():
    done = run_process("solve", ENDING, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["guaranteed"] == solve(ENDING).guaranteed


@pytest.mark.parametrize("mode", ["maxn", "both"])
def test_solve_mode_gives_the_equilibrium(capsys, mode):
    """--mode maxn/both: JSON carries the max^n keys, equal to solve_maxn's answer."""
    expected = solve_maxn(ENDING)
    status, out, _ = run(capsys, "solve", ENDING, "--mode", mode, "--json")
    got = json.loads(out)
    assert status == 0 and got["mode"] == mode
    assert got["equilibrium"] == expected.equilibrium
    assert got["card_results"] == {str(c): v for c, v in expected.card_results.items()}
    assert got["equilibrium_line"] == [str(c) for c in expected.line]
    assert ("guaranteed" in got) == (mode == "both")
    _, text, _ = run(capsys, "solve", ENDING, "--mode", mode)
    assert "Equilibrium line" in text and "max^n" in text


@pytest.mark.parametrize("mode", ["paranoid", "maxn"])
def test_ctrl_c_stops_a_long_solve_at_once(mode):
    """A full deal takes minutes; Ctrl-C must stop the compiled search within
    moments (it holds its thread), print what was proven, then one line on
    stderr and status 130."""
    script = (
        "import sys; from solver.compiled import warm_up; from coins.cli import main; warm_up(); "
        "print('searching', flush=True); "
        f"sys.exit(main(['solve', '--mode', '{mode}', {FULL_DEAL!r}]))"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", script],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert process.stdout.readline() == "searching\n"
    time.sleep(1.0)
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert time.monotonic() - sent < 10
    assert process.returncode == 130 and stderr == "coins: interrupted\n"
    assert "Not exact: the search was stopped (Ctrl-C)" in stdout


def test_solve_beyond_exact_reach_gives_the_estimate_apart(capsys):
    """A full deal's equilibrium is out of exact reach: --mode maxn keeps the proven
    fields empty and gives the estimate beside them, marked, within the limit."""
    status, out, _ = run(
        capsys, "solve", FULL_DEAL, "--mode", "maxn", "--time-limit", "2", "--json"
    )
    got = json.loads(out)
    assert status == 0 and got["exact"] is False
    assert got["equilibrium"] is None and got["card_results"] == {}
    estimate = got["estimate"]
    assert estimate["exact"] is False and estimate["depth"] >= 1
    assert set(estimate["card_results"]) == {
        str(c) for c in Position.parse(FULL_DEAL).legal_cards()
    }
    assert estimate["best"] in estimate["card_results"]
    _, text, _ = run(capsys, "solve", FULL_DEAL, "--mode", "both", "--time-limit", "2")
    assert "Estimated, not proven" in text and "~" in text
