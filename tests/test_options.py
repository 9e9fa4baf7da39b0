"""Every numeric and file option of every command, swept with bad and good values.

Each case either works (exit status 0, no thread dying on the way) or is refused
with exactly one line on stderr and exit status 2: never a traceback. The same
bad values given to the Python functions raise ``OptionError`` or ``PathError``.
Expected outcomes come from the bounds each option states in its help (and
``solver.checks``); the positions are tiny and the counts small, so that the
cases that work are quick.
"""

from __future__ import annotations

import io
import itertools
import math
import sys
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analysis import analyze, decision_graph, duplicate, hint, matches, review, write_graph
from analysis.batch import BatchOptions, random_lines, run_batch
from analysis.bots import PimcBot
from analysis.study import StudySpec, write_exports
from coins import cli, notice
from solver import Match, Position, TranspositionTable, random_player, solve, solve_match
from solver.checks import MAX_NODES, MAX_SECONDS, MAX_SEED
from solver.errors import CoinsError, OptionError, PathError
from solver.maxn import solve_maxn

TINY = ".K.A. 6.6.. ..J5. 0 -"  # two cards a hand
RECORD = TINY + " | KO"
SWEEP = settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

# numbers as a user might type them: words argparse must refuse, non-finite and huge ones
TYPED = st.sampled_from(
    ["inf", "-inf", "nan", "1e308", "1e12", "-0", "0x10", "1.5", "", "ten", "9" * 5000]
)


def whole(low: int, small: int, high: int | None):
    """Typed whole numbers: below ``low``, above ``high``, or a quick valid one (to ``small``)."""
    outside = [st.integers(max_value=low - 1)]
    if high is not None:
        outside.append(st.integers(min_value=high + 1))
    return st.one_of(TYPED, *outside, st.integers(low, small)).map(str)


def seconds():
    """Typed seconds: any float (non-finite too), any number, or words."""
    return st.one_of(
        TYPED,
        st.floats(allow_nan=True, allow_infinity=True).map(repr),
        st.integers(-(10**20), 10**20).map(str),
    )


SEED = st.one_of(TYPED, st.integers(min_value=-(10**30), max_value=10**30).map(str))
TARGET = whole(1, 20, 10_000)
# three scores, in range or not, below the target of the words (20) or not; and words
SCORES = st.one_of(
    TYPED,
    st.sampled_from(["1,2", "1,2,3,4", "1,,2", "a,b,c"]),
    st.tuples(*[st.integers(-3, 10_002)] * 3).map(lambda t: ",".join(map(str, t))),
)
NODES = whole(1, MAX_NODES, MAX_NODES)  # any valid node limit is quick on TINY


@pytest.fixture
def command(tmp_path, monkeypatch, capsys):
    """Run ``coins ARGS`` in-process in a scratch folder; return (status, stderr lines)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr(notice, "is_compiled", lambda: True)  # no compile notice on stderr
    (tmp_path / "in.txt").write_text(TINY + "\n")
    (tmp_path / "notes.txt").write_text("not results\n")
    (tmp_path / "folder").mkdir(exist_ok=True)
    deaths = []
    monkeypatch.setattr(threading, "excepthook", deaths.append)
    try:  # coins serve: read its options, serve nothing
        import uvicorn

        monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: None)
    except ImportError:
        pass
    names = itertools.count()

    def run(*argv: str) -> tuple[int, list[str]]:
        # each case its own results file, so that no case resumes another
        argv = [word.replace("NEW", f"new{next(names)}") for word in argv]
        monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))  # coins play leaves at once
        status = cli.main(argv)
        out, err = capsys.readouterr()
        lines = err.splitlines()
        assert not deaths, deaths
        assert status in (0, 2), (argv, status, err)
        if status == 2:
            assert len(lines) == 1 and "error: " in lines[0], (argv, err)
        assert "Traceback" not in out + err
        return status, lines

    return run


# (command words, option, its values); NEW becomes a fresh file name per case, and the
# option swept comes last, so that it overrides the same option in the words
BATCH = ["batch", "in.txt", "--out", "NEW.jsonl", "--workers", "1", "--quiet"]
RANDOM_BATCH = ["batch", "--random", "1", "--cards", "1", *BATCH[2:]]
STUDY = ["study", "--count", "1", "--cards", "1", *BATCH[2:]]
GRAPH = ["graph", TINY, "--out", "NEW.json"]
BOTS = ["match", "--seats", "random", "random", "greedy", "--hands", "1"]
PLAY = ["play", "--bots", "random", "random"]
OPTIONS = [
    (["solve", TINY], "--max-nodes", NODES),
    (["solve", TINY], "--time-limit", seconds()),
    (["solve", TINY], "--memory", whole(1, 4, None)),
    (["solve", TINY], "--seat", whole(0, 2, 2)),
    (["solve", TINY], "--target", TARGET),
    (["solve", TINY, "--target", "20"], "--scores", SCORES),
    (["deal"], "--seed", SEED),
    (["deal"], "--cards", whole(0, 16, 16)),
    (["deal"], "--leader", whole(0, 2, 2)),
    (["analyze", TINY], "--max-nodes", NODES),
    (["analyze", TINY], "--time-limit", seconds()),
    (["analyze", TINY], "--exact-cards", whole(0, 16, 16)),
    (["analyze", TINY], "--target", TARGET),
    (["analyze", TINY, "--target", "20"], "--scores", SCORES),
    (["serve"], "--port", whole(1, 9000, 65535)),
    (["serve"], "--time-limit", seconds()),
    (["review", RECORD], "--max-nodes", NODES),
    (["review", RECORD], "--time-limit", seconds()),
    (["review", RECORD], "--target", TARGET),
    (["review", RECORD, "--target", "20"], "--scores", SCORES),
    (["review", RECORD, "--samples", "2"], "--seat", whole(0, 2, 2)),
    (["review", RECORD, "--seat", "0"], "--samples", whole(1, 3, 10_000)),
    (["review", RECORD], "--exact-cards", whole(0, 16, 16)),
    (GRAPH, "--depth", whole(0, 3, 48)),
    (GRAPH, "--max-positions", whole(1, 50, 100_000)),
    (GRAPH, "--max-nodes", NODES),
    (GRAPH, "--time-limit", seconds()),
    (BATCH, "--max-nodes", NODES),
    (BATCH, "--time-limit", seconds()),
    (BATCH, "--workers", whole(1, 1, 1024)),
    (BATCH, "--chunk", whole(1, 3, 10_000)),
    (RANDOM_BATCH, "--random", whole(0, 3, 10**9)),
    (RANDOM_BATCH, "--cards", whole(0, 3, 16)),
    (RANDOM_BATCH, "--seed", SEED),
    (RANDOM_BATCH, "--leader", whole(0, 2, 2)),
    (STUDY, "--count", whole(0, 2, 10**9)),
    (STUDY, "--cards", whole(1, 2, 16)),
    (STUDY, "--seed", SEED),
    ([*STUDY, "--cards", "2"], "--coins-left", whole(0, 12, 12)),
    (STUDY, "--workers", whole(1, 1, 1024)),
    ([*STUDY, "--count", "2"], "--chunk", whole(1, 3, 10_000)),
    (STUDY, "--leader", whole(0, 2, 2)),
    ([*STUDY, "--cards", "2"], "--trick", whole(0, 2, 2)),
    (["hint", TINY, "--samples", "2"], "--time-limit", seconds()),
    (["hint", TINY, "--time-limit", "0"], "--samples", whole(1, 3, 10_000)),
    (["hint", TINY, "--samples", "2"], "--seed", SEED),
    (["hint", TINY, "--samples", "2"], "--target", TARGET),
    (["hint", TINY, "--samples", "2", "--target", "20"], "--scores", SCORES),
    (BOTS, "--hands", whole(1, 1, 10**6)),
    ([*BOTS[:-2], "--matches", "1"], "--target", whole(1, 3, 10_000)),
    ([*BOTS[:-2], "--target", "2"], "--matches", whole(1, 1, 10**6)),
    ([*BOTS[:-2], "--target", "20", "--matches", "1"], "--start-scores", SCORES),
    (BOTS, "--seed", SEED),
    (BOTS, "--pimc-samples", whole(1, 3, 10_000)),
    (BOTS, "--pimc-time-limit", seconds()),
    (PLAY, "--seat", whole(0, 2, 2)),
    (PLAY, "--target", whole(1, 3, 10_000)),
    (PLAY, "--seed", SEED),
    (PLAY, "--hint-samples", whole(1, 3, 10_000)),
    (PLAY, "--hint-time-limit", seconds()),
]


@pytest.mark.parametrize(
    "words, option, values", OPTIONS, ids=[f"{w[0]} {o}" for w, o, _ in OPTIONS]
)
def test_each_numeric_option_works_or_is_refused_in_one_line(command, words, option, values):
    @SWEEP
    @given(text=values)
    def sweep(text):
        command(*words, f"{option}={text}")

    sweep()


def test_the_sweep_covers_every_numeric_option_of_every_command():
    """Each option of each command that takes a number is in OPTIONS."""
    swept = {(words[0], option) for words, option, _ in OPTIONS}
    commands = next(a for a in cli.build_parser()._actions if a.dest == "==SUPPRESS==" or a.choices)
    numeric = {
        (name, action.option_strings[0])
        for name, parser in commands.choices.items()
        for action in parser._actions
        if action.option_strings
        and (
            action.type in (int, float)
            or getattr(action.type, "kind", "")
            in ("a whole number", "a number of seconds", "three whole numbers A,B,C")
        )
    }
    assert len(numeric) >= 35 and numeric <= swept, numeric - swept


# ----- files ----------------------------------------------------------------------------

# where an output may be asked to go, and whether writing there can work
PLACES = {
    "NEW.EXT": True,  # a new file in a folder that exists
    "missing/NEW.EXT": False,  # a folder that does not exist
    "in.txt/NEW.EXT": False,  # a file where a folder should be
    "folder": False,  # a folder
    "/proc/NEW.EXT": False,  # not writable, whoever runs the tests
}


@SWEEP
@given(
    place=st.sampled_from(sorted(PLACES)), ext=st.sampled_from(["json", "dot", "graphml", "txt"])
)
def test_graph_out_works_or_is_refused_in_one_line(command, place, ext):
    status, lines = command("graph", TINY, "--out", place.replace("EXT", ext))
    assert status == (0 if PLACES[place] and ext != "txt" else 2), lines


@SWEEP
@given(place=st.sampled_from([*sorted(PLACES), "in.txt", "notes.txt"]))
def test_batch_out_works_or_is_refused_in_one_line(command, place):
    status, lines = command(*BATCH, "--out", place.replace("EXT", "jsonl"))
    assert status == (0 if PLACES.get(place) else 2), lines
    if place in ("in.txt", "notes.txt"):
        assert ("is the input" if place == "in.txt" else "not a batch's results") in lines[0]


@SWEEP
@given(place=st.sampled_from(["in.txt", "missing.txt", "folder", "/proc/missing.txt"]))
def test_batch_input_is_read_or_refused_in_one_line(command, place):
    status, lines = command("batch", place, *BATCH[2:])
    assert status == (0 if place == "in.txt" else 2), lines


@SWEEP
@given(
    option=st.sampled_from(["--json", "--csv", "--plot"]),
    place=st.sampled_from([*sorted(PLACES), "results.jsonl"]),
)
def test_study_exports_work_or_are_refused_before_the_study(command, option, place):
    status, lines = command(*STUDY, "--out", "results.jsonl", option, place.replace("EXT", "x"))
    if option == "--json":  # the file itself
        works = PLACES.get(place, False)
    else:  # a prefix: PREFIX-seats.csv ..., beside it
        works = place in ("NEW.EXT", "folder", "results.jsonl")
    assert status == (0 if works else 2), lines


def test_the_campaign_of_the_issue(command, tmp_path):
    """The cases that once gave tracebacks, or wrote where they should not."""
    for argv in (
        ["solve", TINY, "--time-limit", "inf"],
        ["solve", TINY, "--time-limit", "1e308"],
        ["graph", TINY, "--out", "/nonexistent/dir/g.json"],
        [
            "study",
            "--count",
            "3",
            "--cards",
            "3",
            "--json",
            "/nonexistent/x.json",
            "--out",
            "s.jsonl",
        ],
        ["study", "--count", "3", "--cards", "3", "--plot", "/nonexistent/p", "--out", "s.jsonl"],
        ["batch", "in.txt", "--out", "in.txt"],
        ["batch", "in.txt", "--out", "notes.txt"],
        ["batch", "--random", str(10**12), "--out", "r.jsonl"],
    ):
        assert command(*argv)[0] == 2, argv
    assert (tmp_path / "in.txt").read_text() == TINY + "\n"  # the input is left alone
    assert (tmp_path / "notes.txt").read_text() == "not results\n"
    assert not (tmp_path / "s.jsonl").exists() and not (tmp_path / "r.jsonl").exists()


# ----- the Python functions ---------------------------------------------------------------

BAD_SECONDS = [math.inf, -math.inf, math.nan, 1e308, MAX_SECONDS * 1.01, -1.0, 0.0, "1", True]
BAD_NODES = [0, -1, MAX_NODES + 1, 10**25, 2.5, math.inf, "5", True]
BAD_SEEDS = [-1, MAX_SEED + 1, 1.5, "seven", True]


def bad(values):
    return st.sampled_from(values)


CALLS = {
    "solve time_limit": (lambda v: solve(TINY, time_limit=v), BAD_SECONDS),
    "solve max_nodes": (lambda v: solve(TINY, max_nodes=v), BAD_NODES),
    "solve target": (lambda v: solve(TINY, target=v), [0, -1, 10**5, 2.5, True]),
    "solve_match target": (lambda v: solve_match(TINY, v), [0, 10**23, 2.5]),
    "solve_maxn time_limit": (lambda v: solve_maxn(TINY, time_limit=v), BAD_SECONDS),
    "solve_maxn max_nodes": (lambda v: solve_maxn(TINY, max_nodes=v), BAD_NODES),
    "analyze time_limit": (lambda v: analyze(TINY, time_limit=v), BAD_SECONDS),
    "review max_nodes": (lambda v: review(RECORD, max_nodes=v), BAD_NODES),
    "decision_graph time_limit": (lambda v: decision_graph(TINY, time_limit=v), BAD_SECONDS),
    "decision_graph depth": (lambda v: decision_graph(TINY, v), [-1, 49, 1.5, math.inf]),
    "decision_graph max_positions": (
        lambda v: decision_graph(TINY, max_positions=v),
        [0, 10**6, math.nan],
    ),
    "BatchOptions time_limit": (lambda v: BatchOptions(time_limit=v), BAD_SECONDS),
    "hint time_limit": (lambda v: hint(TINY, 1, v), [x for x in BAD_SECONDS if x != 0.0]),
    "hint samples": (lambda v: hint(TINY, v, 0), [0, 10**5, 2.5, math.inf]),
    "hint seed": (lambda v: hint(TINY, 1, 0, v), BAD_SEEDS),
    "PimcBot time_limit": (lambda v: PimcBot(time_limit=v), [math.inf, -1.0, 1e12]),
    "duplicate deals": (lambda v: duplicate(["random"] * 3, v), [0, 10**7, 1.5]),
    "duplicate seed": (lambda v: duplicate(["random"] * 3, 1, v), BAD_SEEDS),
    "matches target": (lambda v: matches(["random"] * 3, 1, v), [0, 10**23, 2.5]),
    "Match seed": (lambda v: Match([random_player] * 3, seed=v), BAD_SEEDS),
    "random_lines count": (lambda v: random_lines(v, 3), [-1, 10**12, 1.5]),
    "random_lines seed": (lambda v: random_lines(1, 3, v), BAD_SEEDS),
    "StudySpec count": (lambda v: StudySpec(v, 3), [-1, 10**12]),
    "StudySpec coins_left": (lambda v: StudySpec(1, 3, coins_left=v), [-1, 13, 1.5]),
    "Position.random seed": (lambda v: Position.random(v, 3), BAD_SEEDS),
    "TranspositionTable": (lambda v: TranspositionTable(v), [0, -1, math.inf, math.nan, 10**12]),
}


@pytest.mark.parametrize("name", CALLS)
def test_the_python_functions_refuse_the_same_values(name):
    call, values = CALLS[name]

    @settings(max_examples=len(values), deadline=None)
    @given(value=bad(values))
    def refuse(value):
        with pytest.raises(OptionError) as error:
            call(value)
        assert "\n" not in str(error.value)

    refuse()


def test_python_outputs_are_refused_before_writing(tmp_path):
    graph = decision_graph(TINY, 1)
    (tmp_path / "in.txt").write_text(TINY + "\n")
    for path in (tmp_path / "missing" / "g.json", tmp_path, tmp_path / "in.txt" / "g.json"):
        with pytest.raises(PathError):
            write_graph(graph, path)
        with pytest.raises(PathError):
            run_batch([(1, TINY)], path, workers=1)
    with pytest.raises(PathError):
        write_exports(None, json_file=tmp_path / "missing" / "s.json")
    with pytest.raises(CoinsError):  # appending to what is not a batch's results
        (tmp_path / "notes.txt").write_text("notes\n")
        run_batch([(1, TINY)], tmp_path / "notes.txt", workers=1)
    assert (tmp_path / "notes.txt").read_text() == "notes\n"
