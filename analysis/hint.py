"""Hints for a seat that sees only its own hand: determinised Monte Carlo search.

``hint(view)`` samples deals consistent with what the seat to move has seen,
values every card of that seat in each sampled deal with every hand visible,
and ranks the cards by their mean over the deals. Every card is valued on
the same deals, so two cards are compared by their difference deal by deal
(a paired comparison): the luck of the deal, which moves both alike, drops
out. A card whose difference from the leader is clearly negative drops out
of contention and is not valued on later deals, so the budget goes to the
cards still in the running; cards whose difference from the best is within
the noise are reported as tied with it.

How a card is valued in one deal (``evaluation``):

- ``"playout"`` (default): exactly when the mover holds at most
  ``exact_cards`` cards (``mode`` decides: own max^n points or the
  guaranteed value); before that, greedy play (``solver.playouts``) to
  ``horizon`` cards a hand, then exactly, averaged over ``rollouts``
  playouts.
- ``"search"`` (``mode="maxn"`` only): exactly when small; before that the
  estimate of ``solver.evaluator``: max^n searched for ``SEARCH_TRICKS``
  tricks, a network trained on exact values beyond. It is the closer
  estimate of the open-hand max^n values, yet in play against the bots it
  did worse than the playouts, which model opponents that play by
  heuristics (docs/experiments.md), so it is not the default.

With a ``match`` (``solver.MatchState``: the target and the scores when the
hand began) a card's value in a deal is the mover's chance of winning the
match instead (RULES.md, "Values of a position in a match"): exact
(``solver.winning``) up to ``EXACT_CARDS["match"]`` cards a hand, before that
the match-aware estimate (``SEARCH_TRICKS`` tricks searched, the network's
points turned into chances beyond). ``points=True`` values every card's
points as well, as without a match, and each entry shows their mean.

Which deals (``sampler``): ``"uniform"`` among those consistent with the
view (``solver.sampling``), or ``"weighted"``: a pool of uniform deals,
drawn by how likely each makes the opponents' plays so far
(``analysis.inference``).

Budget: at most ``samples`` deals and ``time_limit`` seconds. The kernels
are compiled (or loaded from the cache) before the clock starts; deals are
valued on ``threads`` threads, a deal each, and the clock is read between
deals, so no search inside runs a timer of its own; a batch of deals that
would end past the limit (as long as the longest batch so far) is not
begun. For a fixed ``seed``
and number of deals the hint is reproducible: deal ``i`` draws on its own
stream.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Iterable
from dataclasses import dataclass, replace

from solver import CoinsError, MatchState, Position, checks, solve
from solver.cards import Card
from solver.compiled import ensure_compiled
from solver.evaluator import search_card_results
from solver.match import check_match
from solver.maxn import solve_maxn
from solver.playouts import play_until
from solver.record import Record
from solver.sampling import ViewSampler, resample_position
from solver.threads import on_threads
from solver.winning import card_chances

from ._common import Interrupted
from .inference import DEFAULT_TREMBLE, deal_weights, hidden_plays

MODES = ("maxn", "paranoid")
SAMPLERS = ("uniform", "weighted")
EVALUATIONS = ("search", "playout")
DEFAULT_SAMPLER = "uniform"
DEFAULT_EVALUATION = "playout"
DEFAULT_HORIZON = 5
POOL_FACTOR = 10  # weighted sampling: uniform deals in the pool per deal drawn
POOL_MIN = 100
DEFAULT_SAMPLES = 200
MAX_SAMPLES = 10_000
DEFAULT_TIME_LIMIT = 1.0
DEFAULT_ROLLOUTS = 3
DEFAULT_EPSILON = 0.1
# Exact per deal up to this many cards a hand: a 5-card match-aware search
# takes milliseconds, a 6-card one a tenth of a second
EXACT_CARDS = {"maxn": 6, "paranoid": 8, "match": 5}
# Tricks the search evaluation plays before the network: one keeps a deal to
# milliseconds at any size, so a second of hint holds a hundred deals or more.
SEARCH_TRICKS = 1
# Paired comparisons: a card leaves contention when its mean difference from
# the leader is below zero by more than ELIMINATE standard errors (after at
# least MIN_SAMPLES deals); at the end a card is tied with the best when the
# difference is within TIED standard errors.
MIN_SAMPLES = 8
ELIMINATE = 3.0
TIED = 2.0


@dataclass(frozen=True)
class HintEntry:
    """One card's estimate over the deals it was valued on (``samples``): the
    ``mean`` points for the mover, that mean's ``stderr`` (None from fewer
    than two deals), ``best_rate``, the share of those deals where the card
    was one of the best, ``behind``, the best card's mean lead over it on the
    same deals, with its ``behind_stderr``, and ``tied``: the card is still in
    contention and its lead is within the noise (the best card is tied with
    itself). In a hint for a match, ``mean`` is the chance of winning it and
    ``points`` (when asked for) the mean points on the same deals."""

    card: Card
    mean: float
    stderr: float | None
    best_rate: float
    samples: int
    behind: float = 0.0
    behind_stderr: float | None = None
    tied: bool = True
    points: float | None = None

    def to_json(self) -> dict:
        def rounded(v):
            return None if v is None else round(v, 6)

        return {
            "card": str(self.card),
            "mean": round(self.mean, 6),
            "stderr": rounded(self.stderr),
            "best_rate": round(self.best_rate, 6),
            "samples": self.samples,
            "behind": round(self.behind, 6),
            "behind_stderr": rounded(self.behind_stderr),
            "tied": self.tied,
        } | ({"points": rounded(self.points)} if self.points is not None else {})


class Hint(list):
    """The entries of a hint, best first (a list), with how they were found:
    ``seat``, ``samples`` (deals drawn), ``exact`` (how many were valued
    exactly), ``mode``, ``evaluation``, ``sampler``, ``effective`` (the
    effective sample size of the weighted deals: ``samples`` when every deal
    weighs the same), ``seconds``, the ``match`` it played for (or None), and
    ``interrupted``: Ctrl-C stopped it, the entries are of the deals valued by then."""

    def __init__(
        self,
        entries,
        *,
        seat,
        samples,
        exact,
        mode,
        seconds,
        sampler="uniform",
        effective=None,
        evaluation=DEFAULT_EVALUATION,
        match=None,
        interrupted=False,
    ):
        super().__init__(entries)
        self.interrupted = interrupted
        self.match = match
        self.sampler = sampler
        self.evaluation = evaluation
        self.effective = samples if effective is None else effective
        self.seat = seat
        self.samples = samples
        self.exact = exact
        self.mode = mode
        self.seconds = seconds

    @property
    def best(self) -> HintEntry:
        return self[0]

    @property
    def tied(self) -> list[HintEntry]:
        """The entries statistically tied with the best (the best first)."""
        return [entry for entry in self if entry.tied]

    def to_json(self) -> dict:
        return {
            "seat": self.seat,
            "mode": self.mode,
            "evaluation": self.evaluation,
            "sampler": self.sampler,
            "samples": self.samples,
            "effective_samples": round(self.effective, 3),
            "exact_samples": self.exact,
            "seconds": round(self.seconds, 6),
            "interrupted": self.interrupted,
            **({"match": self.match.to_json()} if self.match else {}),
            "cards": [entry.to_json() for entry in self],
        }


def hint(
    view: Record | Position | str,
    samples: int | None = None,
    time_limit: float | None = None,
    seed: int | None = None,
    mode: str = "maxn",
    *,
    sampler: str = DEFAULT_SAMPLER,
    evaluation: str = DEFAULT_EVALUATION,
    rng: random.Random | None = None,
    deals: Iterable[Position | str] | None = None,
    rollouts: int = DEFAULT_ROLLOUTS,
    epsilon: float = DEFAULT_EPSILON,
    exact_cards: int | None = None,
    horizon: int = DEFAULT_HORIZON,
    tremble: float = DEFAULT_TREMBLE,
    threads: int = 2,
    match: MatchState | None = None,
    points: bool = False,
) -> Hint:
    """Ranked cards for the seat to move, from what it sees.

    ``view``: a record with the other hands hidden (``?``), as text or a
    ``Record`` (before any card is played, the position with hidden hands
    is enough); a full record is read as the mover's view of it; a full
    ``Position`` (or its text) as what its mover sees there (the other two
    hands are dealt again from their union in each sample). ``deals``
    replaces sampling with the given full positions (the view is then not
    needed: pass None). ``samples`` / ``time_limit``: the budget (defaults
    200 deals, 1 s; ``time_limit=0`` for none, which makes the result depend
    only on the seed and the sample count). ``seed`` or ``rng``: the random
    stream. ``mode``: ``"maxn"`` (own points when everyone plays for
    themselves) or ``"paranoid"`` (guaranteed points). See the module
    docstring for ``evaluation``, ``sampler`` and the playout options
    ``rollouts``, ``epsilon``, ``horizon``; ``exact_cards``: value a deal
    exactly up to this many cards a hand. ``match``: rank the cards by the
    chance of winning that match (``mode`` maxn only); ``points``: with a
    match, give each card's mean points too. Ctrl-C raises ``Interrupted``
    holding the hint of the deals valued so far (a plain KeyboardInterrupt
    before the first).
    """
    if mode not in MODES:
        raise CoinsError(f'mode "{mode}" is not a hint mode: use maxn or paranoid')
    if sampler not in SAMPLERS:
        raise CoinsError(f'sampler "{sampler}" is not a sampler: use uniform or weighted')
    if evaluation not in EVALUATIONS:
        raise CoinsError(f'evaluation "{evaluation}" is not an evaluation: use search or playout')
    samples, time_limit = check_budget(samples, time_limit)
    if not isinstance(rollouts, int) or rollouts < 1:
        raise CoinsError(f"rollouts must be a positive whole number, not {rollouts!r}")
    if isinstance(horizon, bool) or not isinstance(horizon, int) or horizon < 0:
        raise CoinsError(f"horizon must be a whole number of cards, not {horizon!r}")
    if not 0 < tremble <= 1:
        raise CoinsError(f"tremble must be a probability above 0, not {tremble!r}")
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise CoinsError(f"threads must be a positive whole number, not {threads!r}")
    if check_match(match) is not None and mode != "maxn":
        raise CoinsError("a hint for a match plays for the match: mode must be maxn")
    exact_cards = EXACT_CARDS["match" if match else mode] if exact_cards is None else exact_cards
    if rng is not None and seed is not None:
        raise CoinsError("give rng or seed, not both")
    if mode == "paranoid":
        evaluation = "playout"
    master = rng if rng is not None else random.Random(checks.seed(seed))
    source = _deal_source(view, deals, sampler, samples, tremble, master)
    value = _Evaluator(
        mode,
        evaluation,
        exact_cards,
        horizon,
        rollouts,
        epsilon,
        match,
        points and match is not None,
    )

    ensure_compiled()  # before the clock: a first run compiles
    start = time.perf_counter()
    deadline = start + time_limit if time_limit else None
    evaluated: dict[object, dict[Card, float]] = {}
    points_of: dict[object, dict[Card, float]] = {}  # with a match: the points beside
    weights: dict[object, int] = {}
    order: list[object] = []  # the distinct deals, in the order first drawn
    contenders: list[Card] | None = None
    drawn = exact_done = 0
    batch_seconds = 0.0  # the longest batch so far: one that would end past the deadline waits
    streams = (random.Random(master.getrandbits(64)) for _ in itertools.count())
    interrupted = False
    try:
        while drawn < samples and (
            deadline is None or not drawn or time.perf_counter() + batch_seconds < deadline
        ):
            began = time.perf_counter()
            batch = []
            for _ in range(min(threads, samples - drawn)):
                stream = next(streams)
                key = source.key(drawn + len(batch), stream)
                if key is None:
                    break
                batch.append((key, stream))
            if not batch:
                break
            fresh = [(key, stream) for key, stream in dict(batch).items() if key not in evaluated]
            found = (
                on_threads(
                    lambda t: [
                        value(source.position(key), contenders, stream)
                        for key, stream in fresh[t::threads]
                    ],
                    min(threads, max(1, len(fresh))),
                )
                if fresh
                else []
            )
            for t, part in enumerate(found):
                for (key, _), (values, exact, own_points) in zip(fresh[t::threads], part):
                    evaluated[key] = values
                    if own_points is not None:
                        points_of[key] = own_points
                    order.append(key)
                    exact_done += exact
            for key, _ in batch:
                weights[key] = weights.get(key, 0) + 1
            drawn += len(batch)
            contenders = _contenders(evaluated, weights, order, contenders)
            batch_seconds = max(batch_seconds, time.perf_counter() - began)
    except KeyboardInterrupt:  # rank the deals fully counted, if any
        interrupted = True
        order = [key for key in order if key in weights]
        if not order:
            raise
        drawn = sum(weights[key] for key in order)
    entries, effective = aggregate(
        [evaluated[k] for k in order], [weights[k] for k in order], contenders
    )
    if points_of:
        entries = [
            replace(entry, points=_mean_over(points_of, weights, order, entry.card))
            for entry in entries
        ]
    result = Hint(
        entries,
        seat=source.mover,
        samples=drawn,
        exact=exact_done,
        mode=mode,
        sampler=sampler,
        effective=effective,
        evaluation=evaluation,
        match=match,
        seconds=time.perf_counter() - start,
        interrupted=interrupted,
    )
    if interrupted:
        raise Interrupted(result)
    return result


def check_budget(samples: int | None, time_limit: float | None) -> tuple[int, float]:
    """A hint's budget, defaults filled in: ``samples`` from 1 to ``MAX_SAMPLES``
    deals (weighted sampling keeps ``POOL_FACTOR`` times as many in memory) and
    ``time_limit`` seconds (0: no limit)."""
    samples = DEFAULT_SAMPLES if samples is None else samples
    time_limit = DEFAULT_TIME_LIMIT if time_limit is None else time_limit
    return (
        checks.whole_number(samples, "samples", 1, MAX_SAMPLES),
        checks.seconds(time_limit, "time_limit", zero_means_none=True),
    )


def _contenders(evaluated, weights, order, contenders) -> list[Card]:
    """The cards still worth valuing: those not clearly behind the leader."""
    values = [evaluated[k] for k in order]
    cards = list(values[0]) if contenders is None else contenders
    if len(order) < MIN_SAMPLES or len(cards) < 2:
        return cards
    w = [weights[k] for k in order]
    leader = max(cards, key=lambda c: _mean([v[c] for v in values], w))
    kept = []
    for card in cards:
        lead, stderr = _paired(values, w, leader, card)
        if card == leader or stderr is None or lead <= ELIMINATE * stderr:
            kept.append(card)
    return kept


def _mean_over(values, weights, order, card: Card) -> float:
    """The weighted mean of ``card``'s value over the deals it was valued on."""
    pairs = [(values[k][card], weights[k]) for k in order if card in values[k]]
    return _mean([v for v, _ in pairs], [w for _, w in pairs])


def _mean(xs, ws) -> float:
    return sum(w * x for w, x in zip(ws, xs)) / sum(ws)


def _stderr(xs, ws) -> float | None:
    """The standard error of the weighted mean over the effective sample size
    ``(sum w)^2 / sum w^2`` (equal weights: ``s / sqrt(n)``); None below two."""
    total = sum(ws)
    effective = total * total / sum(w * w for w in ws)
    if len(xs) < 2 or effective <= 1 + 1e-9:
        return None
    mean = _mean(xs, ws)
    spread = sum(w * (x - mean) ** 2 for w, x in zip(ws, xs)) / total
    return math.sqrt(spread / (effective - 1))


def _paired(values, weights, a: Card, b: Card) -> tuple[float, float | None]:
    """Mean lead of card ``a`` over ``b`` on the deals where both were valued, and its stderr."""
    pairs = [(v[a] - v[b], w) for v, w in zip(values, weights) if a in v and b in v]
    if not pairs:
        return 0.0, None
    diffs, ws = zip(*pairs)
    return _mean(diffs, ws), _stderr(diffs, ws)


def aggregate(
    values: list[dict[Card, float]], weights: list[float], contenders: Iterable[Card] | None = None
) -> tuple[list[HintEntry], float]:
    """Hint entries from each deal's card values and the deal's weight, and
    the effective sample size ``(sum w)^2 / sum w^2``. The best card comes
    first, then the other cards in contention, then those that left it, each
    group by the best card's lead over them.

    A card left out of later deals (out of contention) is judged on the deals
    it was valued on. Means and best rates are weighted; the best card's lead
    over each other card is the weighted mean of their differences deal by
    deal, with its standard error; a card is tied with the best when that
    lead is at most ``TIED`` standard errors (or zero with no spread) and it
    is among ``contenders`` (by default every card): a card that left
    contention was judged clearly behind, and its few deals must not make it
    look tied.
    """
    total = sum(weights)
    if not values or total <= 0:
        raise CoinsError("no deal with a positive weight to aggregate")
    effective = total * total / sum(w * w for w in weights)
    rows = []
    for card in values[0]:
        mine = [(v, w) for v, w in zip(values, weights) if card in v]
        vs = [v[card] for v, _ in mine]
        ws = [w for _, w in mine]
        best = sum(w for v, w in mine if v[card] == max(v.values()))
        rows.append((card, _mean(vs, ws), _stderr(vs, ws), best / sum(ws), len(mine)))
    rows.sort(key=lambda r: (-r[4], -r[1], -r[3], r[0]))  # the cards in contention longest
    leader = rows[0][0]
    in_contention = set(values[0] if contenders is None else contenders)
    entries = []
    for card, mean, stderr, best_rate, n in rows:
        lead, lead_stderr = _paired(values, weights, leader, card)
        tied = (
            card == leader
            or card in in_contention
            and (lead <= TIED * lead_stderr if lead_stderr is not None else abs(lead) < 1e-9)
        )
        entries.append(HintEntry(card, mean, stderr, best_rate, n, lead, lead_stderr, tied))
    entries.sort(
        key=lambda e: (
            e.card != leader,
            e.card not in in_contention,
            round(e.behind, 9),
            -round(e.mean, 9),
            -e.best_rate,
            e.card,
        )
    )
    return entries, effective


class _Deals:
    """Where a hint's deals come from: ``key(i, rng)`` names the ``i``-th deal
    drawn (None when there are no more; equal keys, the same deal, valued
    once and counted again), ``position(key)`` is that deal's position."""

    def __init__(self, mover, key, position):
        self.mover = mover
        self.key = key
        self.position = position


def read_view(text: str) -> Record | Position:
    """A view or record (``?`` hands, or ``... | cards``), or a bare position."""
    text = text.strip()
    if "|" in text or "?" in text.split(" ")[:3]:
        return Record.parse(text)
    return Position.parse(text)


def _deal_source(view, deals, sampler, samples, tremble, master) -> _Deals:
    if deals is not None:
        positions = [Position.parse(d) if isinstance(d, str) else d for d in deals]
        if not positions:
            raise CoinsError("deals is empty: give at least one full position")
        movers = {p.to_move for p in positions}
        if len(movers) != 1 or any(p.is_terminal for p in positions):
            raise CoinsError("the given deals must all have the same seat to move, hand not over")
        return _Deals(
            movers.pop(), lambda i, rng: i if i < len(positions) else None, positions.__getitem__
        )
    if isinstance(view, str):
        view = read_view(view)
    if isinstance(view, Position):
        if view.is_terminal:
            raise CoinsError("the hand is over: there is no card to hint")
        seat = view.to_move
        return _fresh(seat, lambda rng: resample_position(view, seat, rng))
    if not isinstance(view, Record):
        raise CoinsError(f"a view is a Record, a Position or text, not {type(view).__name__}")
    mover = view.to_move
    if not view.is_view:
        view = view.view(mover)
    if view.hands[mover] is None:
        raise CoinsError(f"the view hides the hand of seat {mover}, the seat to move")
    if sum(view.hand_sizes) == len(view.moves):
        raise CoinsError("the hand is over: there is no card to hint")
    source = ViewSampler(view)
    if sampler == "uniform" or not hidden_plays(view):
        return _fresh(mover, lambda rng: source.sample(rng).position)
    # importance resampling: a pool of uniform deals weighted by the likelihood
    # of the opponents' plays; each draw picks one of them by weight
    pool_rng = random.Random(master.getrandbits(64))
    pool = [source.sample_hands(pool_rng) for _ in range(max(POOL_MIN, POOL_FACTOR * samples))]
    cumulative = list(itertools.accumulate(deal_weights(view, pool, tremble)))
    indices = range(len(pool))

    def key(i, rng):
        return rng.choices(indices, cum_weights=cumulative)[0]

    return _Deals(mover, key, lambda j: source.deal(pool[j]).position)


def _fresh(mover, draw) -> _Deals:
    """Every draw a new deal from ``draw(rng)``."""
    drawn = {}

    def key(i, rng):
        drawn[i] = draw(rng)
        return i

    return _Deals(mover, key, drawn.pop)


class _Evaluator:
    """Values cards in one full deal: ``(position, cards, rng) -> ({card: the
    mover's points}, 1 if exact else 0, None)``; ``cards`` None means every
    card. With a ``match``, the mover's chances of winning it instead, and
    with ``points`` its points as well, in place of None. Runs on one search
    thread (deals are shared out over threads instead)."""

    def __init__(
        self, mode, evaluation, exact_cards, horizon, rollouts, epsilon, match=None, points=False
    ):
        self.mode = mode
        self.evaluation = evaluation
        self.exact_cards = exact_cards if match is None else EXACT_CARDS[mode]
        self.horizon = horizon
        self.rollouts = rollouts
        self.epsilon = epsilon
        self.match = match
        self.match_exact_cards = exact_cards
        self.points = points

    def __call__(self, position: Position, cards, rng: random.Random):
        if self.match is None:
            return *self._points(position, cards, rng), None
        mover = position.to_move
        exact = position.cards_per_hand <= self.match_exact_cards
        found, _ = card_chances(position, self.match, None if exact else SEARCH_TRICKS)
        chances = _only({card: values[mover] for card, values in found.items()}, cards)
        return chances, int(exact), self._points(position, cards, rng)[0] if self.points else None

    def _points(self, position: Position, cards, rng: random.Random):
        mover = position.to_move
        if position.cards_per_hand <= self.exact_cards:
            if self.mode == "maxn":
                result = solve_maxn(position, line=False, threads=1)
                values = {c: float(r[mover]) for c, r in result.card_results.items()}
            else:
                result = solve(position, (mover,), line=False, threads=1)
                values = {c: float(v) for c, v in result.card_values.items()}
            return _only(values, cards), 1
        cards = position.legal_cards() if cards is None else cards
        if self.evaluation == "search":
            found, _ = search_card_results(position, SEARCH_TRICKS, threads=1)
            return {c: found[c][mover] for c in cards}, 0
        return {c: self._playouts(position, c, rng) for c in cards}, 0

    def _playouts(self, position: Position, card: Card, rng: random.Random) -> float:
        """Mean points for the mover after ``card``: greedy play to the horizon, then exact."""
        mover = position.to_move
        after = position.play(card)
        stream = random.Random(rng.getrandbits(64))
        total = 0
        for _ in range(self.rollouts):
            hands, leader, trick, points = play_until(
                after.hands, after.leader, after.trick, stream, self.epsilon, self.horizon
            )
            rest = Position(tuple(hands), leader, tuple(trick))
            total += points[mover] + _exact_value(rest, mover, self.mode)
        # points of a trick the card completed are in after.taken, not in the playout
        return total / self.rollouts + (after.taken[mover] - position.taken[mover])


def _only(values: dict[Card, float], cards) -> dict[Card, float]:
    return values if cards is None else {c: values[c] for c in cards}


def _exact_value(position: Position, seat: int, mode: str) -> int:
    """Seat's points from ``position`` on (max^n or guaranteed), on one thread."""
    if position.is_terminal or position.coins_left == 0:
        return 0
    if mode == "maxn":
        return solve_maxn(position, card_results=False, line=False, threads=1).equilibrium[seat]
    return solve(position, (seat,), card_values=False, line=False, threads=1).guaranteed[seat]
