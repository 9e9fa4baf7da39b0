"""Transposition tables: arrays of two int64 words a slot.

A slot is 16 bytes: ``_kernels.relative_key`` names a position exactly in
84 bits (which seat holds each live card, per suit as a base-3 number), so
one word holds the 24-bit half of the key with a 32-bit data word, and the
other the 60-bit half XOR that word. The table is a power of two of slots
and the searches probe four slots from a multiple of four: one 64-byte cache
line, which holds more entries per memory access than wider slots did. What
the data word means is the searching kernel's business (bounds for the paranoid search, a value
vector for max^n: their keys never collide, since the key names the
searching seat, or 3 for max^n). The memory is asked for
on huge pages where the system allows it: the searches probe the table at
random, and with 4 KiB pages most probes would also miss the TLB.
"""

from __future__ import annotations

import mmap
import os
import time

import numpy as np

from ._kernels import move_entries
from .cards import HAND_SIZE
from .errors import OptionError
from .threads import on_threads

SLOT_WORDS = 2
SLOT_BYTES = SLOT_WORDS * 8
# the most a table grows to (``grown_table_megabytes``): an ending's, a full deal's
GROWN_MB, DEAL_GROWN_MB = 512, 4096
# from this many cards a hand a table may grow as far as a full deal's: a full
# deal's searches, or one trick into one
DEAL_GROWTH_MIN_CARDS = HAND_SIZE - 1
# Seconds a growth takes per MiB of the new table, until a growth is timed:
# a little over the most measured, in a virtual machine whose memory is
# backed as it is first touched
GROWTH_SECONDS_PER_MB = 0.003


def allocate_slots(megabytes: float) -> np.ndarray:
    """A zeroed ``(entries, SLOT_WORDS)`` int64 array of at most ``megabytes`` MiB,
    ``entries`` a power of two (an all-zero slot is empty)."""
    check_megabytes(megabytes)
    entries = int(megabytes * 2**20 / SLOT_BYTES)
    size = 1 << max(entries.bit_length() - 1, 4)
    nbytes = size * SLOT_BYTES
    try:
        # anonymous memory comes zeroed and is only backed as it is touched
        memory = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    except (AttributeError, OSError):  # no anonymous mmap here: plain numpy
        return np.zeros((size, SLOT_WORDS), dtype=np.int64)
    if hasattr(mmap, "MADV_HUGEPAGE"):
        memory.madvise(mmap.MADV_HUGEPAGE)
    return np.frombuffer(memory, dtype=np.int64).reshape(size, SLOT_WORDS)


def check_megabytes(megabytes) -> float:
    """``megabytes`` if it is a table size: above 0 and no larger than the
    machine's memory (``OptionError`` otherwise). The slots are only backed as
    the search touches them, so a larger table would be granted and the search
    killed for want of memory later."""
    if isinstance(megabytes, bool) or not isinstance(megabytes, (int, float)) or not megabytes > 0:
        raise OptionError(f"transposition table size must be positive, not {megabytes!r} MiB")
    memory = memory_megabytes()
    if memory is not None and megabytes > memory:
        raise OptionError(
            f"a transposition table of {megabytes} MiB does not fit in "
            f"this machine's {memory} MiB of memory"
        )
    return megabytes


def memory_megabytes() -> int | None:
    """The machine's memory in MiB, or None where the system does not say."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2**20
    except (AttributeError, ValueError, OSError):
        return None


class TranspositionTable:
    """A transposition table of a fixed size in MiB, or one that may grow.

    Entries are exact facts about positions (not about the root that reached
    them), so one table serves any number of searches, and several search
    threads at once. A table made with ``grow_to`` may be doubled, up to
    that many MiB (``grow``), when the searches have written many new
    entries (``overfull``): the paranoid search does so, for proofs too
    large to keep (heavy searches from 12 cards a hand on).
    """

    DEFAULT_MB = 256

    def __init__(self, megabytes: float | None = None, grow_to: float | None = None):
        self.megabytes = self.DEFAULT_MB if megabytes is None else megabytes
        self.slots = allocate_slots(self.megabytes)
        if grow_to is not None:
            check_megabytes(grow_to)
        self.grow_to = grow_to
        self.written = 0  # new entries written since the table took its size
        self.growth_seconds_per_mb = GROWTH_SECONDS_PER_MB  # as the last growth took

    @property
    def entries(self) -> int:
        return self.slots.shape[0]

    @property
    def can_grow(self) -> bool:
        return self.grow_to is not None and self.grow_to > self.megabytes

    @property
    def overfull(self) -> bool:
        """Have the searches written new entries for a quarter of the slots?
        Replacements then begin to lose proofs (docs/experiments.md has the
        thresholds measured)."""
        return self.written * 4 >= self.entries

    @property
    def grown_megabytes(self) -> float:
        """The size ``grow`` goes to: twice this one, at most ``grow_to``."""
        return min(self.grow_to, 2 * self.megabytes)

    @property
    def growth_seconds(self) -> float:
        """About how long ``grow`` would take now: as long a MiB of the new
        table as the last growth took."""
        return self.growth_seconds_per_mb * self.grown_megabytes

    def grow(self, bucket: int, threads: int = 1) -> None:
        """Move every entry into a table twice the size, at most ``grow_to``
        MiB (``bucket`` slots a bucket, as the searches probe it): none is
        lost. Doubling, rather than going straight to ``grow_to``, takes only
        the memory a search has shown it needs.

        ``threads`` share out the old table's buckets. Most of a growth's time
        can be the first touch of the new memory, which they share too."""
        start = time.perf_counter()
        megabytes = self.grown_megabytes
        slots = allocate_slots(megabytes)
        buckets = self.entries // bucket
        bounds = [bucket * (buckets * share // threads) for share in range(threads + 1)]
        on_threads(
            lambda share: move_entries(self.slots, slots, bucket, bounds[share], bounds[share + 1]),
            threads,
        )
        self.slots, self.megabytes, self.written = slots, megabytes, 0
        self.growth_seconds_per_mb = (time.perf_counter() - start) / megabytes

    def clear(self) -> None:
        self.slots[:] = 0
        self.written = 0


_shared: dict[type, TranspositionTable] = {}


def shared_table(
    kind: type[TranspositionTable], megabytes: int, grow_to: int | None = None
) -> TranspositionTable:
    """The ``kind`` of table the solvers use unless lent one: made on first use
    and replaced by a larger one only when a search needs more ``megabytes``;
    each search may grow it to its own ``grow_to`` MiB."""
    table = _shared.get(kind)
    if table is None or table.megabytes < megabytes:
        table = _shared[kind] = kind(megabytes, grow_to)
    table.grow_to = grow_to
    return table


def clear_shared_tables() -> None:
    """Empty the solvers' shared tables, as a new process finds them: for runs
    whose node counts must not depend on what earlier searches left there."""
    for table in _shared.values():
        table.clear()


def grown_table_megabytes(cards_per_hand: int) -> int:
    """How large a table may grow: 512 MiB (32 Mi slots) for an ending, or an
    eighth of the memory of a smaller machine, and 4 GiB for a full deal, or
    a quarter of the memory.

    Endings: the heaviest searches take fewer nodes and less time in 32 Mi
    slots than in 16 Mi; twice as many saved few nodes, and random probes
    over more memory are slower. Full deals: a proof that a seat can score
    stores far more positions than an ending's table holds; full deals the
    search finishes in seconds never fill their first 256 MiB, so they do
    not grow. (docs/experiments.md has the figures.)
    """
    memory = memory_megabytes() or 8 * DEAL_GROWN_MB  # not known: assume enough
    most, share = (DEAL_GROWN_MB, 4) if cards_per_hand >= DEAL_GROWTH_MIN_CARDS else (GROWN_MB, 8)
    return max(TranspositionTable.DEFAULT_MB, min(most, memory // share))
