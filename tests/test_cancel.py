"""``solver.threads.Cancel``: solves on a worker thread stopped from another thread,
as Ctrl-C stops them on the main thread (what a server's cancel button needs)."""

from __future__ import annotations

import threading
import time

import pytest

from solver import Position, SolveInterrupted, solve
from solver.threads import Cancel

# a full deal (RULES.md's example): far beyond what a solve finishes in the test's time
FULL_DEAL = "982.J8732.K95.AJ542 KNJ7543.96.AN874.96 A6.AKN54.J632.KN873 0 -"


def solve_on_a_thread(cancel: Cancel, position: str, **options) -> dict:
    outcome: dict = {}

    def work():
        with cancel.watching():
            try:
                outcome["result"] = solve(position, **options)
            except SolveInterrupted as stop:
                outcome["interrupted"] = stop.result

    thread = threading.Thread(target=work)
    thread.start()
    return {"thread": thread, "outcome": outcome}


@pytest.mark.parametrize("mode", ["paranoid", "maxn"])
def test_cancel_stops_a_long_solve_with_what_it_proved(mode):
    cancel = Cancel()
    running = solve_on_a_thread(cancel, FULL_DEAL, mode=mode, time_limit=120)
    time.sleep(0.5)
    started = time.perf_counter()
    cancel.set()
    running["thread"].join(timeout=30)
    assert not running["thread"].is_alive()
    assert time.perf_counter() - started < 10, "the search stopped soon after the cancel"
    result = running["outcome"]["interrupted"]
    assert result.interrupted and not result.exact


def test_a_cancel_set_before_the_solve_stops_it_at_once():
    cancel = Cancel()
    cancel.set()
    running = solve_on_a_thread(cancel, FULL_DEAL, time_limit=120)
    running["thread"].join(timeout=30)
    assert running["outcome"]["interrupted"].interrupted


def test_an_unset_cancel_changes_nothing():
    ending = "7...2 K.3.. J.6.. 0 - 0,1,0"  # solver/__init__.py's doctest: [0, 0, 2]
    running = solve_on_a_thread(Cancel(), ending)
    running["thread"].join(timeout=60)
    result = running["outcome"]["result"]
    assert result.exact and result.guaranteed == solve(Position.parse(ending)).guaranteed == [
        0,
        0,
        2,
    ]
