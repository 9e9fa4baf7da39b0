"""The threads that searches run on (lazy SMP: see ``ParanoidSearch``)."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait

import numpy as np

DEFAULT_THREADS = min(2, os.cpu_count() or 1)

_pool: ThreadPoolExecutor | None = None


def helper_pool() -> ThreadPoolExecutor:
    """The pool that runs the helper threads of every search (made on first use)."""
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(thread_name_prefix="coins-search")
    return _pool


def run_searches(search: Callable[[int], int], threads: int, stop: np.ndarray) -> list[int]:
    """``[search(0), ..., search(threads - 1)]``, run at once; each compiled
    search stops soon after ``stop[0]`` is set.

    A compiled search holds its thread until it returns, and Python handles
    Ctrl-C only in the main thread between bytecodes, so from the main thread
    every search runs in the pool while the main thread waits, where Ctrl-C
    reaches it: then ``stop`` is set, the searches wind up, and
    KeyboardInterrupt goes on up. Elsewhere (a worker thread: no Ctrl-C to
    catch) the calling thread runs ``search(0)`` itself.
    """
    if threading.current_thread() is not threading.main_thread():
        helpers = [helper_pool().submit(search, t) for t in range(1, threads)]
        return [search(0)] + [helper.result() for helper in helpers]
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
