"""Whether the compiled kernels are ready, so frontends can warn before the first compile.

Numba compiles the kernels on their first call and caches the machine code
on disk (``cache=True``, in ``__pycache__`` next to ``_kernels.py`` or in
``NUMBA_CACHE_DIR``). The first solve after an install, or after the kernels
change, pays for that compile; every later process loads the cache. Rather
than guess from file names, ``is_compiled`` asks each kernel's own cache
whether it holds an entry Numba would load: same Numba version, same source
file stamp, same bytecode and this machine's CPU.
"""

from __future__ import annotations

import time

import numpy as np
from numba.core.dispatcher import Dispatcher

from . import _kernels, _policy_kernels
from .card_policy import default_policy
from .evaluator import search_card_results
from .match_values import solve_match
from .position import Position
from .solve import solve
from .table import TranspositionTable

# Seconds a cold compile of KERNELS takes on the 2-core development machine, idle
# and busy, for the notices (``python -m benchmarks.solver`` measures it: its
# "compile" line); 17 s and 62 s were seen with other work running.
COMPILE_SECONDS = 20
COMPILE_SECONDS_BUSY = 60
COMPILE_TIME = f"about {COMPILE_SECONDS} s, up to {COMPILE_SECONDS_BUSY} s on a busy machine"

# The kernels the packages call from Python (``solve``, the hints' playouts,
# the estimates, the match-aware search and the card policy); the ones they call are compiled into them and come back
# from the cache with them.
KERNELS = (
    _kernels.paranoid_search,
    _kernels.maxn_search,
    _kernels.representative_of,
    _kernels.move_entries,
    _kernels.move_score,
    _kernels.play_until,
    _kernels.greedy_card,
    _kernels.greedy_places,
    _kernels.greedy_step,
    _kernels.greedy_reply,
    _kernels.estimate_search,
    _kernels.match_search,
    _policy_kernels.card_values,
    _policy_kernels.policy_card,
    _policy_kernels.policy_play_until,
)

# A small position whose solve goes through every search kernel (values, card values, line).
_WARM_UP_POSITION = "7...2 K.3.. J.6.. 0 - 0,1,0"
_SMALLEST_MB = 1 / 2048  # a table of 32 slots, to compile ``move_entries`` on


def is_compiled(kernels=KERNELS) -> bool:
    """True when no kernel in ``kernels`` will compile on its next call.

    That is, each one is compiled in this process already or has a cache
    entry that Numba will load. Always True under ``NUMBA_DISABLE_JIT=1``,
    where the kernels are plain Python.
    """
    return all(_kernel_ready(kernel) for kernel in kernels)


def _kernel_ready(kernel) -> bool:
    if not isinstance(kernel, Dispatcher):
        return True
    if kernel.overloads:
        return True
    # Numba has no public API for this; these are the calls its own cache
    # lookup makes (Cache.load_overload), minus loading the machine code.
    try:
        cache = kernel._cache
        index = cache._cache_file._load_index()  # {} when missing or stale
        codegen = kernel.targetctx.codegen()
        return any(key == cache._index_key(key[0], codegen) for key in index)
    except AttributeError:  # a Numba whose internals moved: say "not compiled"
        return False


_warm = False


def warm_up() -> float:
    """Compile the kernels (or load them from the cache); return the seconds it took."""
    global _warm
    start = time.perf_counter()
    solve(_WARM_UP_POSITION, mode="both")
    search_card_results(Position.parse(_WARM_UP_POSITION), 1)
    solve_match(_WARM_UP_POSITION, 15)
    TranspositionTable(_SMALLEST_MB, grow_to=2 * _SMALLEST_MB).grow(_kernels.PARANOID_BUCKET)
    # the playouts, with the argument types ``solver.playouts`` passes
    hands = Position.parse(_WARM_UP_POSITION).hands
    policy = np.array([0.5, 0.0, 0.0])
    _kernels.play_until(*hands, 0, -1, -1, 0, policy, policy, 0, 1)
    _kernels.greedy_card(hands[0], -1, -1, 0)
    lowest = (hands[0] & -hands[0]).bit_length() - 1
    _kernels.greedy_step(*hands, 0, -1, -1, 0, lowest, 0)
    _kernels.greedy_reply(*hands, 0, -1, -1, 0, 0)
    _kernels.greedy_places(
        np.array([hands], dtype=np.int64), np.zeros((0, 5), np.int64), np.zeros((1, 0), np.int64)
    )
    policy = default_policy()
    policy.values(Position.parse(_WARM_UP_POSITION))
    policy.play_until(Position.parse(_WARM_UP_POSITION))  # with it, policy_card
    _warm = True
    return time.perf_counter() - start


def ensure_compiled() -> None:
    """Compile or load every kernel once in this process (``warm_up``), so that a
    timed call after it does not pay for that inside its budget."""
    if not _warm:
        warm_up()
