"""Batch solving (analysis.batch, ``coins batch``): its results are solve()'s, nothing is lost
when a batch is stopped (Ctrl-C, SIGKILL, a cut-off last line) and resumed, and the same code
runs on a Dask cluster."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from itertools import islice
from pathlib import Path

import pytest

from analysis.batch import (
    BatchError,
    BatchOptions,
    GeneratedLines,
    chunk_size,
    load_output,
    random_lines,
    read_lines,
    run_batch,
)
from coins import cli
from solver import Position, Record, solve

REPO = Path(__file__).resolve().parents[1]
RECORD = "7...2 K.3.. J.6.. 0 - 0,1,0 | 7C"  # README's small position, after one card
_START = Position.random(9, 4, 1)
MID_TRICK = str(_START.play(_START.legal_cards()[0]))  # seat 2 to move, one card on the table


def positions(count, cards=5, seed=7):
    return [text for _, text in random_lines(count, cards, seed)]


def read_records(path) -> list[dict]:
    return [json.loads(line) for line in Path(path).read_text().splitlines()]


def by_line(path) -> dict[int, dict]:
    records = read_records(path)
    numbers = [r["line"] for r in records]
    assert len(numbers) == len(set(numbers)), "duplicate line numbers"
    return {r["line"]: r for r in records}


def expected(text: str, mode: str) -> dict:
    """What solve() says of a line: the values batch must report."""
    position = Record.parse(text).final if "|" in text else Position.parse(text)
    result = solve(position, mode=mode, threads=1)
    out = {"position": str(position), "to_move": position.to_move, "exact": result.exact}
    if mode in ("paranoid", "both"):
        out["guaranteed"] = result.guaranteed
    if mode in ("maxn", "both"):
        out["equilibrium"] = result.equilibrium
    return out


def values(record: dict) -> dict:
    keys = ("position", "to_move", "exact", "guaranteed", "equilibrium")
    return {k: record[k] for k in keys if k in record}


def run_cli(args, stdin=None, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "coins", "batch", "--quiet", *args],
        cwd=REPO,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        **kwargs,
    )


# ----- results -----------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["paranoid", "maxn", "both"])
@pytest.mark.parametrize("workers", [1, 2])
def test_results_equal_solve(tmp_path, mode, workers):
    lines = positions(12, cards=5) + [RECORD, MID_TRICK]
    items = read_lines(lines)
    out = tmp_path / "out.jsonl"
    summary = run_batch(items, out, BatchOptions(mode), workers=workers, chunk=3)
    assert (summary.solved, summary.errors, summary.left, summary.interrupted) == (14, 0, 0, False)
    records = by_line(out)
    assert sorted(records) == list(range(1, 15))
    for number, text in items:
        record = records[number]
        assert record["text"] == text and record["mode"] == mode
        assert values(record) == expected(text, mode), text
        assert record["nodes"] >= 0 and record["seconds"] >= 0
        assert "card_values" not in record and "card_results" not in record


def test_card_values_and_lines_on_request(tmp_path):
    text = positions(1, cards=4)[0]
    out = tmp_path / "out.jsonl"
    run_batch([(1, text)], out, BatchOptions("both", card_values=True, lines=True), workers=1)
    (record,) = read_records(out)
    result = solve(text, mode="both", threads=1)
    assert record["card_values"] == {str(c): v for c, v in result.card_values.items()}
    assert record["optimal"] == [str(c) for c in result.optimal]
    assert record["card_results"] == {str(c): v for c, v in result.card_results.items()}
    assert record["optimal_line"] == [str(c) for c in result.line]
    assert record["equilibrium_line"] == [str(c) for c in result.equilibrium_line]


def test_limits_cut_short_with_bounds(tmp_path):
    deal = Position.random(3)  # a full deal: 50 nodes prove nothing
    out = tmp_path / "out.jsonl"
    summary = run_batch([(1, str(deal))], out, BatchOptions("both", max_nodes=50), workers=1)
    (record,) = read_records(out)
    assert record["exact"] is False and summary.cut_short == 1
    assert len(record["bounds"]) == 3 and record["equilibrium"] is None


def test_error_lines_name_the_line_and_the_batch_goes_on(tmp_path):
    good = positions(2)
    lines = [
        "# a comment",
        good[0],
        "",
        "not a position",
        RECORD.replace("7C", "8C"),
        good[1],
        "? K.3.. J.6.. 0 - 0,1,0 | 7C",
    ]
    out = tmp_path / "out.jsonl"
    summary = run_batch(read_lines(lines), out, BatchOptions(), workers=1)
    assert (summary.solved, summary.errors) == (2, 3)
    records = by_line(out)
    assert sorted(records) == [2, 4, 5, 6, 7]  # blank and comment lines are not input
    assert "fields" in records[4]["error"] and records[4]["text"] == "not a position"
    assert "8C" in records[5]["error"]
    assert "hidden" in records[7]["error"]
    assert values(records[6]) == expected(good[1], "paranoid")


def test_chunk_size():
    assert chunk_size(10_000, 2) == 64 and chunk_size(100, 2) == 7 and chunk_size(1, 8) == 1


def test_random_lines_are_reproducible():
    lines = random_lines(3, 6, seed=5)
    assert list(lines) == list(lines) == list(random_lines(3, 6, seed=5))  # read again: the same
    assert list(lines) != list(random_lines(3, 6, seed=6))
    assert [n for n, _ in random_lines(3, 6)] == [1, 2, 3] and len(lines) == 3
    assert all(Position.parse(t).cards_per_hand == 6 for _, t in random_lines(3, 6))


def test_random_lines_are_made_as_the_batch_reads_them(tmp_path):
    """A billion lines cost nothing until read; a batch makes them a chunk at a time."""
    assert len(random_lines(10**9, 3)) == 10**9
    made = []
    lines = GeneratedLines(6, 1, lambda rng: made.append(1) or Position.random(rng, 1))
    seen = []
    run_batch(
        lines,
        tmp_path / "out.jsonl",
        workers=1,
        chunk=2,
        on_progress=lambda done, todo, summary: seen.append((done, len(made))),
    )
    assert seen == [(0, 0), (2, 2), (4, 4), (6, 6)]


# ----- resuming ----------------------------------------------------------------------


def test_resume_after_partial_output_with_cut_off_last_line(tmp_path):
    items = read_lines(positions(20))
    complete = tmp_path / "complete.jsonl"
    run_batch(items, complete, BatchOptions("both"), workers=1)
    whole = complete.read_text().splitlines(keepends=True)
    partial = tmp_path / "partial.jsonl"
    # seven whole lines (out of order, as workers finish them), then half of another
    partial.write_text("".join(whole[10:17]) + whole[3][: len(whole[3]) // 2])
    done, cut = load_output(partial, repair=False)
    assert sorted(done) == sorted(json.loads(line)["line"] for line in whole[10:17]) and cut
    summary = run_batch(items, partial, BatchOptions("both"), workers=2, chunk=2)
    assert summary.repaired and summary.skipped == 7 and summary.solved == 13
    resumed = by_line(partial)
    assert sorted(resumed) == list(range(1, 21))
    assert {n: values(r) for n, r in resumed.items()} == {
        n: values(r) for n, r in by_line(complete).items()
    }
    again = run_batch(items, partial, BatchOptions("both"), workers=2)
    assert (again.skipped, again.solved, again.left) == (20, 0, 0)
    assert len(read_records(partial)) == 20


def test_resume_refuses_an_output_of_another_batch(tmp_path):
    out = tmp_path / "out.jsonl"
    run_batch(read_lines(positions(2)), out, BatchOptions(), workers=1)
    with pytest.raises(BatchError, match="another input"):
        run_batch(read_lines(positions(2, seed=8)), out, BatchOptions(), workers=1)
    with pytest.raises(BatchError, match="mode"):
        run_batch(read_lines(positions(2)), out, BatchOptions("maxn"), workers=1)


def test_killed_batch_resumes_complete_without_duplicates(tmp_path):
    out = tmp_path / "out.jsonl"
    args = [
        "--random",
        "100",
        "--cards",
        "7",
        "--seed",
        "3",
        "--mode",
        "both",
        "--workers",
        "2",
        "--chunk",
        "4",
        "--out",
        str(out),
    ]
    process = subprocess.Popen(
        [sys.executable, "-m", "coins", "batch", "--quiet", *args],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and (not out.exists() or out.stat().st_size < 2000):
            time.sleep(0.05)
    finally:  # the batch and its workers: the process group this test started
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    before = len(out.read_text().splitlines())
    assert 0 < before < 100, "the kill should land part-way"
    finished = run_cli(args)
    assert finished.returncode == 0, finished.stderr
    records = by_line(out)
    assert sorted(records) == list(range(1, 101))
    assert "already there" in finished.stdout
    for number, text in islice(random_lines(100, 7, 3), 0, None, 13):
        assert records[number]["text"] == text and values(records[number]) == expected(text, "both")


@pytest.mark.parametrize("whole_group", [False, True], ids=["main-process", "process-group"])
def test_ctrl_c_stops_cleanly_with_a_summary(tmp_path, whole_group):
    # Ctrl-C in a terminal reaches the whole process group (the workers too)
    out = tmp_path / "out.jsonl"
    # enough positions that an idle machine cannot finish them between two looks at the file
    args = [
        "--random",
        "4000",
        "--cards",
        "7",
        "--mode",
        "both",
        "--workers",
        "2",
        "--chunk",
        "2",
        "--out",
        str(out),
    ]
    process = subprocess.Popen(
        [sys.executable, "-m", "coins", "batch", "--quiet", *args],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        # a shell that starts the tests in the background ignores SIGINT, and the
        # child would inherit that: give it a terminal's Ctrl-C
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not out.exists() or out.stat().st_size < 2000):
        time.sleep(0.05)
    if whole_group:
        os.killpg(process.pid, signal.SIGINT)
    else:
        process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert stdout.startswith("stopped: ") and "left: run the same command again" in stdout
    assert "interrupted" in stderr
    records = read_records(out)  # every line whole
    assert 0 < len(records) < 4000 and f"{len(records):,} solved" in stdout


# ----- the command line --------------------------------------------------------------


def test_cli_reads_stdin_and_reports(tmp_path):
    out = tmp_path / "out.jsonl"
    text = "\n".join(positions(3) + ["oops"]) + "\n"
    done = run_cli(["-", "--out", str(out), "--workers", "1", "--mode", "maxn"], stdin=text)
    assert done.returncode == 0, done.stderr
    assert "3 solved, 1 errors, 0 cut short" in done.stdout
    records = by_line(out)
    assert records[4]["error"] and values(records[2]) == expected(positions(3)[1], "maxn")


def test_cli_bad_arguments(tmp_path, capsys):
    out = str(tmp_path / "out.jsonl")
    assert cli.main(["batch", "--out", out]) == 2
    assert "INPUT" in capsys.readouterr().err
    assert cli.main(["batch", str(tmp_path / "missing.txt"), "--out", out]) == 2
    assert "missing.txt does not exist" in capsys.readouterr().err
    assert cli.main(["batch", "x", "--random", "3", "--out", out]) == 2
    assert (
        cli.main(["batch", "--random", "1", "--out", out, "--max-nodes", "5", "--time-limit", "1"])
        == 2
    )


def test_cli_in_process(tmp_path, capsys, monkeypatch):
    out = tmp_path / "out.jsonl"
    monkeypatch.setattr(sys, "stdin", io.StringIO(RECORD + "\n"))
    assert cli.main(["batch", "-", "--out", str(out), "--workers", "1", "--quiet"]) == 0
    assert "1 solved" in capsys.readouterr().out
    assert values(read_records(out)[0]) == expected(RECORD, "paranoid")


# ----- a Dask cluster ----------------------------------------------------------------


def test_dask_cluster_gives_the_local_results(tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    lines = tmp_path / "in.txt"
    lines.write_text("\n".join(positions(24, cards=6) + ["bad", RECORD]) + "\n")
    local = tmp_path / "local.jsonl"
    assert (
        cli.main(
            [
                "batch",
                str(lines),
                "--out",
                str(local),
                "--mode",
                "both",
                "--workers",
                "1",
                "--quiet",
            ]
        )
        == 0
    )
    with distributed.LocalCluster(
        n_workers=2,
        processes=True,
        threads_per_worker=1,
        dashboard_address=None,
    ) as cluster:
        remote = tmp_path / "remote.jsonl"
        assert (
            cli.main(
                [
                    "batch",
                    str(lines),
                    "--out",
                    str(remote),
                    "--mode",
                    "both",
                    "--scheduler",
                    cluster.scheduler_address,
                    "--chunk",
                    "3",
                    "--quiet",
                ]
            )
            == 0
        )
        with distributed.Client(cluster) as client:  # the work ran in the worker processes
            assert len(client.scheduler_info()["workers"]) == 2
    strip = lambda r: {k: v for k, v in r.items() if k not in ("nodes", "seconds")}  # noqa: E731
    assert {n: strip(r) for n, r in by_line(remote).items()} == {
        n: strip(r) for n, r in by_line(local).items()
    }
    assert len(by_line(remote)) == 26


def _children(pid: int) -> list[int]:
    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        out += [int(c) for c in (task / "children").read_text().split()]
    return out


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_a_killed_worker_stops_the_batch_cleanly_and_it_resumes(tmp_path):
    out = tmp_path / "out.jsonl"
    args = [
        "--random",
        "100",
        "--cards",
        "7",
        "--seed",
        "4",
        "--mode",
        "both",
        "--workers",
        "2",
        "--chunk",
        "2",
        "--out",
        str(out),
    ]
    process = subprocess.Popen(
        [sys.executable, "-m", "coins", "batch", "--quiet", *args],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and (not out.exists() or out.stat().st_size < 2000):
            time.sleep(0.05)
        # loky's workers are the grandchildren or children of the batch: kill one of them
        workers = [
            p
            for c in _children(process.pid)
            for p in [c, *_children(c)]
            if "loky" in Path(f"/proc/{p}/cmdline").read_text()
        ]
        assert workers
        os.kill(workers[-1], signal.SIGKILL)
        stdout, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 2, stderr
    assert stdout.startswith("stopped: ") and "run the same command again" in stderr
    finished = run_cli(args)
    assert finished.returncode == 0, finished.stderr
    assert sorted(by_line(out)) == list(range(1, 101))


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_disk_stops_with_one_clear_error(capsys):
    assert (
        cli.main(
            [
                "batch",
                "--random",
                "2",
                "--cards",
                "3",
                "--workers",
                "1",
                "--quiet",
                "--out",
                "/dev/full",
            ]
        )
        == 2
    )
    error = capsys.readouterr().err
    assert "cannot write the output /dev/full" in error and "No space left" in error
    assert "run the same command again" in error
