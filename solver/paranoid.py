"""Guaranteed (paranoid) values over the compiled search.

A seat's guaranteed value is the most points it can be sure to win from a
position to the end of the hand when the other two play together against it
(RULES.md). ``solve_paranoid`` finds it for the seats asked, every card's
value for the seat to move, the optimal cards and one optimal line; the
public ``solve`` (``solve.py``) validates its input and calls it. Which
games each test plays, and how a budget is shared, follow the
``SearchPolicy`` (``policy.py``) the search is given.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import InitVar, dataclass, field

import numpy as np

from . import _kernels as k
from .cards import SEATS, Card
from .policy import DEFAULT_POLICY, SearchPolicy
from .position import Position
from .table import TranspositionTable, grown_table_megabytes, shared_table
from .threads import BudgetExhausted, nothing_left, per_thread_counters, run_searches


def _at_most(nodes: int | None, cap: int) -> int:
    """A node budget (None: no limit) cut to ``cap``."""
    return cap if nodes is None else min(nodes, cap)


def _seat_key(position: Position, seat: int) -> tuple:
    """What tells one seat's value at one position from another."""
    return position.hands, position.leader, position.trick, seat


def _test_key(position: Position, seat: int, need: int) -> tuple:
    """What tells one test (``ParanoidSearch.wins_at_least``) from another."""
    return *_seat_key(position, seat), need


@dataclass
class _PausedTest:
    """Where a test's searches have got to (``k.new_path`` for each thread
    and each game), and which games it still plays, so that a test stopped
    by its share of a budget goes on exactly where it stopped when asked
    again: a seat's next turn (``_in_turns``) no longer searches its
    unfinished test again from the root."""

    relaxing: bool  # the relaxed game is still being played (by every thread)
    probes: int  # the exact search's option bit for probes (``k.PROBES``), or 0
    rank_free_due: bool  # the rank-free game is still to be tried
    nodes_before_rank_free: int  # left to the other games before that try
    rank_free_nodes: int  # left to that try
    threads: InitVar[int]
    paths: list = field(init=False)
    relaxed_paths: list = field(init=False)
    rank_free_paths: list = field(init=False)

    def __post_init__(self, threads: int):
        def new_paths(needed: bool = True) -> list:
            return [k.new_path() for _ in range(threads)] if needed else []

        self.paths = new_paths()
        self.relaxed_paths = new_paths(self.relaxing)
        self.rank_free_paths = new_paths(self.rank_free_due)


class ParanoidSearch:
    """Runs boolean searches on one position, counting nodes against a budget.

    With several threads every thread searches the same question over the
    shared table and ``busy`` marks, and the first to answer stops the
    others. Each leaves to the others the nodes they are busy with and comes
    back to them last (ABDADA), so they share out the tree instead of racing
    through it. ``policy`` says which games the tests play and when
    (``wins_at_least``); ``game`` (``k.RELAXED`` or ``k.RANK_FREE``) plays
    that game alone instead of the real one, for tests of those games.
    """

    def __init__(
        self,
        table: TranspositionTable,
        max_nodes: int | None,
        deadline: float | None,
        threads: int = 1,
        progress: Callable[[str], None] | None = None,
        policy: SearchPolicy = DEFAULT_POLICY,
        game: int = 0,
    ):
        self.table = table
        self.policy = policy
        self.progress = progress
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.options = (
            game
            | (0 if policy.use_table else k.NO_TABLE)
            | (0 if policy.rank_equivalence else k.NO_EQUIVALENCE)
        )
        self.knobs = k.paranoid_knobs(policy.busy_min_cards, policy.probe_node_min_cards)
        self.threads = threads
        # each thread learns its own history: one shared by both cores cost more
        # in cache traffic than it saved in nodes
        self.histories = [np.zeros((9, 48), dtype=np.int64) for _ in range(threads)]
        self.rank_free_histories = [np.zeros((9, 48), dtype=np.int64) for _ in range(threads)]
        self.stats = per_thread_counters(threads, k.STAT_SIZE)
        # the nodes each thread is searching, so that the others defer them
        self.busy = np.zeros(policy.busy_slots if threads > 1 else 1, dtype=np.int64)
        # the tests a budget stopped, by ``_test_key``: each goes on where it
        # stopped when asked again
        self.paused: dict[tuple, _PausedTest] = {}
        # what the tests have proven: [low, high] points by ``_seat_key``
        self.proven: dict[tuple, list[int]] = {}
        # the rank-free game's tries: (whose try: "first point", "value" or
        # "ceiling"; the need above ``rank_free_max_need``; denied) -> how many
        self.rank_free_tries: Counter[tuple[str, bool, bool]] = Counter()

    @property
    def nodes(self) -> int:
        return int(sum(stats[k.STAT_NODES] for stats in self.stats))

    def counters(self) -> dict:
        """What the searches did, summed over threads (for profiling): nodes;
        table probes, hits (an entry found) and decided (its bounds answered);
        nodes deferred to another thread; per side the share of cutoffs
        made by the first card tried; and the probes of the pair's cards in
        the relaxed game that proved the card loses and that did not, with
        the nodes each kind took; and the rank-free game's tries
        (``rank_free_tries``)."""
        total = self.stats.sum(axis=0)
        cutoffs = total[k.STAT_CUTOFFS : k.STAT_CUTOFFS + 12].reshape(2, 3, 2)  # side, trick, later

        def first_share(side: int) -> float | None:
            made = int(cutoffs[side].sum())
            return round(int(cutoffs[side, :, 0].sum()) / made, 4) if made else None

        return {
            "nodes": int(total[k.STAT_NODES]),
            "tt_probes": int(total[k.STAT_TT_PROBES]),
            "tt_hits": int(total[k.STAT_TT_HITS]),
            "tt_decided": int(total[k.STAT_TT_DECIDED]),
            "deferred": int(total[k.STAT_DEFERRED]),
            "first_card_cutoffs": {"pair": first_share(0), "seat": first_share(1)},
            "probes": {
                kind: {"count": int(total[stat]), "nodes": int(total[stat + 1])}
                for kind, stat in (
                    ("proved", k.STAT_PROBES_PROVED),
                    ("failed", k.STAT_PROBES_FAILED),
                )
            },
            "rank_free_tries": [
                {"try": kind, "above_max_need": above, "denied": denied, "count": count}
                for (kind, above, denied), count in sorted(self.rank_free_tries.items())
            ],
        }

    def wins_at_least(
        self, position: Position, seat: int, need: int, ceiling: bool = False
    ) -> bool:
        """Can ``seat`` be sure of ``need`` more points from ``position``?

        The relaxed game (``k.RELAXED``: the pair chooses which of its seats
        takes a trick its own two cards decide) is one where the seat can do
        no better than in the real one but a proof is several times smaller.
        From ``policy.probing_min_cards`` a hand the exact search probes the
        pair's cards there (``k.PROBES``); from
        ``policy.relaxed_first_min_cards`` (full deals) every thread first
        plays it alone for the first point (``relaxed_first_max_need``): a
        proof there answers, and without one all start on the exact search.
        From ``policy.rank_free_min_cards`` a hand, a test they have not
        answered within ``rank_free_after_nodes`` is tried in the rank-free
        game (``_rank_free_denies``; a test of a higher point tries the first
        point there first), up to ``rank_free_max_need`` points, or at any
        need for a test of the ``ceiling`` (``lower_ceiling``). A test the budget
        stops is paused (``_PausedTest``): asked again, it goes on. What the
        tests answer is kept (``proven``): a test they already answer is not
        searched again.
        """
        low, high = self.proven.setdefault(_seat_key(position, seat), [0, position.coins_left])
        if need <= low or need > high:
            return need <= low
        root = k.root_array(position.hands, position.leader, position.trick)
        test = self._paused_test(position, seat, need, ceiling)
        self.busy[:] = 0  # marks left by searches that were stopped

        def search(
            thread: int, budget: int, stop: np.ndarray, options: int, busy, path, need: int = need
        ) -> int:
            # the rank-free game learns an order of its own
            histories = self.rank_free_histories if options & k.RANK_FREE else self.histories
            return k.paranoid_search(
                root,
                seat,
                need,
                options,
                self.knobs,
                self.table.slots,
                histories[thread],
                self.stats[thread],
                busy,
                thread,
                path,
                stop,
                budget,
            )

        def run(thread: int, budget: int, stop: np.ndarray) -> int:
            if test.relaxing:
                outcome = search(
                    thread,
                    budget,
                    stop,
                    self.options | k.RELAXED,
                    self.busy,
                    test.relaxed_paths[thread],
                )
                if outcome == k.FALSE:  # no proof there: all threads start again on the real game
                    test.relaxing = False
                    outcome = k.ABORTED
                if outcome != k.ABORTED or not test.relaxing:
                    stop[0] = 1
                return outcome
            outcome = search(
                thread, budget, stop, self.options | test.probes, self.busy, test.paths[thread]
            )
            if outcome != k.ABORTED:
                stop[0] = 1
            return outcome

        while True:
            if (
                test.rank_free_due and test.nodes_before_rank_free < self.threads
            ):  # not a node a thread
                if need > 1 and self._first_point_denied(position, seat, search):
                    return self._answer(position, seat, need, False)
                denied = self._rank_free_denies(test, search)
                self._count_rank_free("ceiling" if ceiling else "value", need, denied)
                if denied:
                    return self._answer(position, seat, need, False)
            growing = self.table.can_grow and not self.options & k.NO_TABLE
            budget = self.nodes_left
            if growing:  # stop now and then to see whether the table is full
                budget = _at_most(budget, self.policy.growth_check_nodes)
            if test.rank_free_due:  # and once to try the rank-free game
                budget = _at_most(budget, test.nodes_before_rank_free)
            written, nodes, relaxing = self._entries_written(), self.nodes, test.relaxing
            try:
                outcomes = run_searches(run, self.threads, budget, self.deadline)
            finally:
                self.table.written += self._entries_written() - written
                test.nodes_before_rank_free -= self.nodes - nodes
            answers = [o for o in outcomes if o != k.ABORTED]
            if answers:
                return self._answer(position, seat, need, answers[0] == k.TRUE)
            if relaxing and not test.relaxing:  # the relaxed game has no proof
                self.busy[:] = 0
                continue
            if not (growing or test.rank_free_due) or self.spent():
                raise BudgetExhausted
            if growing and self.table.overfull and self._time_to_grow():
                # search on in the larger table: what was proven is still there
                self.table.grow(k.PARANOID_BUCKET, self.threads)

    def _paused_test(
        self, position: Position, seat: int, need: int, ceiling: bool = False
    ) -> _PausedTest:
        """The test where a budget stopped it, or a new one; kept until answered."""
        key = _test_key(position, seat, need)
        test = self.paused.get(key) or self._new_test(position, seat, need, ceiling)
        self.paused[key] = test
        return test

    def _answer(self, position: Position, seat: int, need: int, holds: bool) -> bool:
        """A test's answer, kept in ``proven``; the test is no longer paused."""
        self.paused.pop(_test_key(position, seat, need), None)
        bounds = self.proven[_seat_key(position, seat)]
        if holds:
            bounds[0] = max(bounds[0], need)
        else:
            bounds[1] = min(bounds[1], need - 1)
        return holds

    def _first_point_denied(self, position: Position, seat: int, search: Callable) -> bool:
        """Does the first point's rank-free try (``first_point_rank_free_nodes``
        of it) deny it? Then the seat is sure of nothing."""
        if self.proven[_seat_key(position, seat)][0] >= 1:
            return False
        test = self._paused_test(position, seat, 1)
        policy = self.policy
        spent = policy.rank_free_nodes - test.rank_free_nodes
        share = policy.first_point_rank_free_nodes - spent
        if not test.rank_free_due or share < self.threads:
            return False
        denied = self._rank_free_denies(test, lambda *args: search(*args, need=1), share)
        self._count_rank_free("first point", 1, denied)
        if denied:
            self._answer(position, seat, 1, False)
        return denied

    def _count_rank_free(self, kind: str, need: int, denied: bool) -> None:
        self.rank_free_tries[kind, need > self.policy.rank_free_max_need, denied] += 1

    def _new_test(self, position: Position, seat: int, need: int, ceiling: bool) -> _PausedTest:
        """A test not yet begun, and the games it is to play (``wins_at_least``)."""
        # in full deals every thread plays the relaxed game first (not when
        # the seat plays to the pair's two cards: the relaxed search gives the
        # pair its choice with its second card, which is then already down);
        # in smaller endings the exact search probes
        policy = self.policy
        cards = position.cards_per_hand
        relaxing = (
            policy.relaxed_game
            and need <= policy.relaxed_first_max_need
            and cards >= policy.relaxed_first_min_cards
            and not (len(position.trick) == 2 and position.to_move == seat)
        )
        probing = (
            policy.relaxed_game
            and policy.probing_min_cards <= cards < policy.relaxed_first_min_cards
        )
        return _PausedTest(
            relaxing=relaxing,
            probes=k.PROBES if probing else 0,
            rank_free_due=cards >= policy.rank_free_min_cards
            and (ceiling or need <= policy.rank_free_max_need),
            nodes_before_rank_free=policy.rank_free_after_nodes,
            rank_free_nodes=policy.ceiling_rank_free_nodes if ceiling else policy.rank_free_nodes,
            threads=self.threads,
        )

    def _rank_free_denies(
        self, test: _PausedTest, search: Callable, share: int | None = None
    ) -> bool:
        """Does the rank-free game (``k.RANK_FREE``) show, within the test's
        allowance, that the seat cannot be sure of the test's points?
        A budget running out pauses the try with its test; so does ``share``
        (at most that many of the try's nodes), the rest of the try staying due."""
        allowance = test.rank_free_nodes if share is None else min(share, test.rank_free_nodes)
        self.busy[:] = 0

        def run(thread: int, budget: int, stop: np.ndarray) -> int:
            outcome = search(
                thread,
                budget,
                stop,
                self.options | k.RANK_FREE,
                self.busy,
                test.rank_free_paths[thread],
            )
            if outcome != k.ABORTED:
                stop[0] = 1
            return outcome

        before = self.nodes
        try:
            outcomes = run_searches(
                run, self.threads, _at_most(self.nodes_left, allowance), self.deadline
            )
        finally:
            spent = self.nodes - before
            test.rank_free_nodes -= spent
        answers = [o for o in outcomes if o != k.ABORTED]
        if not answers and allowance - spent >= self.threads and self.spent():
            raise BudgetExhausted
        test.rank_free_due = (
            not answers and share is not None and test.rank_free_nodes >= self.threads
        )
        return bool(answers) and answers[0] == k.FALSE

    def _time_to_grow(self) -> bool:
        """Would the table's growth end well before the deadline, if any?"""
        return self.deadline is None or (
            time.perf_counter() + self.policy.growth_time_margin * self.table.growth_seconds
            < self.deadline
        )

    def _entries_written(self) -> int:
        """New table entries the searches have written: one for each probe
        that found none."""
        return int(sum(stats[k.STAT_TT_PROBES] - stats[k.STAT_TT_HITS] for stats in self.stats))

    @property
    def nodes_left(self) -> int | None:
        return None if self.max_nodes is None else self.max_nodes - self.nodes

    @property
    def budgeted(self) -> bool:
        return self.max_nodes is not None or self.deadline is not None

    def spent(self) -> bool:
        """Is too little left of the budget for a search to start?"""
        return nothing_left(self.nodes_left, self.threads, self.deadline)

    @contextmanager
    def share(self, fraction: float) -> Iterator[None]:
        """Within the block the searches may spend only ``fraction`` of what
        is left of the budget: running out raises BudgetExhausted as usual,
        and ``spent()`` tells whether the whole budget went."""
        max_nodes, deadline = self.max_nodes, self.deadline
        if max_nodes is not None:
            # at least a node a thread, never more than the whole budget
            max_nodes = min(
                max_nodes, self.nodes + max(self.threads, int(self.nodes_left * fraction))
            )
        if deadline is not None:
            now = time.perf_counter()
            deadline = now + (deadline - now) * fraction
        with self._limited(max_nodes, deadline):
            yield

    def allowance(self, nodes: int) -> AbstractContextManager[None]:
        """Within the block the searches may spend ``nodes`` more than so far
        (for a search without a budget of its own)."""
        return self._limited(self.nodes + nodes, self.deadline)

    @contextmanager
    def _limited(self, max_nodes: int | None, deadline: float | None) -> Iterator[None]:
        """The budget is ``max_nodes`` and ``deadline`` within the block."""
        saved = self.max_nodes, self.deadline
        self.max_nodes, self.deadline = max_nodes, deadline
        try:
            yield
        finally:
            self.max_nodes, self.deadline = saved

    def tell(self, message: str) -> None:
        """Pass what the search is about to do to the ``progress`` callback, if any."""
        if self.progress is not None:
            self.progress(message)

    def value(self, position: Position, seat: int, bounds: list[int]) -> int:
        """Narrow ``bounds`` ([low, high], updated in place) to the exact value.

        Tests step up or down from 2 points, where most guaranteed values
        lie, or from 1 in full deals, where only the first point's proof is
        within reach.
        """
        need = 1 if position.is_full_deal else 2
        while bounds[0] < bounds[1]:
            need = min(max(need, bounds[0] + 1), bounds[1])
            need += 1 if self._test(position, seat, bounds, need) else -1
        return bounds[0]

    def lower_ceiling(self, position: Position, seat: int, bounds: list[int]) -> None:
        """Lower ``bounds[1]`` one point at a time while the seat cannot be sure
        of it: far above the value these tests are cheap, even in full deals,
        and nearer it the rank-free game denies some the real one cannot."""
        while bounds[0] < bounds[1]:
            self._test(position, seat, bounds, bounds[1], ceiling=True)

    def _test(
        self, position: Position, seat: int, bounds: list[int], need: int, ceiling: bool = False
    ) -> bool:
        """Can ``seat`` be sure of ``need`` points? ``bounds`` learns the answer."""
        self.tell(f"seat {seat}: {bounds[0]}-{bounds[1]} points, can it be sure of {need}?")
        if self.wins_at_least(position, seat, need, ceiling):
            bounds[0] = need
            return True
        bounds[1] = need - 1
        return False


def default_table(position: Position) -> TranspositionTable:
    """The table ``solve`` uses unless lent one, sized for the position
    (``table_megabytes``), able to grow (``grown_table_megabytes``) and
    shared (``shared_table``)."""
    return shared_table(TranspositionTable, *_table_sizes(position))


def fresh_table(position: Position) -> TranspositionTable:
    """A new table like ``default_table``'s, for a search that should owe
    nothing to earlier ones (benchmarks)."""
    return TranspositionTable(*_table_sizes(position))


def _table_sizes(position: Position) -> tuple[int, int]:
    """MiB a table for ``position`` starts at, and may grow to."""
    return table_megabytes(position.cards_per_hand), grown_table_megabytes(position.cards_per_hand)


def table_megabytes(cards_per_hand: int) -> int:
    """A table size that suits a search: small endings search few positions,
    and a table larger than they fill only costs the time to touch its pages
    (about 4 MiB at 6 cards a hand, 16 at 8, 64 at 10, 256 from 12 on)."""
    return min(TranspositionTable.DEFAULT_MB, max(4, 2**cards_per_hand // 16))


@dataclass
class ParanoidAnswer:
    """The paranoid part of a ``SolveResult`` (see there for the fields)."""

    guaranteed: list[int | None] = field(default_factory=lambda: [None] * SEATS)
    bounds: list[tuple[int, int] | None] = field(default_factory=lambda: [None] * SEATS)
    card_values: dict[Card, int] = field(default_factory=dict)
    optimal: list[Card] = field(default_factory=list)
    line: list[Card] = field(default_factory=list)
    exact: bool = True
    interrupted: bool = False


def solve_paranoid(
    search: ParanoidSearch,
    position: Position,
    seats: tuple[int, ...],
    card_values: bool,
    line: bool,
) -> ParanoidAnswer:
    """Guaranteed values of ``seats``, and the mover's card values and line.

    What a budget or Ctrl-C cut short stays unproven: the answer then holds
    the proven interval for each seat asked and ``exact`` False (and
    ``interrupted`` for Ctrl-C). Under a budget the seats take turns
    (``_in_turns``), so each seat asked gets its share; without one, so do
    the seats of a solve that takes long (``_in_order_then_rounds``).
    """
    coins = position.coins_left
    work: list[list[int] | None] = [[0, coins] if s in seats else None for s in range(SEATS)]
    answer = ParanoidAnswer()
    try:
        if search.budgeted:
            _in_turns(search, position, seats, work)
        else:
            _in_order_then_rounds(search, position, seats, work)
        if not position.is_terminal and (card_values or line):
            mover = position.to_move
            if work[mover] is None:
                work[mover] = [0, coins]
                search.value(position, mover, work[mover])
            best = work[mover][0]
            if card_values:
                answer.card_values = _card_values(search, position, mover, best)
                answer.optimal = [c for c, v in answer.card_values.items() if v == best]
            if line:
                answer.line = _optimal_line(search, position, mover, best)
    except BudgetExhausted:
        answer.exact = False
    except KeyboardInterrupt:  # the searches have stopped: keep what they proved
        answer.exact = False
        answer.interrupted = True
    for seat in seats:
        low, high = work[seat]
        answer.bounds[seat] = (low, high)
        if low == high:
            answer.guaranteed[seat] = low
    answer.exact = answer.exact and all(answer.guaranteed[s] is not None for s in seats)
    return answer


def _in_order_then_rounds(
    search: ParanoidSearch, position: Position, seats: tuple[int, ...], work: list
) -> None:
    """Without a budget: the seats one after another, and if that has not
    finished within ``policy.ordered_nodes``, rounds of turns (``_in_turns``),
    each with four times the nodes of the last, until every seat is exact
    (so that a long solve stopped by Ctrl-C has bounds for every seat)."""
    narrow, nodes = _in_order, search.policy.ordered_nodes
    while any(work[seat][0] < work[seat][1] for seat in seats):
        with search.allowance(nodes):
            try:
                narrow(search, position, seats, work)
            except BudgetExhausted:
                if not search.spent():  # the next round would stop the same way, for ever
                    raise RuntimeError(
                        "a search without a budget stopped with nodes left"
                    ) from None
                narrow, nodes = _in_turns, nodes * 4


def _in_order(
    search: ParanoidSearch, position: Position, seats: tuple[int, ...], work: list
) -> None:
    """The seats' values one after another."""
    for seat in seats:
        search.value(position, seat, work[seat])


def _in_turns(
    search: ParanoidSearch, position: Position, seats: tuple[int, ...], work: list
) -> None:
    """Under a budget, the seats take turns, each with an equal share of what
    is left, so that a seat whose proof is out of reach does not starve the
    others; a seat's turn goes on ``_turn``."""
    pending = [seat for seat in seats if work[seat][0] < work[seat][1]]
    while pending:
        for turn, seat in enumerate(pending):
            _within(search, 1 / (len(pending) - turn), _turn, search, position, seat, work[seat])
        pending = [seat for seat in pending if work[seat][0] < work[seat][1]]


def _turn(search: ParanoidSearch, position: Position, seat: int, bounds: list[int]) -> None:
    """The usual tests on a share of the turn (a larger one in full deals);
    if they run out, upper-bound tests from the top, which in full deals
    prove a low ceiling (or the value) where the usual first test is out of
    reach."""
    policy = search.policy
    share = policy.full_deal_value_share if position.is_full_deal else policy.value_share
    _within(search, share, search.value, position, seat, bounds)
    search.lower_ceiling(position, seat, bounds)


def _within(search: ParanoidSearch, fraction: float, narrow: Callable, *args) -> None:
    """``narrow(*args)`` on ``fraction`` of what is left of the budget: running
    out of that share ends it quietly, running out of the whole budget does not."""
    try:
        with search.share(fraction):
            narrow(*args)
    except BudgetExhausted:
        if search.spent():
            raise


def _card_values(
    search: ParanoidSearch, position: Position, mover: int, best: int
) -> dict[Card, int]:
    """Each card's value for the mover; equivalent cards share one search."""
    live = position.hands[0] | position.hands[1] | position.hands[2] | position.trick_mask
    hand = position.hands[mover]
    by_representative: dict[int, int] = {}
    values = {}
    cards = position.legal_cards()
    for done, card in enumerate(cards):
        representative = int(k.representative_of(card, hand, live))
        if representative not in by_representative:
            child = position.play(representative)
            gained = _points_to(position, child, mover)
            if best > gained:
                search.tell(f"seat {mover}'s card values: {card} ({done + 1} of {len(cards)})")
            by_representative[representative] = gained + search.value(
                child, mover, [0, max(best - gained, 0)]
            )
        values[card] = by_representative[representative]
    return values


def _optimal_line(search: ParanoidSearch, position: Position, seat: int, value: int) -> list[Card]:
    """One line to the end: ``seat`` keeps its value, the others hold it there.

    Each step takes the first card, in ``outcome_order``, that does so.
    """
    line = []
    search.tell(f"an optimal line for seat {seat}")
    while not position.is_terminal:
        mover = position.to_move
        for card in outcome_order(position, seat):
            child = position.play(card)
            gained = _points_to(position, child, seat)
            if mover == seat:
                keeps = search.wins_at_least(child, seat, value - gained)
            else:
                keeps = not search.wins_at_least(child, seat, value - gained + 1)
            if keeps:
                break
        line.append(card)
        value -= gained
        position = child
    return line


def outcome_order(position: Position, seat: int) -> list[Card]:
    """The mover's cards, most promising first by the search's own score of
    a card's outcome for the trick (no history, so every run finds the same
    line), cheaper cards first among equals: each card that fails costs a
    whole proof."""
    mover = position.to_move
    trick = list(position.trick) + [-1, -1]
    third_hand = position.hands[(mover + 1) % SEATS]

    def score(card: Card) -> int:
        return int(
            k.move_score(
                card,
                mover,
                seat,
                len(position.trick),
                trick[0],
                trick[1],
                third_hand,
                position.hands[seat],
            )
        )

    return sorted(position.legal_cards(), key=lambda card: (-score(card), card % 12, card))


def _points_to(before: Position, after: Position, seat: int) -> int:
    return after.taken[seat] - before.taken[seat]
