"""The threads that searches run on (how they share the work: see
``ParanoidSearch`` and ``maxn._MaxnSearch``), under the caller's node and
time budget."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor, wait
from contextlib import contextmanager
from typing import TypeVar

import numpy as np

DEFAULT_THREADS = min(2, os.cpu_count() or 1)

T = TypeVar("T")

_pool: ThreadPoolExecutor | None = None


class BudgetExhausted(Exception):
    """Raised when a search's node or time budget is spent before it answers."""


class Cancel:
    """Stops, from any thread, the searches of a thread that is not the main
    one, as Ctrl-C stops the main thread's: ``cancel.set()`` sets their stop
    flags, and each search of the thread inside ``with cancel.watching():``
    winds up and raises KeyboardInterrupt (``solve`` then raises
    ``SolveInterrupted`` with what was proven). A server runs each request's
    solves so, to cancel them on the user's word."""

    def __init__(self):
        self._lock = threading.Lock()
        self._stops: list[np.ndarray] = []
        self.is_set = False

    def set(self) -> None:
        with self._lock:
            self.is_set = True
            for stop in self._stops:
                stop[0] = 1

    @contextmanager
    def watching(self) -> Iterator[Cancel]:
        """The searches this thread runs within the block stop on ``set``."""
        _watched.cancel = self
        try:
            yield self
        finally:
            _watched.cancel = None

    @contextmanager
    def _stopping(self, stop: np.ndarray) -> Iterator[None]:
        """``set`` fills ``stop`` within the block; raises KeyboardInterrupt
        before and after it once set."""
        with self._lock:
            if self.is_set:
                raise KeyboardInterrupt
            self._stops.append(stop)
        try:
            yield
        finally:
            with self._lock:
                self._stops.remove(stop)
        if self.is_set:
            raise KeyboardInterrupt


_watched = threading.local()  # .cancel: the Cancel the thread's searches watch


def helper_pool() -> ThreadPoolExecutor:
    """The pool that runs the helper threads of every search (made on first use)."""
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(thread_name_prefix="coins-search")
    return _pool


def per_thread_counters(threads: int, size: int) -> np.ndarray:
    """A ``(threads, size)`` int64 array whose rows lie a few cache lines
    apart: when two cores bump counters that share a cache line, each bump
    fetches the line back from the other core (false sharing)."""
    return np.zeros((threads, size + 64), dtype=np.int64)[:, :size]


def nothing_left(nodes_left: int | None, threads: int, deadline: float | None) -> bool:
    """Is a budget too small for a search to start: under a node a thread, or
    past ``deadline`` (a ``time.perf_counter()`` value)?"""
    return (nodes_left is not None and nodes_left // threads <= 0) or (
        deadline is not None and time.perf_counter() >= deadline
    )


def run_searches(
    search: Callable[[int, int, np.ndarray], int],
    threads: int,
    nodes_left: int | None,
    deadline: float | None,
) -> list[int]:
    """``[search(t, budget, stop) for t in range(threads)]``, run at once.

    Each compiled search gets an equal share of ``nodes_left`` (``budget``;
    0: no limit) and stops soon after ``stop[0]`` is set: by the search that
    answers first, by a timer at ``deadline`` (a ``time.perf_counter()``
    value), by Ctrl-C, or by the thread's ``Cancel``. Raises BudgetExhausted
    when nothing is left to spend.

    A compiled search holds its thread until it returns, and Python handles
    Ctrl-C only in the main thread between bytecodes, so from the main thread
    every search runs in the pool while the main thread waits, where Ctrl-C
    reaches it: then ``stop`` is set, the searches wind up, and
    KeyboardInterrupt goes on up. Elsewhere (a worker thread: no Ctrl-C to
    catch) the calling thread runs the first search itself.
    """
    if nothing_left(nodes_left, threads, deadline):
        raise BudgetExhausted
    budget = 0 if nodes_left is None else nodes_left // threads
    stop = np.zeros(1, dtype=np.int64)
    timer = None
    if deadline is not None:
        timer = threading.Timer(deadline - time.perf_counter(), stop.fill, (1,))
        timer.daemon = True
        timer.start()
    cancel = getattr(_watched, "cancel", None)
    try:
        if cancel is None:
            return _run_all(lambda t: search(t, budget, stop), threads, stop)
        with cancel._stopping(stop):
            return _run_all(lambda t: search(t, budget, stop), threads, stop)
    finally:
        if timer is not None:
            timer.cancel()


def on_threads(work: Callable[[int], T], threads: int) -> list[T]:
    """``[work(t) for t in range(threads)]``, run at once: the calling thread
    runs ``work(0)``, the helper pool the rest."""
    helpers = [helper_pool().submit(work, t) for t in range(1, threads)]
    return [work(0)] + [helper.result() for helper in helpers]


def _run_all(search: Callable[[int], int], threads: int, stop: np.ndarray) -> list[int]:
    if threading.current_thread() is not threading.main_thread():
        return on_threads(search, threads)
    running = [helper_pool().submit(search, t) for t in range(threads)]
    try:
        # short waits: a signal may land on another thread, and the main
        # thread only raises KeyboardInterrupt once it runs Python again
        while wait(running, timeout=0.2).not_done:
            pass
        return [future.result() for future in running]
    except KeyboardInterrupt:
        stop[0] = 1
        for future in running:
            future.exception()  # wait for it to stop
        raise
