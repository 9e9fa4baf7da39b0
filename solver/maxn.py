"""Equilibrium (max^n) values: the public, validating face of the compiled search.

RULES.md: every seat, at every turn, plays to maximise its own points from
that decision to the end of the hand; among cards that give the mover the
same own points it takes the one after which the larger of its opponents'
points (from that decision on) is smallest, then the first in index order.
``solve_maxn`` finds the equilibrium vector, every card's result for the seat
to move and the equilibrium line to the end of the hand.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from . import _kernels as k
from . import checks
from .cards import SUIT_MASKS, Card, cards_in
from .errors import CoinsError
from .policy import SearchPolicy, checked_policy
from .position import Position
from .table import TranspositionTable, shared_table
from .threads import DEFAULT_THREADS, BudgetExhausted, per_thread_counters, run_searches


class MaxnTable(TranspositionTable):
    """The max^n table: same slots, a smaller default. A slot's data word holds
    the exact vector (4 bits a seat), whether it is filled yet and the best card."""

    DEFAULT_MB = 64


def maxn_table_megabytes(cards_per_hand: int) -> int:
    """A max^n table size that suits a search: 16 MiB at 6 cards a hand, 64 at
    8, 128 at 9, 256 from 10 on. Large searches fill a smaller table and lose
    entries; small ones would only pay for touching a larger one's pages."""
    return min(256, max(4, 2**cards_per_hand // 4))


@dataclass
class MaxnResult:
    """What ``solve_maxn`` found. Values count points from the position on
    (``taken`` not added).

    ``equilibrium[s]``: seat s's points when every seat plays for itself;
    ``card_results``: for each card the mover holds, the three seats' points
    (from the position on, the current trick included) after the mover plays
    it and everyone then plays the equilibrium; ``line``: the equilibrium line
    to the end of the hand. When a budget cut the search short, ``exact`` is
    False and what was not finished is None or empty (never a guess).
    """

    position: Position
    equilibrium: list[int] | None = None
    card_results: dict[Card, list[int]] = field(default_factory=dict)
    line: list[Card] = field(default_factory=list)
    exact: bool = True
    nodes: int = 0
    seconds: float = 0.0

    @property
    def to_move(self) -> int:
        return self.position.to_move

    def to_json(self) -> dict:
        return {
            "position": str(self.position),
            "to_move": self.to_move,
            "equilibrium": self.equilibrium,
            "card_results": {str(c): v for c, v in self.card_results.items()},
            "line": [str(c) for c in self.line],
            "exact": self.exact,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


class _MaxnSearch:
    """Runs compiled max^n searches, counting nodes against one budget.

    With several threads (lazy SMP) each thread
    searches the same position over the shared table in its own order of
    ties, and the first to finish stops the others; its root results are
    the answer (they are exact, whoever finds them).
    """

    def __init__(self, table: MaxnTable, max_nodes, deadline, options, threads: int = 1):
        self.table = table
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.options = options
        self.threads = threads
        self.stats = per_thread_counters(threads, 4)
        self.paths = [k.new_maxn_path() for _ in range(threads)]
        self.roots = [
            (
                np.zeros(k.MAX_MOVES, dtype=np.int64),
                np.zeros((k.MAX_MOVES, 4), dtype=np.int64),
                np.zeros(4, dtype=np.int64),
            )
            for _ in range(threads)
        ]
        self.root_moves, self.root_results, self.root_best = self.roots[0]

    @property
    def nodes(self) -> int:
        return int(sum(stats[k.STAT_NODES] for stats in self.stats))

    def run(self, position: Position, all_cards: bool) -> int:
        """Search ``position`` (not over); returns how many root cards were searched."""
        root = k.root_array(position.hands, position.leader, position.trick)
        options = self.options | (k.MAXN_ALL_CARDS if all_cards else 0)

        def search(thread: int, budget: int, stop: np.ndarray) -> int:
            moves, results, best = self.roots[thread]
            n = k.maxn_search(
                root,
                options | (k.MAXN_PREFER_HIGH if thread % 2 else 0),
                self.table.slots,
                self.stats[thread],
                self.paths[thread],
                moves,
                results,
                best,
                stop,
                budget,
            )
            if n != k.MAXN_ABORTED:
                stop[0] = 1
            return n

        nodes_left = None if self.max_nodes is None else self.max_nodes - self.nodes
        counts = run_searches(search, self.threads, nodes_left, self.deadline)
        for thread, n in enumerate(counts):
            if n != k.MAXN_ABORTED:
                self.root_moves, self.root_results, self.root_best = self.roots[thread]
                return n
        raise BudgetExhausted

    def best_card(self, position: Position) -> Card:
        """The card the mover plays in the equilibrium (after ``run``)."""
        return _lowest_of_run(int(self.root_best[3]), position)


def solve_maxn(
    position: Position | str,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    card_results: bool = True,
    line: bool = True,
    *,
    table: MaxnTable | None = None,
    threads: int = DEFAULT_THREADS,
    policy: SearchPolicy | None = None,
) -> MaxnResult:
    """Solve ``position`` open-handed for the equilibrium (max^n) values of RULES.md.

    Also gives every card's three-seat result for the seat to move
    (``card_results``) and the equilibrium line to the end of the hand
    (``line``); turn them off when only the values are wanted. ``max_nodes``
    and ``time_limit`` (seconds) bound the work; when either runs out the
    result is not exact and holds only what was finished. ``table`` lends a
    transposition table of your own size (default: a shared one sized for the
    position, ``maxn_table_megabytes``); ``threads`` runs each search on
    that many threads at once; ``policy`` (``solver.policy.SearchPolicy``)
    can turn the table, card equivalence and pruning off, for tests and
    measurements.
    """
    if isinstance(position, str):
        position = Position.parse(position)
    elif not isinstance(position, Position):
        raise CoinsError(
            f"solve_maxn() takes a Position or its text, not {type(position).__name__}"
        )
    max_nodes, time_limit = checks.node_limit(max_nodes), checks.time_limit(time_limit)
    threads = checks.whole_number(threads, "threads")
    start = time.perf_counter()
    deadline = start + time_limit if time_limit is not None else None
    policy = checked_policy(policy)
    options = (
        (0 if policy.use_table else k.MAXN_NO_TABLE)
        | (0 if policy.rank_equivalence else k.MAXN_NO_EQUIVALENCE)
        | (0 if policy.maxn_pruning else k.MAXN_NO_PRUNING)
    )
    if table is None:
        table = shared_table(MaxnTable, maxn_table_megabytes(position.cards_per_hand))
    search = _MaxnSearch(table, max_nodes, deadline, options, threads)
    result = MaxnResult(position)
    if position.is_terminal:
        result.equilibrium = [0, 0, 0]
    else:
        try:
            _solve_root(search, position, result, card_results, line)
        except BudgetExhausted:
            result.exact = False
    result.nodes = search.nodes
    result.seconds = time.perf_counter() - start
    return result


def _solve_root(
    search: _MaxnSearch, position: Position, result: MaxnResult, card_results: bool, line: bool
) -> None:
    n = search.run(position, all_cards=card_results)
    result.equilibrium = [int(v) for v in search.root_best[:3]]
    first = search.best_card(position)
    if card_results:
        by_card = {
            int(search.root_moves[i]): [int(v) for v in search.root_results[i, :3]]
            for i in range(n)
        }
        hand = position.hands[position.to_move]
        live = _live(position)
        for card in position.legal_cards():
            representative = card
            if not search.options & k.MAXN_NO_EQUIVALENCE:
                representative = int(k.representative_of(card, hand, live))
            result.card_results[card] = list(by_card[representative])
    if line:
        result.line = _equilibrium_line(search, position, first)


def _equilibrium_line(search: _MaxnSearch, position: Position, first: Card) -> list[Card]:
    """Every card from ``position`` to the end of the hand, ``first`` first."""
    played = [first]
    position = position.play(first)
    while not position.is_terminal:
        if position.coins_left == 0:
            # every card gives (0, 0, 0): the first in index order
            card = cards_in(position.hands[position.to_move])[0]
        else:
            search.run(position, all_cards=False)
            card = search.best_card(position)
        played.append(card)
        position = position.play(card)
    return played


def _live(position: Position) -> int:
    return position.hands[0] | position.hands[1] | position.hands[2] | position.trick_mask


def _lowest_of_run(card: int, position: Position) -> Card:
    """The lowest card of ``card``'s run of equivalent cards in the mover's hand:
    the one the index-order tie-break picks among cards that all give the same."""
    hand = position.hands[position.to_move]
    live = _live(position)
    suit = SUIT_MASKS[card // 12]
    while True:
        below = live & suit & ((1 << card) - 1)
        if not below:
            return Card(card)
        lower = below.bit_length() - 1
        if not hand >> lower & 1:
            return Card(card)
        card = lower
