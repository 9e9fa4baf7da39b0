"""How far exact search reaches: the hand sizes up to which the analyses solve
exactly, and estimate beyond.

Every analysis that chooses between the exact searches and the estimates reads
its threshold here, from ``EXACT_REACH``. Each is a trade-off between time and
proof measured on the benchmarks (docs/experiments.md): change one only with
the benchmark of its analysis (``benchmarks.evaluator``, ``benchmarks.review``,
``benchmarks.hint_quality``) before and after.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True)
class ExactReach:
    """The most cards a hand that each analysis solves exactly (frozen: read,
    never changed in place). Points are max^n points, guaranteed points the
    paranoid value, chances the chances of winning a match."""

    # -- hint: a deal is solved exactly while that takes milliseconds, so that a
    # second of hint still values a hundred deals or more --
    hint_points: int = 6
    """A sampled deal's max^n points exactly up to here, the playouts or the network beyond."""
    hint_guaranteed: int = 8
    """The same for guaranteed points: the paranoid search of one seat is the faster."""
    hint_chances: int = 5
    """The same for chances: a 5-card match-aware search takes milliseconds, 6 a tenth of a second."""

    # -- estimate: the exact search first, the deepening with the network after --
    estimate_points: int = 9
    """Max^n tried exactly up to here: beyond, it rarely finishes within seconds."""
    estimate_chances: int = 7
    """Chances tried exactly up to here: the match-aware search is slower than max^n."""
    estimate_exact_share: Mapping[int, float] = field(
        default_factory=lambda: MappingProxyType({7: 0.8, 8: 0.5, 9: 0.75})
    )
    """The exact try's share of the time at each size (all of it at others): the
    deepening needs the rest when the exact search does not finish (at 9 cards a
    two-trick search fits in the last quarter of a second)."""

    # -- analyze and review: a decision is solved exactly within its share of the budget --
    analyze_points: int = 9
    """Analyze values both modes exactly up to here (the default of ``--exact-cards``)."""
    decision_chances: int = 6
    """Analyze and review search a decision's chances exactly up to here, estimate beyond."""

    def __post_init__(self):
        shares = MappingProxyType(dict(self.estimate_exact_share))  # a copy no caller can change
        object.__setattr__(self, "estimate_exact_share", shares)

    def estimate_share(self, cards: int) -> float:
        """The share of an estimate's time its exact search takes at ``cards`` a hand."""
        return self.estimate_exact_share.get(cards, 1.0)


EXACT_REACH = ExactReach()
