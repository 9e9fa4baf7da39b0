"""``benchmarks.board``'s load test: a burst of requests at once comes back whole."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
pytest.importorskip("uvicorn", reason="the web extra is not installed: pip install '.[web]'")

from benchmarks.board import load  # noqa: E402
from coins.web.local import served  # noqa: E402


def test_a_hundred_requests_at_once_all_come_back_right():
    with served(time_limit=20.0) as board:
        result = load(board, requests=100, timeout=120)
    assert result["answered"] == result["right"] == 100, result
    assert result["statuses"] == [200]
