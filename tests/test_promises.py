"""The command line's promises on a busy machine, on Ctrl-C and when the disk says
no: an output that cannot be written, a port that is taken, Ctrl-C
and contradictory options each end in one line on stderr and the exit
status README lists, never a traceback, and Ctrl-C keeps what was done.

Each command runs in a child process (the real streams and exit status).
Ctrl-C is sent once the child says it has done some work, never after a
guessed time, so a busy machine changes how long a test takes, not its verdict.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coins import api, cli, commands
from coins.cli import OUTPUT_FAILED
from solver import Position
from solver.errors import cut_quotes

REPO = Path(__file__).resolve().parents[1]
ENDING = "J9.J4..52 .K75.6.N8 A753.8.5. 0 -"
VIEW = "876.J8.ANJ864.A8542 ? ? 0 -"


def run_coins(*argv, stdout=subprocess.PIPE, cwd=REPO, **options) -> subprocess.CompletedProcess:
    """``python -m coins ARGV`` in a child process."""
    return subprocess.run(
        [sys.executable, "-m", "coins", *argv],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
        env=dict(os.environ, NO_COLOR="1", COLUMNS="200"),
        timeout=300,
        **options,
    )


def one_error_line(stderr: str) -> str:
    """The last line of ``stderr``, after checking it holds no traceback (a first run
    may say it compiles the solver before)."""
    assert "Traceback" not in stderr and "Exception ignored" not in stderr, stderr
    return stderr.splitlines()[-1]


# ----- an output that cannot be written --------------------------------------------------

# commands that write to standard output, each quick
WRITERS = [
    ["deal", "--seed", "1"],
    ["solve", ENDING],
    ["solve", ENDING, "--json"],
    ["analyze", ENDING, "--json"],
    ["hint", VIEW, "--samples", "4", "--seed", "1"],
    ["match", "--hands", "1", "--seats", "greedy", "random", "random", "--seed", "1"],
    ["--help"],
    ["--version"],
    ["solve", "--help"],
]


def closed_pipe() -> int:
    """The writing end of a pipe whose reader has gone (``coins deal | head -c0``)."""
    read, write = os.pipe()
    os.close(read)
    return write


@settings(max_examples=12)
@given(argv=st.sampled_from(WRITERS), sink=st.sampled_from(["full disk", "closed pipe"]))
def test_an_output_that_cannot_be_written_is_one_line_and_its_status(argv, sink):
    if sink == "full disk":
        with open("/dev/full", "w") as full:
            done = run_coins(*argv, stdout=full)
        problem = "No space left on device"
    else:
        write = closed_pipe()
        try:
            done = run_coins(*argv, stdout=write)
        finally:
            os.close(write)
        problem = "Broken pipe"
    assert one_error_line(done.stderr) == f"coins: error: cannot write the output: {problem}"
    assert done.returncode == OUTPUT_FAILED


def test_a_study_whose_output_fails_keeps_its_files(tmp_path):
    """The summary cannot be printed; the results were written all the same."""
    out = tmp_path / "study.jsonl"
    with open("/dev/full", "w") as full:
        done = run_coins(
            "study",
            "--count",
            "3",
            "--cards",
            "2",
            "--workers",
            "1",
            "--quiet",
            "--out",
            str(out),
            stdout=full,
        )
    assert one_error_line(done.stderr).startswith("coins: error: cannot write the output")
    assert done.returncode == OUTPUT_FAILED
    assert len(out.read_text().splitlines()) == 3


# ----- coins serve on a port that is taken -----------------------------------------------


def test_serve_on_a_taken_port_says_so_before_the_address():
    pytest.importorskip("uvicorn", reason="the web extra is not installed: pip install '.[web]'")
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        done = run_coins("serve", "--port", str(port))
    assert done.returncode == 2 and done.stdout == ""  # no address of a board that never came
    line = one_error_line(done.stderr)
    assert line.startswith(f"coins: error: cannot serve on port {port} of 127.0.0.1 (Address")
    free = int(line.split("--port ")[1].split(",")[0])
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", free))  # the port it names was free


# ----- coins --version -------------------------------------------------------------------


def test_version_is_the_installed_package_s():
    done = run_coins("--version")
    assert done.returncode == 0 and done.stdout == f"coins {metadata.version('coins-solver')}\n"


def test_version_from_a_source_tree_that_is_not_installed(monkeypatch):
    def not_installed(name):
        raise metadata.PackageNotFoundError(name)

    installed = metadata.version("coins-solver")  # this tree's, installed with pip -e
    monkeypatch.setattr(metadata, "version", not_installed)
    assert commands.version() == f"{installed} (source tree, not installed)"


# ----- Ctrl-C keeps what was done --------------------------------------------------------


def interrupted(argv, after: str, count: int = 1) -> subprocess.CompletedProcess:
    """``coins ARGV`` in a child process in which ``after`` (a dotted name) says "done"
    on stderr each time it returns; Ctrl-C once it has said so ``count`` times. Its
    standard input stays open and silent (coins play waits for a card)."""
    owner, _, name = after.rpartition(".")
    script = "\n".join(
        [
            "import pkgutil, sys",
            f"owner = pkgutil.resolve_name({owner!r})",
            f"original = getattr(owner, {name!r})",
            "def said(*args, **kwargs):",
            "    result = original(*args, **kwargs)",
            "    print('done', file=sys.stderr, flush=True)",
            "    return result",
            f"setattr(owner, {name!r}, said)",
            "from coins.cli import main",
            f"sys.exit(main({list(argv)!r}))",
        ]
    )
    process = subprocess.Popen(
        [sys.executable, "-c", script],
        cwd=REPO,
        env=dict(os.environ, NO_COLOR="1", COLUMNS="200"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    said = 0
    while said < count:
        line = process.stderr.readline()
        assert line, f"the child ended before Ctrl-C: {process.communicate()}"
        said += line == "done\n"
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=300)
    return subprocess.CompletedProcess(argv, process.returncode, stdout, stderr)


def test_ctrl_c_in_hint_prints_the_ranking_so_far():
    """The deals valued by then are ranked and shown (before, nothing reached stdout)."""
    done = interrupted(
        ["hint", VIEW, "--time-limit", "0", "--samples", "10000"],
        "analysis.hint._contenders",
        count=3,
    )  # three batches of deals
    assert done.returncode == 130 and one_error_line(done.stderr) == "coins: interrupted"
    assert done.stdout.startswith(f"View {VIEW}")
    drawn = int(done.stdout.split(" drawn,")[0].rsplit("(", 1)[1])
    assert 6 <= drawn < 10000
    assert f"Stopped by Ctrl-C: the ranking is of the {drawn} deals" in " ".join(
        done.stdout.split()
    )


def test_ctrl_c_in_hint_json_is_the_ranking_so_far():
    done = interrupted(
        ["hint", VIEW, "--time-limit", "0", "--samples", "10000", "--json"],
        "analysis.hint._contenders",
    )
    got = json.loads(done.stdout)
    assert done.returncode == 130 and got["interrupted"] is True
    assert 2 <= got["samples"] < 10000 and len(got["cards"]) == 16


@pytest.mark.parametrize(
    "how, after",
    [
        (["--hands", "100000"], "solver.match.Hand.play"),
        (["--target", "15", "--matches", "100000"], "solver.match.Match.play"),
    ],
    ids=["duplicate", "matches"],
)
def test_ctrl_c_in_match_prints_the_deals_played(how, after):
    """After two whole deals (or seeds) and some of a third: the scores of the whole ones."""
    done = interrupted(
        [
            "match",
            "--seats",
            "pimc",
            "greedy",
            "random",
            "--pimc-samples",
            "4",
            "--seed",
            "3",
            *how,
            "--json",
        ],
        after,
        count=7,
    )
    got = json.loads(done.stdout)
    assert done.returncode == 130 and one_error_line(done.stderr) == "coins: interrupted"
    assert got["interrupted"] is True and 2 <= got["deals"] < 10000
    assert [score["hands"] for score in got["scores"]] == [got["hands"]] * 3
    text = interrupted(["match", "--seats", "greedy", "random", "random", *how], after, count=7)
    assert text.returncode == 130
    assert "stopped by Ctrl-C: the" in " ".join(text.stdout.split())


def test_ctrl_c_in_analyze_prints_the_decisions_finished_and_exits_130():
    """(It printed them, then exited 0 as if the analysis were whole.) Ctrl-C after the
    third decision may land before it is kept, never before the second."""
    done = interrupted(
        ["analyze", str(Position.random(5)), "--json"],  # a second a decision
        "analysis.report._decision",
        count=3,
    )
    got = json.loads(done.stdout)
    assert done.returncode == 130 and one_error_line(done.stderr) == "coins: interrupted"
    assert got["interrupted"] is True and got["complete"] is False
    assert len(got["decisions"]) >= 2


def test_ctrl_c_in_play_prints_the_score():
    """At the user's first turn (no trick done: every score 0)."""
    done = interrupted(
        ["play", "--seed", "4", "--bots", "greedy", "greedy"],
        "coins.game.TerminalGame.hand_started",
    )
    assert done.returncode == 130 and one_error_line(done.stderr) == "coins: interrupted"
    assert done.stdout.splitlines()[-1].startswith("Stopped (Ctrl-C). Score you 0, ")


# ----- no silent surprises ---------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "J9.J4..52 " * 10_000],  # a 100 KB position
        ["solve", ENDING.replace(" -", " " + "Q" * 100_000)],
        ["hint", "x" * 100_000],
        ["solve", ENDING, "--mode", "m" * 100_000],  # argparse's own message
    ],
    ids=["position", "trick card", "view", "choice"],
)
def test_an_error_cuts_the_long_input_it_quotes(argv):
    done = run_coins(*argv)
    line = one_error_line(done.stderr)
    assert done.returncode == 2 and line.startswith("coins") and ": error: " in line
    assert len(line) < 300 and ("...'" in line or '..."' in line)


def test_cut_quotes_leaves_apostrophes_and_short_quotes_alone():
    prose = "the mover's card " + "is bad " * 20 + "in 'AO'"
    assert cut_quotes(prose) == prose
    long = "x" * 200
    assert (
        cut_quotes(f'not {long!r} nor "{long}"') == f"not '{long[:80]}...' nor \"{long[:80]}...\""
    )


@pytest.mark.parametrize(
    "argv, says",
    [
        (["solve", ENDING, "--seat", "1", "--mode", "maxn"], "--seat picks the one seat"),
        (["batch", "-", "--out", "OUT", "--seed", "3"], "--seed is for the random endings"),
        (
            ["batch", "-", "--out", "OUT", "--cards", "4", "--leader", "0"],
            "--cards, --leader are for the random endings",
        ),
    ],
    ids=["solve seat maxn", "batch seed", "batch cards leader"],
)
def test_contradictory_options_are_refused_before_any_work(argv, says, tmp_path):
    """(--seat was ignored, and the batch read its input as if --random N were not missing.)"""
    out = tmp_path / "out.jsonl"
    done = run_coins(*[str(out) if word == "OUT" else word for word in argv], input=ENDING)
    assert done.returncode == 2 and done.stdout == "" and not out.exists()
    assert one_error_line(done.stderr).startswith(f"coins: error: {says}")


@pytest.mark.parametrize(
    "argv, made",
    [
        (["graph", ENDING, "--out", "g.json"], ["g.json"]),
        (
            [
                "study",
                "--count",
                "2",
                "--cards",
                "2",
                "--workers",
                "1",
                "--quiet",
                "--out",
                "s.jsonl",
                "--json",
                "s.json",
                "--csv",
                "s",
            ],
            ["s.json", "s-seats.csv", "s-cards.csv"],
        ),
    ],
    ids=["graph", "study"],
)
def test_an_existing_file_is_replaced_only_with_force(argv, made, tmp_path):
    """(Both replaced whatever file was there.)"""
    for name in made:
        (tmp_path / name).write_text("mine\n")
    refused = run_coins(*argv, cwd=tmp_path)
    assert refused.returncode == 2 and refused.stdout == ""
    assert one_error_line(refused.stderr) == (
        f"coins: error: {', '.join(made)} exist{'s' if len(made) == 1 else ''} already: give "
        "--force to replace"
    )
    assert all((tmp_path / name).read_text() == "mine\n" for name in made)
    replaced = run_coins(*argv, "--force", cwd=tmp_path)
    assert replaced.returncode == 0, replaced.stderr
    assert all((tmp_path / name).read_text() != "mine\n" for name in made)


def test_ctrl_c_in_hint_s_open_hand_values_keeps_the_ranking(monkeypatch, capsys):
    """A full position of few cards gets its open-hand values after the ranking;
    Ctrl-C there leaves them out and keeps the ranking."""

    def stopped(*arguments):
        raise KeyboardInterrupt

    monkeypatch.setattr(api, "_open_hand_values", stopped)
    status = cli.main(["hint", ENDING, "--samples", "4", "--seed", "1", "--json"])
    out, err = capsys.readouterr()
    got = json.loads(out)
    assert status == 130 and err.splitlines()[-1] == "coins: interrupted"
    assert got["interrupted"] is True and got["samples"] == 4
    assert all("open_hand" not in card for card in got["cards"])


# ----- Ctrl-C at any moment -----------------------------------------------------------------

FULL_DEAL = "982.J8732.K95.AJ542 KNJ7543.96.AN874.96 A6.AKN54.J632.KN873 0 -"
# commands that run for seconds, each with what it prints when it finishes or is stopped
LONG_RUNS = [
    (["solve", FULL_DEAL, "--time-limit", "4", "--json"], "json"),
    (["analyze", ENDING, "--json"], "json"),
    (
        [
            "review",
            ".KN.A. 6.6.7. ..J5.2 0 - | AS 6C JS NO 6O 2B KO 7S 5S",
            "--seat",
            "2",
            "--json",
        ],
        "json",
    ),
    (["hint", VIEW, "--samples", "2000", "--time-limit", "0", "--seed", "2"], "View"),
]


@settings(max_examples=6, deadline=None)
@given(command=st.sampled_from(LONG_RUNS), delay=st.floats(0.0, 3.0))
def test_ctrl_c_at_any_moment_ends_cleanly(command, delay):
    """SIGINT at a random moment (while starting, searching or printing): exit 0 when
    the work was done first, else 130 (or death by the signal itself, while Python
    starts); never a traceback; what reached stdout whole."""
    argv, shows = command
    child = subprocess.Popen(
        [sys.executable, "-m", "coins", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env=dict(os.environ, NO_COLOR="1", COLUMNS="200"),
    )
    try:
        out, err = child.communicate(timeout=delay)
    except subprocess.TimeoutExpired:
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=300)
    # -SIGINT: stopped before Python took over Ctrl-C (a shell shows 130 for it too)
    assert child.returncode in (0, 130, -signal.SIGINT), err
    assert "Traceback" not in err and "Exception ignored" not in err, err
    if out:  # whatever was printed is whole: one JSON object, or the hint's ranking
        if shows == "json":
            json.loads(out)
        else:
            assert out.startswith(shows)
