"""Shared test set-up: where the public vectors live, and the ``slow`` marker.

Tests marked ``@pytest.mark.slow`` run with the rest (CI runs everything);
``pytest -m "not slow"`` leaves them out for a quick local run. The public vectors sit in ``shared/vectors`` beside the
repository root (in CI as in development).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
VECTORS = Path(__file__).resolve().parents[2] / "shared" / "vectors"

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


def vector_path(name: str) -> Path:
    path = VECTORS / name
    if not path.is_file():
        pytest.fail(f"test vectors not found: {path} (shared/ must sit beside the repo root)")
    return path


def load_jsonl(name: str) -> list[dict]:
    """The records of ``shared/vectors/<name>``, one JSON object a line."""
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
