"""The model of the next hands (RULES.md, "Values of a position in a match").

When a hand ends with no seat at the target, the match-aware value reads a
table: each seat's chance of winning the match from the needs at the start
of a hand and the seat that leads it. Needs rather than scores make one
table serve every target up to its size. ``training/make_next_hands.py``
makes it by simulation (greedy self-play hands, walked trick by trick) from
a seed; it ships as ``next_hands.npz`` and is loaded once.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np

from . import _kernels as k
from .errors import CoinsError

TABLE_FILE = "next_hands.npz"
# the compiled search keys needs in 6 bits and reads the table at most 12 below a need
MOST_NEED = 63 - 12


@dataclass(frozen=True, eq=False)
class NextHands:
    """``chances[a - 1, b - 1, c - 1]``: the chances of the leader, the next seat
    and the third when they need a, b and c points (1 to ``most``); a need
    above ``most`` reads as ``most``. ``stderr_max``: the largest standard
    error of the simulation (see the script)."""

    chances: np.ndarray
    stderr_max: float = float("nan")

    @property
    def most(self) -> int:
        return self.chances.shape[0]

    @classmethod
    def load(cls, path=None) -> NextHands:
        """The table in ``path`` (an ``.npz`` with ``chances``), by default the shipped one."""
        source = resources.files(__package__).joinpath(TABLE_FILE) if path is None else path
        with source.open("rb") if path is None else open(path, "rb") as file:
            with np.load(file) as data:
                chances = np.ascontiguousarray(data["chances"], dtype=np.float64)
                stderr = float(data["stderr_max"]) if "stderr_max" in data else float("nan")
        most = chances.shape[0]
        if chances.shape != (most, most, most, 3) or not 1 <= most <= MOST_NEED:
            raise CoinsError(
                f"next-hands table: shape {chances.shape}, expected (n, n, n, 3) "
                f"with n from 1 to {MOST_NEED}"
            )
        if (
            not np.all(np.isfinite(chances))
            or chances.min() < 0
            or not np.allclose(chances.sum(axis=3), 1, atol=1e-5)
        ):
            raise CoinsError("next-hands table: every row must be three chances adding up to 1")
        # stored as float32: make each row add up to 1 in float64
        return cls(chances / chances.sum(axis=3, keepdims=True), stderr)

    def chances_of(self, needs, leader: int) -> tuple[float, float, float]:
        """Seats 0, 1, 2's chances at the start of a hand ``leader`` leads, with
        ``needs`` (each at least 1)."""
        if any(n < 1 for n in needs):
            raise CoinsError(f"needs {tuple(needs)}: a seat that needs nothing has won already")
        return tuple(float(c) for c in k.next_hand_chances(*needs, leader, self.chances))


@cache
def default_table() -> NextHands:
    """The shipped table, loaded once."""
    return NextHands.load()
