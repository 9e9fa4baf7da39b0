"""``solve``: the one entry point to the open-hand solvers, in either mode or both.

It validates everything before any compiled code runs, shares one node and
time budget between the modes, and returns a ``SolveResult``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from . import checks
from .cards import SEATS, Card
from .errors import CoinsError, SolveInterrupted
from .match import MatchState
from .match_values import MatchValues, solve_match
from .maxn import MaxnTable, solve_maxn
from .paranoid import ParanoidSearch, default_table, solve_paranoid
from .policy import SearchPolicy, checked_policy
from .position import Position
from .table import TranspositionTable
from .threads import DEFAULT_THREADS

MODES = ("paranoid", "maxn", "both")


@dataclass
class SolveResult:
    """What ``solve`` found. Values count points from the position on (``taken`` not added).

    Paranoid mode: ``guaranteed[s]`` is seat s's guaranteed value (None for
    seats not asked); ``card_values`` maps each card the mover holds to the
    mover's guaranteed value after playing it; ``optimal`` lists the cards
    that keep the mover's value; ``line`` is one optimal line to the end of
    the hand (the mover's best cards, its opponents' strongest replies against
    it). Max^n mode: ``equilibrium`` is the three seats' points when each
    plays for itself; ``card_results`` maps each card of the mover to the
    three seats' points after it; ``equilibrium_line`` is that play to the
    end. ``search_stats`` profiles the paranoid search (``ParanoidSearch.counters``).
    With a target, ``match`` holds the match-aware values (``match_values.MatchValues``:
    each seat's chance of winning the match, every card's, the line).
    When a budget cut the search short, ``exact`` is False, ``bounds[s]``
    is the proven interval ``(low, high)`` of each seat asked, and what was
    not proven is None or empty: never a guess. ``interrupted``: Ctrl-C cut
    it short (the result then comes with ``SolveInterrupted``).
    """

    position: Position
    mode: str = "paranoid"
    guaranteed: list[int | None] = field(default_factory=lambda: [None] * SEATS)
    bounds: list[tuple[int, int] | None] = field(default_factory=lambda: [None] * SEATS)
    card_values: dict[Card, int] = field(default_factory=dict)
    optimal: list[Card] = field(default_factory=list)
    line: list[Card] = field(default_factory=list)
    equilibrium: list[int] | None = None
    card_results: dict[Card, list[int]] = field(default_factory=dict)
    equilibrium_line: list[Card] = field(default_factory=list)
    exact: bool = True
    interrupted: bool = False
    nodes: int = 0
    seconds: float = 0.0
    search_stats: dict = field(default_factory=dict)
    match: MatchValues | None = None

    @property
    def to_move(self) -> int:
        return self.position.to_move

    def to_json(self) -> dict:
        out = {"position": str(self.position), "mode": self.mode, "to_move": self.to_move}
        if self.mode in ("paranoid", "both"):
            out |= {
                "guaranteed": self.guaranteed,
                "bounds": [list(b) if b is not None else None for b in self.bounds],
                "card_values": {str(c): v for c, v in self.card_values.items()},
                "optimal": [str(c) for c in self.optimal],
                "line": [str(c) for c in self.line],
            }
        if self.mode in ("maxn", "both"):
            out |= {
                "equilibrium": self.equilibrium,
                "card_results": {str(c): v for c, v in self.card_results.items()},
                "equilibrium_line": [str(c) for c in self.equilibrium_line],
            }
        if self.match is not None:
            out["match"] = self.match.to_json()
        out |= {"exact": self.exact, "interrupted": self.interrupted}
        out |= {"nodes": self.nodes, "seconds": round(self.seconds, 6)}
        return out


def solve(
    position: Position | str,
    seats: tuple[int, ...] | list[int] | int = (0, 1, 2),
    max_nodes: int | None = None,
    time_limit: float | None = None,
    *,
    mode: str = "paranoid",
    card_values: bool = True,
    line: bool = True,
    table: TranspositionTable | None = None,
    maxn_table: MaxnTable | None = None,
    threads: int = DEFAULT_THREADS,
    progress: Callable[[str], None] | None = None,
    policy: SearchPolicy | None = None,
    target: int | None = None,
    scores: tuple[int, int, int] | None = None,
) -> SolveResult:
    """Solve ``position`` open-handed.

    ``mode="paranoid"`` (default) finds the guaranteed value of each seat in
    ``seats``, the card values of the seat to move (whether or not it is in
    ``seats``), its optimal cards and one optimal line; ``mode="maxn"`` finds
    the equilibrium of RULES.md, every card's three-seat result and the
    equilibrium line; ``mode="both"`` does both. ``card_values=False`` /
    ``line=False`` skip the per-card results and the lines when only values
    are wanted. ``max_nodes`` and ``time_limit`` (seconds) bound the whole
    call; when either runs out the result is not exact and carries what was
    proven instead of a guess (the seats asked take turns at the budget, so
    each gets its share: see ``paranoid.solve_paranoid``). ``table`` / ``maxn_table`` lend transposition
    tables of your own size (default: shared tables made on first use, the
    paranoid one sized for the position); ``threads`` runs each search on
    that many threads at once; ``policy`` (``solver.policy.SearchPolicy``)
    sets the searches' tuning constants and can turn speed-ups off, for tests
    and measurements.
    ``progress``, if given, is called with a line of text each time the search
    starts a new question (for a status line during a long solve). Ctrl-C
    (KeyboardInterrupt) stops the search and raises ``SolveInterrupted``,
    whose ``result`` holds what was proven until then, as a limit would.
    ``target`` (and ``scores``, the match scores when the hand began, default
    0,0,0) adds the match-aware values of RULES.md (``match_values.solve_match``)
    after the mode's, within what is left of the budget.
    """
    if isinstance(position, str):
        position = Position.parse(position)
    elif not isinstance(position, Position):
        raise CoinsError(f"solve() takes a Position or its text, not {type(position).__name__}")
    seats = _check_seats(seats)
    if mode not in MODES:
        raise CoinsError(f'mode "{mode}" is not a mode: use paranoid, maxn or both')
    max_nodes, time_limit = checks.node_limit(max_nodes), checks.time_limit(time_limit)
    threads = checks.whole_number(threads, "threads")
    policy = checked_policy(policy)
    match = _match_state(target, scores, position)
    start = time.perf_counter()
    deadline = start + time_limit if time_limit is not None else None
    result = SolveResult(position, mode)

    if mode in ("paranoid", "both"):
        search = ParanoidSearch(
            table or default_table(position), max_nodes, deadline, threads, progress, policy
        )
        answer = solve_paranoid(search, position, seats, card_values, line)
        result.guaranteed, result.bounds = answer.guaranteed, answer.bounds
        result.card_values, result.optimal, result.line = (
            answer.card_values,
            answer.optimal,
            answer.line,
        )
        result.exact = answer.exact
        result.nodes = search.nodes
        result.search_stats = search.counters()
        if answer.interrupted:
            raise _interrupted(result, start)
    if mode in ("maxn", "both"):
        left_nodes, left_time = _left(result, max_nodes, deadline)
        if left_nodes == 0 or left_time == 0:
            result.exact = False
        else:
            try:
                if progress is not None:
                    progress("the equilibrium (max^n)")
                maxn = solve_maxn(
                    position,
                    left_nodes,
                    left_time,
                    card_values,
                    line,
                    table=maxn_table,
                    threads=threads,
                    policy=policy,
                )
            except KeyboardInterrupt:
                result.exact = False
                raise _interrupted(result, start) from None
            result.equilibrium = maxn.equilibrium
            result.card_results = maxn.card_results
            result.equilibrium_line = maxn.line
            result.exact = result.exact and maxn.exact
            result.nodes += maxn.nodes
    if match is not None:
        left_nodes, left_time = _left(result, max_nodes, deadline)
        if left_nodes == 0 or left_time == 0:
            result.match = MatchValues(position, match, exact=False)
        else:
            if progress is not None:
                progress("the chances of winning the match")
            try:
                result.match = solve_match(
                    position, match.target, match.scores, left_nodes, left_time, card_values, line
                )
            except KeyboardInterrupt:
                result.exact = False
                raise _interrupted(result, start) from None
        result.exact = result.exact and result.match.exact
        result.nodes += result.match.nodes
    result.seconds = time.perf_counter() - start
    return result


def _left(result: SolveResult, max_nodes, deadline) -> tuple[int | None, float | None]:
    """The nodes and seconds left of the budget (0 when either is spent; None: no limit)."""
    nodes = None if max_nodes is None else max(0, max_nodes - result.nodes)
    seconds = None if deadline is None else max(0.0, deadline - time.perf_counter())
    return nodes, seconds


def _match_state(target, scores, position: Position) -> MatchState | None:
    """The match ``solve`` is asked about, checked against the position, or None."""
    if target is None:
        if scores is not None:
            raise CoinsError("scores count towards a target: give the target as well")
        return None
    match = MatchState(target, (0, 0, 0) if scores is None else tuple(scores))
    match.needs(position.taken)
    return match


def _interrupted(result: SolveResult, start: float) -> SolveInterrupted:
    """Ctrl-C ended the solve: ``result`` keeps what was proven."""
    result.interrupted = True
    result.seconds = time.perf_counter() - start
    return SolveInterrupted(result)


def _check_seats(seats) -> tuple[int, ...]:
    if isinstance(seats, (int, np.integer)):
        seats = (seats,)
    seats = tuple(seats)
    for seat in seats:
        if (
            isinstance(seat, bool)
            or not isinstance(seat, (int, np.integer))
            or seat not in range(SEATS)
        ):
            raise CoinsError(f"seat {seat!r} is not a seat: seats are 0, 1, 2")
    return tuple(sorted({int(s) for s in seats}))
