"""Every card's equilibrium (max^n) points for positions of any size, within a time limit.

``estimate(position, time_limit)`` answers exactly when the exact max^n
search (``solver.maxn``) finishes within its share of the time, and
otherwise estimates: the equilibrium is searched to a depth of a few
tricks and the positions where the search stops are valued by a network
trained on exact values (``solver.evaluator``). The depth grows one trick at
a time while the time allows, and the deepest finished search answers; when
the next depth does not fit for every card, the time left searches the
contenders for best one trick deeper, the best first, until the best card is
one so searched (close cards are where the network's errors decide). The
result says which it is (``exact``), so proven values and estimates are
never mixed up.

With a ``match`` (``solver.MatchState``) the values are each seat's chance of
winning the match instead (RULES.md, "Values of a position in a match"):
exact by ``solver.winning.solve_match`` when it finishes, else the same
deepening with ``solver.winning.card_chances``, whose leaves turn the
network's points into chances (the Coins left fall one at a time by each
seat's share of the points; then the next-hands table): an approximation on
top of the network's. (The contenders are not searched deeper there.)
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from solver import CoinsError, MatchState, Position
from solver.cards import Card
from solver.compiled import ensure_compiled
from solver.evaluator import search_card_results
from solver.match import check_match
from solver.maxn import solve_maxn
from solver.threads import DEFAULT_THREADS, BudgetExhausted
from solver.winning import card_chances, solve_match

from ._common import as_position, preferred_card

DEFAULT_TIME_LIMIT = 1.0
# The exact search is tried first up to this many cards a hand (beyond it,
# it rarely finishes within seconds), with this share of the time.
EXACT_MAX_CARDS = 9
EXACT_SHARE = {7: 0.8, 8: 0.5, 9: 0.4}
MATCH_EXACT_MAX_CARDS = 7  # the same for chances of winning the match
_MIN_RATE = 2e5  # nodes a second assumed before the first search has measured one


@dataclass
class Estimate:
    """Each card of the mover with the points of seats 0, 1 and 2 after it (from
    the position to the end of the hand, everyone playing for themselves).

    ``exact``: the values are the exact max^n values (whole numbers); else
    they are estimates from a search of ``depth`` tricks with the learned
    evaluation beyond, and of one trick more for the cards in ``deeper`` (the
    contenders for best, when the time allowed). With a ``match``, the values are the three seats'
    chances of winning it instead. ``best`` is the card the mover takes by RULES.md's
    preference (own points, then the smaller larger opponent, then index
    order); ``margin`` how many points its own value leads the next card by
    (0 when several cards tie). ``nodes`` and ``seconds`` are the work done.
    """

    position: Position
    card_results: dict[Card, tuple[float, float, float]]
    exact: bool
    depth: int | None
    nodes: int
    seconds: float
    match: MatchState | None = None
    deeper: tuple[Card, ...] = ()
    best: Card = field(init=False)
    margin: float = field(init=False)

    def __post_init__(self):
        mover = self.position.to_move
        self.best = preferred_card(self.card_results, mover)
        own = sorted({round(v[mover], 9) for v in self.card_results.values()}, reverse=True)
        self.margin = own[0] - own[1] if len(own) > 1 else 0.0

    @property
    def to_move(self) -> int:
        return self.position.to_move

    def to_json(self) -> dict:
        def number(v):
            return round(v, 6) if self.match else int(v) if self.exact else round(v, 3)

        return {
            "position": str(self.position),
            **({"match": self.match.to_json()} if self.match else {}),
            "to_move": self.to_move,
            "exact": self.exact,
            "depth": self.depth,
            "deeper": [str(c) for c in self.deeper],
            "best": str(self.best),
            "margin": round(self.margin, 3),
            "card_results": {str(c): [number(v) for v in r] for c, r in self.card_results.items()},
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


def estimate(
    position: Position | str,
    time_limit: float = DEFAULT_TIME_LIMIT,
    *,
    threads: int = DEFAULT_THREADS,
    net=None,
    match: MatchState | None = None,
) -> Estimate:
    """Every card's max^n points for the mover, exact when that fits ``time_limit``
    seconds and estimated beyond; always answers within about the limit.

    ``net`` lends another ``solver.evaluator.ValueNet`` (default: the shipped one).
    ``match``: every card's chances of winning that match instead (the search
    for them runs on one thread).
    """
    position = as_position(position)
    if position.is_terminal:
        raise CoinsError("the hand is over: there is no card to value")
    if (
        isinstance(time_limit, bool)
        or not isinstance(time_limit, (int, float))
        or not (0 < time_limit < math.inf)
    ):
        raise CoinsError(f"time_limit must be a positive number of seconds, not {time_limit!r}")
    if not isinstance(threads, int) or isinstance(threads, bool) or threads < 1:
        raise CoinsError(f"threads must be a positive whole number, not {threads!r}")
    check_match(match, position.taken)
    ensure_compiled()  # before the clock: a first run compiles
    start = time.perf_counter()
    deadline = start + time_limit
    cards = position.cards_per_hand
    nodes = 0
    if cards <= (EXACT_MAX_CARDS if match is None else MATCH_EXACT_MAX_CARDS):
        share = EXACT_SHARE.get(cards, 1.0)
        if match is None:
            exact = solve_maxn(position, time_limit=time_limit * share, line=False, threads=threads)
            found = exact.card_results
        else:
            exact = solve_match(
                position, match.target, match.scores, time_limit=time_limit * share, line=False
            )
            found = exact.card_chances
        nodes += exact.nodes
        if exact.exact:
            results = {c: tuple(r) for c, r in found.items()}
            return Estimate(
                position, results, True, None, nodes, time.perf_counter() - start, match
            )
    return _deepening(position, deadline, start, nodes, threads, net, match)


def _deepening(position, deadline, start, nodes, threads, net, match) -> Estimate:
    """Searches of 1, 2, ... tricks while the next is expected to finish in time."""
    tricks_left = _tricks_to_end(position)
    results, depth = None, 0
    rate = _MIN_RATE
    last_nodes = None
    while depth < tricks_left:
        left = deadline - time.perf_counter()
        if results is not None:
            expected = last_nodes * max(4.0, _growth(position, depth))
            if expected > left * rate:
                break
        # the first depth always runs (it takes milliseconds); deeper ones are bounded by
        # the nodes the time left should allow and, when the machine is slower than
        # measured (busy), by the deadline itself
        budget, stop_at = (None, None) if results is None else (max(1, int(left * rate)), deadline)
        began = time.perf_counter()
        try:
            if match is None:
                found, spent = search_card_results(
                    position, depth + 1, budget, net=net, threads=threads, deadline=stop_at
                )
            else:
                found, spent = card_chances(
                    position, match, depth + 1, budget, net=net, deadline=stop_at
                )
        except BudgetExhausted:
            nodes += budget or 0
            break
        took = time.perf_counter() - began
        nodes += spent
        rate = max(rate, spent / took) if took > 0 else rate
        results, depth, last_nodes = found, depth + 1, spent
    exact = depth >= tricks_left  # no network read: whole numbers of points
    whole = exact and match is None
    values = {c: tuple(round(v) if whole else v for v in r) for c, r in results.items()}
    deeper = ()
    if not exact and match is None:
        deeper, spent = _deepen_contenders(position, values, depth + 1, deadline, threads, net)
        nodes += spent
    return Estimate(
        position,
        values,
        exact,
        None if exact else depth,
        nodes,
        time.perf_counter() - start,
        match,
        tuple(sorted(deeper)),
    )


def _deepen_contenders(position, values, tricks, deadline, threads, net):
    """When the whole next depth does not fit, search the best card one trick
    deeper (with the next best, one a thread) until the best card is one so
    searched or ``deadline`` is past; ``values`` takes the deeper results. Returns
    the cards searched deeper and the nodes spent."""
    mover = position.to_move
    deeper, nodes = set(), 0
    while True:
        best = preferred_card(values, mover)
        if best in deeper:
            break
        others = {c: r for c, r in values.items() if c not in deeper and c != best}
        cards = [best]
        while len(cards) < threads and others:
            cards.append(preferred_card(others, mover))
            others = {c: r for c, r in others.items() if c != cards[-1]}
        try:  # bounded by the clock: node rates vary with depth
            found, spent = search_card_results(
                position, tricks, cards=cards, net=net, threads=threads, deadline=deadline
            )
        except BudgetExhausted:
            break
        nodes += spent
        for card, result in found.items():
            values[card] = tuple(result)
            deeper.add(card)
    return deeper, nodes


def _tricks_to_end(position: Position) -> int:
    """Tricks left to finish, the current one included."""
    return max(len(position.hand(s)) for s in range(3))


def _growth(position: Position, depth: int) -> float:
    """Roughly how many times the nodes of a search one trick deeper: each seat's
    choices in the next trick."""
    cards = max(1, position.cards_per_hand - depth)
    return float(cards) ** 3 / 4
