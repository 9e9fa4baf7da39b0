"""Shared test set-up: the test vectors (``tests/vectors``), and the ``slow`` marker.

Tests marked ``@pytest.mark.slow`` run with the rest (CI runs everything);
``pytest -m "not slow"`` leaves them out for a quick local run.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
VECTORS = TESTS / "vectors"

# ``import naive`` and ``import solver`` work whatever pytest's import mode.
for _path in (str(TESTS), str(ROOT)):
    if _path not in sys.path:
        sys.path.insert(0, _path)

try:  # no example database in the work tree, no per-example deadline on a shared machine
    from hypothesis import settings

    settings.register_profile("coins", database=None, deadline=None, print_blob=True)
    settings.load_profile("coins")
except ImportError:  # pragma: no cover - hypothesis is a test dependency
    pass


def pytest_configure(config):
    config.addinivalue_line(
        "markers", 'slow: a long test (CI runs it; -m "not slow" leaves it out locally)'
    )
    config.addinivalue_line(
        "markers",
        "needs_dot: draws with Graphviz's dot (skipped with a reason where it is missing)",
    )


def missing_dot_reason() -> str | None:
    """Why a ``needs_dot`` test cannot run here, or None when it can. CI
    installs Graphviz (.ci/run) and sets ``CI``: there a missing dot is a
    failure to see, not a skip."""
    if shutil.which("dot") is not None or os.environ.get("CI"):
        return None
    return "Graphviz's dot is not installed (apt-get install graphviz); CI installs it"


def pytest_runtest_setup(item):
    if item.get_closest_marker("needs_dot"):
        reason = missing_dot_reason()
        if reason:
            pytest.skip(reason)


def vector_path(name: str) -> Path:
    return VECTORS / name


def load_jsonl(name: str) -> list[dict]:
    """The records of ``tests/vectors/<name>``, one JSON object a line."""
    lines = vector_path(name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def load_invalid() -> list[tuple[str, str]]:
    """``invalid.txt`` as (string, reason): the string is everything before the tab."""
    out = []
    for line in vector_path("invalid.txt").read_text(encoding="utf-8").split("\n"):
        if not line:
            continue
        text, _, reason = line.partition("\t")
        out.append((text, reason))
    return out


@pytest.fixture
def coins(capsys, monkeypatch):
    """Run ``coins`` in this process (wide, so tables do not wrap): (status, out, err)."""
    from coins import cli

    monkeypatch.setenv("COLUMNS", "160")

    def run(*argv):
        status = cli.main(list(argv))
        out, err = capsys.readouterr()
        return status, out, err

    return run


@pytest.fixture(autouse=True)
def fixed_terminal(monkeypatch):
    """Every test, and every command it runs, sees the same 160-column terminal, so
    that tables wrap alike whatever terminal runs the suite (a test may set its own)."""
    monkeypatch.setenv("COLUMNS", "160")
    monkeypatch.setenv("TERM", "xterm")


@pytest.fixture(autouse=True)
def fresh_boundary_tables():
    """Every test starts with empty tables of trick boundaries, as a new process
    does: what an earlier test's searches left there would change the nodes a
    search takes, and so what a node budget reaches."""
    from solver.evaluator import forget_tables

    forget_tables()
