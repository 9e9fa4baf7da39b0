"""Every card's equilibrium (max^n) points for positions of any size, within a time limit.

``estimate(position, time_limit)`` answers exactly when the exact max^n
search (``solver.maxn``) finishes within its share of the time, and
otherwise estimates: the equilibrium is searched to a depth of a few
tricks and the positions where the search stops are valued by a network
trained on exact values (``solver.evaluator``). Each depth is searched
twice and the two averaged: once with choices between near-equal cards
made soft (the network's errors make them a guess), once with the
network's points rounded to whole ones and every choice hard, so that
seats meet ties as in the exact game, where an indifferent seat's card
often decides another's points. The depth grows one trick at
a time while the time allows, and the deepest finished search answers; when
the next depth does not fit for every card, the time left searches the
contenders for best one trick deeper, the best first, until the best card is
one so searched (close cards are where the network's errors decide). When
the deepest search's leaves are small enough for the networks trained on
exact values, several such networks (a committee, by default
``solver.evaluator.default_committee``: trained from other labels and
seeds) search the same depth in turn while the time allows, and vote: the
values are the mean of those that finished, the best card the one most of
them name. Near ties, where the network's errors decide, are where they
disagree; each breaks them its own way, and the vote picked better cards
than any one network (docs/experiments.md). The
result says which it is (``exact``), so proven values and estimates are
never mixed up. The exact search is tried up to ``estimate_points`` cards a
hand, with a share of the time that falls with the size
(``analysis.reach.EXACT_REACH``).

With a ``match`` (``solver.MatchState``) the values are each seat's chance of
winning the match instead (RULES.md, "Values of a position in a match"):
exact by ``solver.match_values.solve_match`` when it finishes (tried up to
``estimate_chances`` cards a hand), else the same deepening with
``solver.match_values.card_chances``, whose leaves turn the network's points into
chances (the Coins left fall one at a time by each seat's share of the
points; then the next-hands table): an approximation on top of the
network's. (The contenders are not searched deeper there.) Points and
chances are two paths (``_estimate_points``, ``_estimate_chances``) that
share only the clock, the deepening and the answer (``_Run``).
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from solver import CoinsError, MatchState, Position
from solver.cards import Card
from solver.compiled import ensure_compiled
from solver.evaluator import ValueNet, default_committee, search_card_results
from solver.match import check_match
from solver.match_values import card_chances, solve_match
from solver.maxn import solve_maxn
from solver.threads import DEFAULT_THREADS, BudgetExhausted

from ._common import as_position, preferred_card
from .reach import EXACT_REACH

DEFAULT_TIME_LIMIT = 1.0
# The deepest search of points, in tricks: searches three tricks deep picked worse
# cards than two on the sets chosen on (docs/experiments.md), now that the
# boundary table lets them finish within a second.
MAX_POINTS_DEPTH = 2
# The weight of the search in whole points beside the soft one: each alone picked
# worse cards and marked worse costs than the two averaged (docs/experiments.md).
WHOLE_POINTS_WEIGHT = 0.5
# With every hand open a card's points are whole, so an estimated card less than
# half a point behind the best may well be worth as much: too close to call.
ESTIMATE_TIE = 0.5
# Nodes a second assumed at the least: the first depth's few hundred nodes measure
# mostly the calls around them, while the two-trick searches run at 1-1.5 million
# nodes a second on two threads (a busier machine is held by the deadline).
_MIN_RATE = 1e6


def tied_cards(card_results: dict, mover: int, estimated: bool) -> list[Card]:
    """The cards that give ``mover`` the most own points, in ``card_results``'
    order; for estimated points, every card less than ``ESTIMATE_TIE`` behind
    (it rounds to no cost)."""
    slack = ESTIMATE_TIE - 1e-9 if estimated else 0
    top = max(result[mover] for result in card_results.values())
    return [c for c, result in card_results.items() if result[mover] >= top - slack - 1e-9]


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
    order); ``tied`` the cards as good as it for the mover (for estimated
    points, less than ``ESTIMATE_TIE`` behind it: too close to call), best
    first; ``margin`` how many points its own value leads the next card by
    (0 when several cards tie). ``votes``: when several networks searched (a
    committee), how many named each card best; the values are then their mean
    and ``best`` the card most named (among those, the best by the values).
    ``nodes`` and ``seconds`` are the work done.
    """

    position: Position
    card_results: dict[Card, tuple[float, float, float]]
    exact: bool
    depth: int | None
    nodes: int
    seconds: float
    match: MatchState | None = None
    deeper: tuple[Card, ...] = ()
    votes: dict[Card, int] = field(default_factory=dict)
    best: Card = field(init=False)
    tied: tuple[Card, ...] = field(init=False)
    margin: float = field(init=False)

    def __post_init__(self):
        mover = self.position.to_move
        most = max(self.votes.values(), default=0)
        named = {c: r for c, r in self.card_results.items() if self.votes.get(c, 0) == most}
        self.best = preferred_card(named, mover)
        as_good = tied_cards(self.card_results, mover, not self.exact and self.match is None)
        self.tied = (self.best,) + tuple(c for c in as_good if c != self.best)
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
            "votes": {str(c): n for c, n in self.votes.items()},
            "best": str(self.best),
            "tied": [str(c) for c in self.tied],
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
    net: ValueNet | Sequence[ValueNet] | None = None,
    match: MatchState | None = None,
) -> Estimate:
    """Every card's max^n points for the mover, exact when that fits ``time_limit``
    seconds and estimated beyond; always answers within about the limit.

    ``net``: another ``solver.evaluator.ValueNet``, or a committee of them (the
    first searches every depth, the others vote at the deepest); default the
    shipped committee. ``match``: every card's chances of winning that match
    instead (by the first network; the search for them runs on one thread).
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
    nets = _committee(net)
    ensure_compiled()  # before the clock: a first run compiles
    if match is None:
        return _estimate_points(_Run(position, time_limit), threads, nets)
    return _estimate_chances(_Run(position, time_limit), match, nets[0])


def _committee(net) -> tuple[ValueNet, ...]:
    """``estimate``'s ``net`` as a committee of one or more networks."""
    if net is None:
        return default_committee()
    nets = (net,) if isinstance(net, ValueNet) else net
    if (
        isinstance(nets, (str, bytes))
        or not isinstance(nets, Sequence)
        or not nets
        or not all(isinstance(n, ValueNet) for n in nets)
    ):
        raise CoinsError(f"net must be a ValueNet or a sequence of them, not {net!r}")
    return tuple(nets)


def _estimate_points(run: _Run, threads: int, nets: tuple[ValueNet, ...]) -> Estimate:
    """Every card's max^n points: exact by ``solve_maxn`` when it finishes in its
    share of the time; else the deepest search that fits, then the contenders
    for best one trick deeper, or the committee's vote at that depth."""
    position = run.position
    if position.cards_per_hand <= EXACT_REACH.estimate_points:
        exact = solve_maxn(position, time_limit=run.exact_seconds(), line=False, threads=threads)
        run.nodes += exact.nodes
        if exact.exact:
            return run.answer(exact.card_results, exact=True)
    results, depth = run.deepen(
        lambda tricks, budget, deadline: _card_points(
            position, tricks, budget, net=nets[0], threads=threads, deadline=deadline
        ),
        MAX_POINTS_DEPTH,
    )
    if depth >= _tricks_to_end(position):  # no network read: whole numbers of points
        return run.answer({c: [round(v) for v in r] for c, r in results.items()}, exact=True)
    values = {c: tuple(r) for c, r in results.items()}
    deeper, votes = (), {}
    if depth < MAX_POINTS_DEPTH:
        deeper, spent = _deepen_contenders(
            position, values, depth + 1, run.deadline, threads, nets[0]
        )
        run.nodes += spent
    elif len(nets) > 1 and _tricks_to_end(position) - depth <= min(n.split for n in nets):
        values, votes, spent = _vote(position, values, depth, nets[1:], run.deadline, threads)
        run.nodes += spent
    return run.answer(values, exact=False, depth=depth, deeper=deeper, votes=votes)


def _estimate_chances(run: _Run, match: MatchState, net) -> Estimate:
    """Every card's chances of winning ``match``: exact by ``solve_match`` when it
    finishes in its share of the time; else the deepest search that fits (on
    one thread)."""
    position = run.position
    if position.cards_per_hand <= EXACT_REACH.estimate_chances:
        exact = solve_match(
            position, match.target, match.scores, time_limit=run.exact_seconds(), line=False
        )
        run.nodes += exact.nodes
        if exact.exact:
            return run.answer(exact.card_chances, exact=True, match=match)
    results, depth = run.deepen(
        lambda tricks, budget, deadline: card_chances(
            position, match, tricks, budget, net=net, deadline=deadline
        )
    )
    exact = depth >= _tricks_to_end(position)
    return run.answer(results, exact=exact, depth=None if exact else depth, match=match)


class _Run:
    """What the two kinds of estimate share: the clock, the nodes spent, the
    deepening and the answer."""

    def __init__(self, position: Position, time_limit: float):
        self.position = position
        self.time_limit = time_limit
        self.start = time.perf_counter()
        self.deadline = self.start + time_limit
        self.nodes = 0

    def exact_seconds(self) -> float:
        """The exact search's share of the time at this size."""
        return self.time_limit * EXACT_REACH.estimate_share(self.position.cards_per_hand)

    def deepen(self, search, most: int | None = None) -> tuple[dict, int]:
        """Searches of 1, 2, ... tricks (``search(tricks, max_nodes, deadline)``),
        to ``most`` at the most, while the next is expected to finish in time:
        the deepest one's results and its depth."""
        position, deadline = self.position, self.deadline
        tricks_left = (
            _tricks_to_end(position) if most is None else min(most, _tricks_to_end(position))
        )
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
            budget, stop_at = (
                (None, None) if results is None else (max(1, int(left * rate)), deadline)
            )
            began = time.perf_counter()
            try:
                found, spent = search(depth + 1, budget, stop_at)
            except BudgetExhausted:
                self.nodes += budget or 0
                break
            took = time.perf_counter() - began
            self.nodes += spent
            rate = max(rate, spent / took) if took > 0 else rate
            results, depth, last_nodes = found, depth + 1, spent
        return results, depth

    def answer(
        self,
        results: dict,
        *,
        exact: bool,
        depth: int | None = None,
        match: MatchState | None = None,
        deeper=(),
        votes=None,
    ) -> Estimate:
        return Estimate(
            self.position,
            {c: tuple(r) for c, r in results.items()},
            exact,
            depth,
            self.nodes,
            time.perf_counter() - self.start,
            match,
            tuple(sorted(deeper)),
            votes or {},
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
            found, spent = _card_points(
                position, tricks, cards=cards, net=net, threads=threads, deadline=deadline
            )
        except BudgetExhausted:
            break
        nodes += spent
        for card, result in found.items():
            values[card] = tuple(result)
            deeper.add(card)
    return deeper, nodes


def _vote(position, values, tricks, voters, deadline, threads):
    """The ``voters``' searches of ``tricks`` tricks, in turn until ``deadline``:
    every card's mean values over the networks that finished (those of
    ``values``, the first network's, among them), how many of them named each
    card best, and the nodes spent."""
    finished, nodes = [values], 0
    for voter in voters:
        try:
            found, spent = _card_points(
                position, tricks, net=voter, threads=threads, deadline=deadline
            )
        except BudgetExhausted:
            break
        nodes += spent
        finished.append({c: tuple(r) for c, r in found.items()})
    mean = {
        card: tuple(sum(v[card][seat] for v in finished) / len(finished) for seat in range(3))
        for card in values
    }
    votes = Counter(preferred_card(v, position.to_move) for v in finished)
    return mean, dict(votes), nodes


def _card_points(position, tricks, max_nodes=None, *, cards=None, net, threads, deadline):
    """``search_card_results`` soft and in whole points, averaged by
    ``WHOLE_POINTS_WEIGHT`` (each search gets half of ``max_nodes``), and the
    nodes of both."""
    budget = None if max_nodes is None else max(1, max_nodes // 2)
    common = dict(cards=cards, net=net, threads=threads, deadline=deadline)
    soft, nodes = search_card_results(position, tricks, budget, **common)
    whole, more = search_card_results(
        position, tricks, budget, softness=0.0, whole_points=True, **common
    )
    weight = WHOLE_POINTS_WEIGHT
    blended = {
        card: [(1 - weight) * a + weight * b for a, b in zip(soft[card], whole[card])]
        for card in soft
    }
    return blended, nodes + more


def _tricks_to_end(position: Position) -> int:
    """Tricks left to finish, the current one included."""
    return max(len(position.hand(s)) for s in range(3))


def _growth(position: Position, depth: int) -> float:
    """Roughly how many times the nodes of a search one trick deeper: each seat's
    choices in the next trick."""
    cards = max(1, position.cards_per_hand - depth)
    return float(cards) ** 3 / 4
