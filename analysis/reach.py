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

    # hint: every sampled deal is solved exactly only while that takes milliseconds,
    # so that a second of hint still values a hundred deals or more
    hint_points: int = 6
    hint_guaranteed: int = 8  # the paranoid search of one seat is the faster
    hint_chances: int = 5  # a 5-card match-aware search takes milliseconds, 6 a tenth of a second
    # estimate: the exact search is tried first up to this size (beyond it, it rarely
    # finishes within seconds), with a share of the time
    estimate_points: int = 9
    estimate_chances: int = 7  # the match-aware search is slower than max^n
    # the share of its time limit the estimate's exact try takes at each size
    # (all of it at sizes not listed): the deepening needs the rest when it fails
    estimate_exact_share: Mapping[int, float] = field(
        default_factory=lambda: MappingProxyType({7: 0.8, 8: 0.5, 9: 0.4})
    )
    analyze_points: int = 9  # analyze: both modes exactly up to here (the --exact-cards default)
    # analyze and review: a decision's chances searched exactly within its share of the budget
    decision_chances: int = 6

    def __post_init__(self):
        shares = MappingProxyType(dict(self.estimate_exact_share))  # a copy no caller can change
        object.__setattr__(self, "estimate_exact_share", shares)

    def estimate_share(self, cards: int) -> float:
        """The share of an estimate's time its exact search takes at ``cards`` a hand."""
        return self.estimate_exact_share.get(cards, 1.0)


EXACT_REACH = ExactReach()
