"""Hints for a seat that sees only its own hand: determinised Monte Carlo search.

``hint(view)`` samples deals consistent with what the seat to move has seen,
evaluates every legal card of that seat in each sampled deal with every hand
visible, and aggregates per card the mean, its standard error and how often
the card was (one of) the best in a deal. Entries come best first (highest
mean, then best rate, then index order).

Which deals (``sampler``):

- ``"uniform"``: uniformly among the deals consistent with the view
  (``solver.sampling``).
- ``"weighted"``: importance resampling. A pool of ``POOL_FACTOR`` uniform
  deals per sample is weighted by how likely each makes the plays the hidden
  seats made in this hand (``analysis.inference``: greedy play with
  trembles); each sample draws a pool deal by weight. A deal drawn k times is
  evaluated once and weighs k: the mean is weighted, the standard error is
  the weighted spread over the effective sample size ``(sum w)^2 / sum w^2``
  (``aggregate``; equal weights give the plain mean and ``s / sqrt(n)``).
  A ``Position`` carries no record of who played what, so it is always
  sampled uniformly.

  Measured (``python -m benchmarks.hint_quality``; pimc at 10 samples, no
  time limit, duplicate deals, paired difference uniform minus weighted):
  beside a greedy bot, -0.05 +-0.25 points a hand (140 deals) and -0.12
  +-0.43 (40 deals): no difference; beside a random bot, +1.28 +-0.54 (40
  deals): the greedy model misreads random play and weighting costs more
  than a point a hand. How often the hint's best card is an open-hand best
  card of the true deal (60 views each at 8, 6 and 4 cards): 85% uniform,
  86% weighted over the nine cells, weighted ahead on hands played by greedy
  bots and mixed elsewhere. So the default is ``"uniform"``; ``"weighted"``
  is there for opponents that play like the model.

How a card is valued in one sampled deal:

- **Exact**, when the seat to move holds at most ``exact_cards`` cards
  (default 6 for max^n, 8 for paranoid): ``mode="maxn"`` (default) takes the
  mover's own points in the card's max^n result (``solve_maxn``: everyone
  plays for themselves); ``mode="paranoid"`` its guaranteed value after the
  card (``solve`` for the mover alone: the other two against it). Measured
  on random endings, warm, 2 threads, 15 positions each: max^n with every
  card's result takes 0.007 s median / 0.028 s max at 6 cards, 0.049 / 0.23 s
  at 7, 0.25 / 1.9 s at 8; the mover's paranoid card values 0.002 / 0.044 s
  at 8. So 30 exact samples fit in a second up to 6 cards (max^n) or 8
  (paranoid).
- **Greedy play to a horizon, then exact**, earlier in the hand: the card is
  played, the hand goes on by the greedy heuristic of ``analysis.playout``
  (compiled; a random card with probability ``epsilon``) until no hand holds
  more than ``horizon`` cards, and the rest is solved exactly (the mode's
  value); the card's value is the mover's points on the way plus that exact
  value, the mean of ``rollouts`` such playouts (default 3, horizon 5).
  Measured (``python -m benchmarks.hint_quality``: 200 deals of views at 8
  cards a hand, each evaluator's card against the deal's exact max^n card
  values; exact best card / mean regret in points): greedy to 5 cards x3
  then exact 70% / 0.315; x1 66% / 0.375; to 3, 4, 6 cards x1: 69 / 0.325,
  68 / 0.335, 68 / 0.330; the former evaluation, 8 greedy rollouts to the
  end of the hand, 71% / 0.315. So the exact endgame is sound but not a
  measurable gain at 8 cards, nor in duplicate play (former evaluation
  minus horizon 5 x1: +0.10 +-0.46 points a hand, 40 deals); a whole hint at
  16 cards (30 samples, 2 threads) takes 0.25 s median with x3 at horizon 5,
  0.14 s x1, 1.1 s at horizon 6 (too slow), 0.08 s for the former rollouts.

Both cores (``threads``, default 2): an exact solve of a whole deal runs on
that many search threads; early in a hand the deal's cards are
shared out over that many threads instead, each playing out
and solving its cards on one search thread: the playouts are compiled and
the searches release the GIL. Measured (30 samples, no time limit, 8 views x
3 seeds each, orders rotated, another benchmark running: load 4-5 on 2
cores): 16 cards a hand, median 0.117 s on one thread, 0.133 s with 2 search
threads per solve, 0.088 s with the cards over 2 threads; 10 cards, 0.087 /
0.096 / 0.087 s. ``benchmarks/strength.py`` times the default hint on two
threads and on one in turn (10 views): 0.31 / 0.39 s at 16 cards, 0.27 /
0.34 s at 13 (0.18 / 0.40 and 0.16 / 0.36 s in a run with one playout a
card). Each card has its own random stream, so the values do not depend on
``threads``.

Budget: ``samples`` deals at most and ``time_limit`` seconds (defaults 30 and
1 s); sampling stops when time runs out, but at least one deal is always
evaluated (the first has no time limit). For a fixed ``seed`` and number of
samples the hint is reproducible: deal ``i`` and its playouts draw on their
own stream, seeded from ``seed``, so a time limit only decides how many of
the same deals are used.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Iterable
from dataclasses import dataclass

from solver import CoinsError, Position, checks, solve
from solver.cards import Card
from solver.maxn import solve_maxn
from solver.record import Record
from solver.sampling import ViewSampler, resample_position
from solver.threads import on_threads

from .inference import DEFAULT_TREMBLE, deal_weights, hidden_plays
from .playout import play_until

MODES = ("maxn", "paranoid")
SAMPLERS = ("uniform", "weighted")
DEFAULT_SAMPLER = "uniform"  # measured: see the module docstring
DEFAULT_HORIZON = 5
POOL_FACTOR = 10  # weighted sampling: uniform deals weighted per deal drawn
POOL_MIN = 100
DEFAULT_SAMPLES = 30
MAX_SAMPLES = 10_000
DEFAULT_TIME_LIMIT = 1.0
DEFAULT_ROLLOUTS = 3
DEFAULT_EPSILON = 0.1
EXACT_CARDS = {"maxn": 6, "paranoid": 8}


@dataclass(frozen=True)
class HintEntry:
    """One card's estimate: ``mean`` points for the mover over the sampled deals,
    the ``stderr`` of that mean, and ``best_rate``, the share of deals in which
    the card was one of the best."""

    card: Card
    mean: float
    stderr: float
    best_rate: float

    def to_json(self) -> dict:
        return {
            "card": str(self.card),
            "mean": round(self.mean, 6),
            "stderr": round(self.stderr, 6),
            "best_rate": round(self.best_rate, 6),
        }


class Hint(list):
    """The entries of a hint, best first (a list), with how they were found:
    ``seat``, ``samples`` (deals evaluated), ``exact`` (how many of them exactly),
    ``mode``, ``sampler``, ``effective`` (the effective sample size of the
    weighted deals: ``samples`` when every deal weighs the same), ``seconds``."""

    def __init__(self, entries, *, seat, samples, exact, mode, seconds, sampler="uniform",
                 effective=None):
        super().__init__(entries)
        self.sampler = sampler
        self.effective = samples if effective is None else effective
        self.seat = seat
        self.samples = samples
        self.exact = exact
        self.mode = mode
        self.seconds = seconds

    @property
    def best(self) -> HintEntry:
        return self[0]

    def to_json(self) -> dict:
        return {
            "seat": self.seat,
            "mode": self.mode,
            "sampler": self.sampler,
            "samples": self.samples,
            "effective_samples": round(self.effective, 3),
            "exact_samples": self.exact,
            "seconds": round(self.seconds, 6),
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
    rng: random.Random | None = None,
    deals: Iterable[Position | str] | None = None,
    rollouts: int = DEFAULT_ROLLOUTS,
    epsilon: float = DEFAULT_EPSILON,
    exact_cards: int | None = None,
    horizon: int = DEFAULT_HORIZON,
    tremble: float = DEFAULT_TREMBLE,
    threads: int = 2,
) -> Hint:
    """Ranked cards for the seat to move, from what it sees.

    ``view``: a record with the other hands hidden (``?``), as text or a
    ``Record``; a full record is read as the mover's view of it; a full
    ``Position`` as what its mover sees there (the other two hands are dealt
    again from their union in each sample; with no record of play there is
    nothing to weight, so ``sampler`` does not matter). ``deals`` replaces
    sampling with the given full positions (the view is then not needed:
    pass None). ``samples`` / ``time_limit``: the budget (defaults 30 deals,
    1 s; pass ``time_limit=0`` for no time limit, which makes the result
    depend only on the seed and the sample count). ``seed`` or ``rng``: the
    random stream. ``mode``: ``"maxn"`` (own points when everyone plays for
    themselves) or ``"paranoid"`` (guaranteed points) for the exact
    evaluation. ``sampler``: ``"uniform"`` or ``"weighted"`` (by the
    likelihood of the opponents' plays, ``tremble`` the model's noise). See
    the module docstring for ``rollouts``, ``epsilon``, ``horizon`` and
    ``exact_cards``.
    """
    if mode not in MODES:
        raise CoinsError(f'mode "{mode}" is not a hint mode: use maxn or paranoid')
    if sampler not in SAMPLERS:
        raise CoinsError(f'sampler "{sampler}" is not a sampler: use uniform or weighted')
    samples, time_limit = check_budget(samples, time_limit)
    if not isinstance(rollouts, int) or rollouts < 1:
        raise CoinsError(f"rollouts must be a positive whole number, not {rollouts!r}")
    if isinstance(horizon, bool) or not isinstance(horizon, int) or horizon < 0:
        raise CoinsError(f"horizon must be a whole number of cards, not {horizon!r}")
    if not 0 < tremble <= 1:
        raise CoinsError(f"tremble must be a probability above 0, not {tremble!r}")
    exact_cards = EXACT_CARDS[mode] if exact_cards is None else exact_cards
    if rng is not None and seed is not None:
        raise CoinsError("give rng or seed, not both")
    master = rng if rng is not None else random.Random(checks.seed(seed))

    start = time.perf_counter()
    deadline = start + time_limit if time_limit else None
    source = _deal_source(view, deals, sampler, samples, tremble, master)
    evaluated: dict[object, dict[Card, float]] = {}
    weights: dict[object, int] = {}
    drawn = exact_done = 0
    for i in range(samples):
        sample_rng = random.Random(master.getrandbits(64))
        key = source.key(i, sample_rng)
        if key is None:
            break
        if key not in evaluated:
            if i > 0 and deadline is not None and time.perf_counter() >= deadline:
                break
            left = None
            if i > 0 and deadline is not None:
                left = deadline - time.perf_counter()
            found = _evaluate(source.position(key), mode, exact_cards, horizon, rollouts,
                              epsilon, sample_rng, left, threads)  # fmt: skip
            if found is None:  # an exact search ran out of time
                break
            evaluated[key], exact = found
            exact_done += exact
        weights[key] = weights.get(key, 0) + 1
        drawn += 1
    keys = list(evaluated)
    entries, effective = aggregate([evaluated[k] for k in keys], [weights[k] for k in keys])
    return Hint(entries, seat=source.mover, samples=drawn, exact=exact_done, mode=mode,
                sampler=sampler, effective=effective,
                seconds=time.perf_counter() - start)  # fmt: skip


def check_budget(samples: int | None, time_limit: float | None) -> tuple[int, float]:
    """A hint's budget, defaults filled in: ``samples`` from 1 to ``MAX_SAMPLES``
    deals (weighted sampling keeps ``POOL_FACTOR`` times as many in memory) and
    ``time_limit`` seconds (0: no limit)."""
    samples = DEFAULT_SAMPLES if samples is None else samples
    time_limit = DEFAULT_TIME_LIMIT if time_limit is None else time_limit
    return (checks.whole_number(samples, "samples", 1, MAX_SAMPLES),
            checks.seconds(time_limit, "time_limit", zero_means_none=True))  # fmt: skip


def aggregate(values: list[dict[Card, float]], weights: list[float]) -> tuple[list[HintEntry], float]:
    """Hint entries (best first) from each deal's card values and the deal's
    weight, and the effective sample size ``(sum w)^2 / sum w^2``.

    The mean is weighted; the standard error is the weighted spread over the
    effective sample size (with equal weights: the usual ``s / sqrt(n)``); the
    best rate is the weighted share of deals where the card was best.
    """
    total = sum(weights)
    if not values or total <= 0:
        raise CoinsError("no deal with a positive weight to aggregate")
    effective = total * total / sum(w * w for w in weights)
    entries = []
    for card in values[0]:
        vs = [v[card] for v in values]
        mean = sum(w * v for w, v in zip(weights, vs)) / total
        stderr = 0.0
        if effective > 1 + 1e-9:
            spread = sum(w * (v - mean) ** 2 for w, v in zip(weights, vs)) / total
            stderr = math.sqrt(spread * effective / (effective - 1) / effective)
        best = sum(w for w, v in zip(weights, values) if v[card] == max(v.values()))
        entries.append(HintEntry(card, mean, stderr, best / total))
    entries.sort(key=lambda e: (-e.mean, -e.best_rate, e.card))
    return entries, effective


class _Deals:
    """Where a hint's deals come from: ``key(i, rng)`` names the ``i``-th deal
    drawn (None when there are no more; equal keys, the same deal, evaluated
    once and counted again), ``position(key)`` is that deal's position."""

    def __init__(self, mover, key, position):
        self.mover = mover
        self.key = key
        self.position = position


def _deal_source(view, deals, sampler, samples, tremble, master) -> _Deals:
    if deals is not None:
        positions = [Position.parse(d) if isinstance(d, str) else d for d in deals]
        if not positions:
            raise CoinsError("deals is empty: give at least one full position")
        movers = {p.to_move for p in positions}
        if len(movers) != 1 or any(p.is_terminal for p in positions):
            raise CoinsError("the given deals must all have the same seat to move, hand not over")
        return _Deals(movers.pop(), lambda i, rng: i if i < len(positions) else None,
                      positions.__getitem__)  # fmt: skip
    if isinstance(view, Position):
        if view.is_terminal:
            raise CoinsError("the hand is over: there is no card to hint")
        seat = view.to_move
        return _fresh(seat, lambda rng: resample_position(view, seat, rng))
    if isinstance(view, str):
        view = Record.parse(view)
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


def _evaluate(position, mode, exact_cards, horizon, rollouts, epsilon, rng, left, threads):
    """({card: the mover's value}, 1 if exact else 0), or None if out of time."""
    mover = position.to_move
    if position.cards_per_hand <= exact_cards:
        if mode == "maxn":
            result = solve_maxn(position, time_limit=left, card_results=True, line=False,
                                threads=threads)  # fmt: skip
            if not result.exact:
                return None
            return {c: float(r[mover]) for c, r in result.card_results.items()}, 1
        result = solve(position, (mover,), time_limit=left, line=False, threads=threads)
        if not result.exact:
            return None
        return {c: float(v) for c, v in result.card_values.items()}, 1
    deadline = None if left is None else time.perf_counter() + left
    cards = position.legal_cards()
    # each card its own stream, so the values do not depend on how cards are shared out
    jobs = [(card, random.Random(rng.getrandbits(64))) for card in cards]

    def value_of(jobs, search_threads):
        values = {}
        for card, card_rng in jobs:
            after = position.play(card)
            total = 0
            for _ in range(rollouts):
                hands, leader, trick, points = play_until(after.hands, after.leader, after.trick,
                                                          card_rng, epsilon, horizon)  # fmt: skip
                rest = _exact_value(Position(tuple(hands), leader, tuple(trick)), mover, mode,
                                    deadline, search_threads)  # fmt: skip
                if rest is None:
                    return None
                total += points[mover] + rest
            # points of a trick the card completed are in after.taken, not in the playout
            values[card] = total / rollouts + (after.taken[mover] - position.taken[mover])
        return values

    if threads > 1 and len(jobs) > 1:
        # the cards shared out over threads, each solving on one search thread
        parts = on_threads(lambda t: value_of(jobs[t::threads], 1), threads)
    else:
        parts = [value_of(jobs, threads)]
    if any(part is None for part in parts):
        return None
    return {card: v for part in parts for card, v in part.items()}, 0


def _exact_value(position: Position, seat: int, mode: str, deadline, threads) -> float | None:
    """Seat's points from ``position`` on (max^n or guaranteed), None if out of time."""
    if position.is_terminal or position.coins_left == 0:
        return 0
    left = None
    if deadline is not None:
        left = deadline - time.perf_counter()
        if left <= 0:
            return None
    if mode == "maxn":
        result = solve_maxn(position, time_limit=left, card_results=False, line=False,
                            threads=threads)  # fmt: skip
        return result.equilibrium[seat] if result.exact else None
    result = solve(position, (seat,), time_limit=left, card_values=False, line=False,
                   threads=threads)  # fmt: skip
    return result.guaranteed[seat] if result.exact else None
