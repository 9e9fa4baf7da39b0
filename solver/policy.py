"""``SearchPolicy``: every tuning constant of the searches, in one frozen object.

The searches read their thresholds and node allowances from the policy they
are given, never from module globals, so a test sets small thresholds to make
every path run on small positions, and a measurement compares two policies in
one process. The defaults are the measured best on the benchmark suites
(docs/experiments.md gives the figures).
The switches at the end turn speed-ups off, for tests and measurements.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from .cards import HAND_SIZE
from .errors import CoinsError


@dataclass(frozen=True)
class SearchPolicy:
    """How the paranoid and max^n searches spend their work.

    The paranoid search's games (``solver.paranoid``): in full deals every
    thread first plays the relaxed game, whose proofs are several times
    smaller; in smaller endings the exact search probes the pair's cards in
    the relaxed game instead; in large positions a test not answered soon is
    tried in the rank-free game, whose denials are real ones. Under a budget
    the seats take turns, and each turn's usual tests get a share of it.
    """

    # -- the relaxed game, played by every thread before the exact search --
    relaxed_first_min_cards: int = HAND_SIZE
    """From this many cards a hand (full deals)..."""
    relaxed_first_max_need: int = 1
    """... for tests of at most this many points (where proofs are dearest)."""

    # -- probes: the pair's later cards tried in the relaxed game first --
    probing_min_cards: int = 12
    """Positions from this many cards a hand (below ``relaxed_first_min_cards``) probe..."""
    probe_node_min_cards: int = 7
    """... at the pair's nodes where the searching seat holds this many cards or more."""

    # -- the rank-free game, tried on tests the real game does not answer soon --
    rank_free_min_cards: int = 14
    """From this many cards a hand..."""
    rank_free_max_need: int = 2
    """... for tests of at most this many points (tests of the ceiling: any)..."""
    rank_free_after_nodes: int = 1 << 25
    """... once the test has searched this many nodes without an answer..."""
    rank_free_nodes: int = 1 << 26
    """... with at most this many nodes for the try..."""
    ceiling_rank_free_nodes: int = 1 << 27
    """... or this many for a test of the ceiling (``lower_ceiling``)."""
    first_point_rank_free_nodes: int = 1 << 25
    """A test of the second point first spends up to this many nodes of the
    first point's rank-free try (a denial there settles the value at 0)."""

    # -- budgets --
    value_share: float = 1 / 4
    """Under a budget, the share of a seat's turn its usual tests get (the
    rest goes on tests from the top)..."""
    full_deal_value_share: float = 1 / 2
    """... and in full deals, where the tests start at the first point."""
    ordered_nodes: int = 1 << 26
    """Without a budget the seats go one after another up to this many
    nodes, then take turns in rounds of four times the nodes each."""

    # -- a table that may grow --
    growth_check_nodes: int = 1 << 25
    """A search in a table that may grow stops this often to see whether it is overfull..."""
    growth_time_margin: float = 2
    """... and grows it only if this many times the growth's expected
    seconds is left before the deadline."""

    # -- threads --
    busy_slots: int = 1 << 16
    """Slots (a power of two) where threads mark the nodes they are searching..."""
    busy_min_cards: int = 24
    """... for nodes with at least this many cards in the three hands."""

    # -- switches: speed-ups that tests and measurements turn off --
    use_table: bool = True
    """Store and probe the transposition table."""
    rank_equivalence: bool = True
    """Search one card of each run of equivalent cards."""
    relaxed_game: bool = True
    """Play the relaxed game (before the exact search, and in probes)."""
    maxn_pruning: bool = True
    """Prune the max^n search (shallow cuts and settled vectors)."""

    def __post_init__(self):
        for spec in fields(self):
            value = getattr(self, spec.name)
            if spec.type == "bool":
                if not isinstance(value, bool):
                    raise CoinsError(
                        f"search policy: {spec.name} must be True or False, not {value!r}"
                    )
            elif spec.type == "float":
                if (
                    isinstance(value, bool)
                    or not isinstance(value, (int, float))
                    or not 0 < value < float("inf")
                ):
                    raise CoinsError(
                        f"search policy: {spec.name} must be a positive number, not {value!r}"
                    )
            elif isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 1 << 62:
                raise CoinsError(
                    f"search policy: {spec.name} must be a whole number, 0 or more, not {value!r}"
                )
        for share in ("value_share", "full_deal_value_share"):
            if getattr(self, share) > 1:
                raise CoinsError(
                    f"search policy: {share} must be a share of 1 at most, "
                    f"not {getattr(self, share)!r}"
                )
        if self.busy_slots < 1 or self.busy_slots & (self.busy_slots - 1):
            raise CoinsError(
                f"search policy: busy_slots must be a power of two, not {self.busy_slots!r}"
            )


DEFAULT_POLICY = SearchPolicy()


def checked_policy(policy) -> SearchPolicy:
    """``policy``, or the default for None; anything else is refused."""
    if policy is None:
        return DEFAULT_POLICY
    if not isinstance(policy, SearchPolicy):
        raise CoinsError(f"policy must be a SearchPolicy, not {type(policy).__name__}")
    return policy
