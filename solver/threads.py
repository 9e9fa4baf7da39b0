"""The threads that searches run on (lazy SMP: see ``ParanoidSearch``)."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

DEFAULT_THREADS = min(2, os.cpu_count() or 1)

_pool: ThreadPoolExecutor | None = None


def helper_pool() -> ThreadPoolExecutor:
    """The pool that runs the helper threads of every search (made on first use)."""
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(thread_name_prefix="coins-search")
    return _pool
