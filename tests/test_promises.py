"""The command line's promises on a busy machine, on Ctrl-C and when the disk says no
(issue 57): an output that cannot be written, a port that is taken, Ctrl-C
and contradictory options each end in one line on stderr and the exit
status README lists, never a traceback, and Ctrl-C keeps what was done.

Each command runs in a child process (the real streams and exit status).
Ctrl-C is sent once the child says it has done some work, never after a
guessed time, so a busy machine changes how long a test takes, not its verdict.
"""

from __future__ import annotations

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

from coins import cli
from coins.cli import OUTPUT_FAILED

REPO = Path(__file__).resolve().parents[1]
ENDING = "J9.J4..52 .K75.6.N8 A753.8.5. 0 -"
VIEW = "876.J8.ANJ864.A8542 ? ? 0 -"


def run_coins(*argv, stdout=subprocess.PIPE, **options) -> subprocess.CompletedProcess:
    """``python -m coins ARGV`` in a child process."""
    return subprocess.run(
        [sys.executable, "-m", "coins", *argv], stdout=stdout, stderr=subprocess.PIPE, text=True,
        cwd=REPO, env=dict(os.environ, NO_COLOR="1"), timeout=300, **options,
    )  # fmt: skip


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
        done = run_coins("study", "--count", "3", "--cards", "2", "--workers", "1", "--quiet",
                         "--out", str(out), stdout=full)  # fmt: skip
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
    assert line.startswith(f"coins: error: port {port} on 127.0.0.1 is taken")
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
    assert cli.version() == f"{installed} (source tree, not installed)"
