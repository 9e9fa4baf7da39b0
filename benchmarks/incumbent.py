"""The incumbent: the hint of a fixed commit, installed apart and played through a pipe.

A gauntlet compares a candidate with what the project played before, so the
incumbent must not move when the code does. ``install(commit)`` exports the
commit (``git archive``) into a temporary directory and installs it into a
virtual environment of its own under ``.gauntlet/`` (git ignores it), once;
``IncumbentBot`` starts ``incumbent_server.py`` with that environment's Python
and keeps it running, sending each view as a line of RULES.md notation and
reading back the card. Later changes to the working tree do not reach the
installed code: the two sides share only the notation.
"""

from __future__ import annotations

import atexit
import io
import random
import subprocess
import sys
import tarfile
import tempfile
import threading
from pathlib import Path

from solver import CoinsError, Position, Record
from solver.cards import Card

ROOT = Path(__file__).resolve().parent.parent
HOME = ROOT / ".gauntlet"
SERVER = Path(__file__).resolve().parent / "incumbent_server.py"
# The hint of main when the gauntlet was first run: the incumbent every candidate meets.
INCUMBENT_COMMIT = "a604a618c04049fed730ea4af037df679c8c6b70"
INSTALLED = "installed"  # the marker a finished installation leaves, holding the commit


class IncumbentError(CoinsError):
    """The incumbent could not be installed, or its process failed."""


def environment(commit: str = INCUMBENT_COMMIT) -> Path:
    """The directory of the commit's virtual environment."""
    return HOME / f"incumbent-{commit[:12]}"


def python_of(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")


def install(commit: str = INCUMBENT_COMMIT, log=print) -> Path:
    """The Python of a virtual environment holding ``commit``'s code, installed on
    first use (a minute or two, and a first compile of the kernels later)."""
    venv = environment(commit)
    marker = venv / INSTALLED
    if marker.exists() and marker.read_text().strip() == commit:
        return python_of(venv)
    log(f"installing the incumbent ({commit[:12]}) into {venv} ...")
    archive = _run(["git", "archive", "--format=tar", commit], cwd=ROOT).stdout
    with tempfile.TemporaryDirectory(prefix="incumbent-") as source:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(source, filter="data")
        _run([sys.executable, "-m", "venv", "--clear", str(venv)])
        _run([str(python_of(venv)), "-m", "pip", "install", "-q", source])
    marker.write_text(commit + "\n")
    return python_of(venv)


def _run(command: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(command, cwd=cwd, capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError) as error:
        detail = getattr(error, "stderr", b"") or b""
        raise IncumbentError(
            f"{' '.join(command[:3])} failed: {detail.decode(errors='replace')[-2000:] or error}"
        ) from None


class IncumbentBot:
    """The incumbent's hint as a player, with ``samples`` deals and ``time_limit``
    seconds a decision; ``python``: the interpreter to run the server with
    (default: the incumbent's environment, installed on first use). One
    process serves every seat and line-up; it ends with this program."""

    def __init__(
        self,
        samples: int,
        time_limit: float,
        seed: int = 1,
        *,
        commit: str = INCUMBENT_COMMIT,
        python: Path | str | None = None,
    ):
        self.commit = commit
        python = install(commit) if python is None else python
        self._lock = threading.Lock()
        self._process = subprocess.Popen(
            [str(python), "-I", str(SERVER)]
            + ["--samples", str(samples), "--time-limit", str(time_limit), "--seed", str(seed)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=tempfile.gettempdir(),  # away from the working tree, whose code must not load
        )
        atexit.register(self.close)
        if self._read() != "ready":
            raise IncumbentError("the incumbent's server did not start")

    def ask(self, view: Record) -> Card:
        """The incumbent's card for the seat to move in ``view``."""
        with self._lock:
            self._process.stdin.write(f"{view}\n")
            self._process.stdin.flush()
            answer = self._read()
        if answer.startswith("error:"):
            raise IncumbentError(f"the incumbent refused {view}: {answer}")
        return Card.parse(answer)

    def _read(self) -> str:
        line = self._process.stdout.readline()
        if not line:
            raise IncumbentError(f"the incumbent's server ended (status {self._process.poll()})")
        return line.strip()

    def choose_record(self, record: Record, seat: int, rng: random.Random) -> Card:
        cards = record.final.legal_cards()
        if len(cards) == 1:
            return cards[0]
        return self.ask(record.view(seat))

    def choose(self, position: Position, seat: int, rng: random.Random) -> Card:
        return self.choose_record(Record.of(position), seat, rng)

    def close(self) -> None:
        if self._process.poll() is None:
            self._process.stdin.close()
            self._process.wait(timeout=30)
