"""Transposition tables: fixed-size arrays of four int64 words a slot.

A slot holds two key words (``_kernels.relative_key``), a data word and a
spare one that keeps slots 32 bytes wide: the table is a power of two of
slots, the searches probe two or four slots from an even index, and so
every probe of the paranoid search reads one 64-byte cache line. With
24-byte slots half of them read two; 32 measured 5% faster, with the same
number of slots in a table of a power-of-two MiB. What the data word means
is the searching kernel's business (bounds for the paranoid search, a value
vector for max^n: their keys never collide, since the key names the
searching seat, or 3 for max^n). The memory is asked for
on huge pages where the system allows it: the searches probe the table at
random, and with 4 KiB pages most probes would also miss the TLB.
"""

from __future__ import annotations

import mmap

import numpy as np

from .errors import CoinsError

SLOT_WORDS = 4
SLOT_BYTES = SLOT_WORDS * 8


def allocate_slots(megabytes: float) -> np.ndarray:
    """A zeroed ``(entries, SLOT_WORDS)`` int64 array of at most ``megabytes`` MiB,
    ``entries`` a power of two (an all-zero slot is empty)."""
    if not isinstance(megabytes, (int, float)) or not megabytes > 0:
        raise CoinsError(f"transposition table size must be positive, not {megabytes!r} MiB")
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


class TranspositionTable:
    """A transposition table of a fixed size in MiB; its memory never grows.

    Entries are exact facts about positions (not about the root that reached
    them), so one table serves any number of searches, and several search
    threads at once.
    """

    DEFAULT_MB = 256

    def __init__(self, megabytes: float | None = None):
        self.megabytes = self.DEFAULT_MB if megabytes is None else megabytes
        self.slots = allocate_slots(self.megabytes)

    @property
    def entries(self) -> int:
        return self.slots.shape[0]

    def clear(self) -> None:
        self.slots[:] = 0


_shared: dict[type, TranspositionTable] = {}


def shared_table(kind: type[TranspositionTable], megabytes: int) -> TranspositionTable:
    """The ``kind`` of table the solvers use unless lent one: made on first use
    and replaced by a larger one only when a search needs more ``megabytes``."""
    table = _shared.get(kind)
    if table is None or table.megabytes < megabytes:
        table = _shared[kind] = kind(megabytes)
    return table
