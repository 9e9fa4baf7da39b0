"""Hints for a seat that sees only its own hand: determinised Monte Carlo search.

``hint(view)`` samples deals consistent with what the seat to move has seen
(``solver.sampling``: uniform, seeded), evaluates every legal card of that seat
in each sampled deal with every hand visible, and aggregates per card the
mean, its standard error and how often the card was (one of) the best in a
deal. Entries come best first (highest mean, then best rate, then index
order).

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
- **Rollouts**, earlier in the hand: the card is played, then the rest of the
  hand is played out ``rollouts`` times by the greedy heuristic of
  ``analysis.playout`` with a random card now and then (``epsilon``), and the
  mover's mean points are the card's value (in both modes). This is a
  **placeholder** to improve: greedy play is a weak model of the opponents
  and of the mover's own later play. Better would be a depth-limited search
  with a sound evaluation, or rollouts to the exact-search horizon followed
  by an exact solve, with the switch-over point set by measurement.

Budget: ``samples`` deals at most and ``time_limit`` seconds (defaults 30 and
1 s); sampling stops when time runs out, but at least one deal is always
evaluated (the first exact solve has no time limit). For a fixed ``seed`` and
number of samples the hint is reproducible: deal ``i`` and its rollouts draw
on their own stream, seeded from ``seed``, so a time limit only decides how
many of the same deals are used.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable
from dataclasses import dataclass

from solver import CoinsError, Position, solve
from solver.cards import Card
from solver.maxn import solve_maxn
from solver.record import Record
from solver.sampling import ViewSampler, resample_position

from .playout import playout

MODES = ("maxn", "paranoid")
DEFAULT_SAMPLES = 30
DEFAULT_TIME_LIMIT = 1.0
DEFAULT_ROLLOUTS = 8
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
    ``mode``, ``seconds``."""

    def __init__(self, entries, *, seat, samples, exact, mode, seconds):
        super().__init__(entries)
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
            "samples": self.samples,
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
    rng: random.Random | None = None,
    deals: Iterable[Position | str] | None = None,
    rollouts: int = DEFAULT_ROLLOUTS,
    epsilon: float = DEFAULT_EPSILON,
    exact_cards: int | None = None,
    threads: int = 2,
) -> Hint:
    """Ranked cards for the seat to move, from what it sees.

    ``view``: a record with the other hands hidden (``?``), as text or a
    ``Record``; a full record is read as the mover's view of it; a full
    ``Position`` as what its mover sees there (the other two hands are dealt
    again from their union in each sample). ``deals`` replaces sampling with
    the given full positions (the view is then not needed: pass None).
    ``samples`` / ``time_limit``: the budget (defaults 30 deals, 1 s; pass
    ``time_limit=0`` for no time limit, which makes the result depend only on
    the seed and the sample count). ``seed`` or ``rng``: the random stream.
    ``mode``: ``"maxn"`` (own points when everyone plays for themselves) or
    ``"paranoid"`` (guaranteed points) for the exact evaluation; see the module
    docstring for rollouts, ``rollouts``, ``epsilon`` and ``exact_cards``.
    """
    if mode not in MODES:
        raise CoinsError(f'mode "{mode}" is not a hint mode: use maxn or paranoid')
    samples = DEFAULT_SAMPLES if samples is None else samples
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise CoinsError(f"samples must be a positive whole number, not {samples!r}")
    time_limit = DEFAULT_TIME_LIMIT if time_limit is None else time_limit
    if not time_limit >= 0:
        raise CoinsError(f"time_limit must be seconds (0 for none), not {time_limit!r}")
    if not isinstance(rollouts, int) or rollouts < 1:
        raise CoinsError(f"rollouts must be a positive whole number, not {rollouts!r}")
    exact_cards = EXACT_CARDS[mode] if exact_cards is None else exact_cards
    if rng is not None and seed is not None:
        raise CoinsError("give rng or seed, not both")
    master = rng if rng is not None else random.Random(seed)

    start = time.perf_counter()
    deadline = start + time_limit if time_limit else None
    draw, mover = _deal_source(view, deals)
    values: dict[Card, list[float]] = {}
    best_counts: dict[Card, int] = {}
    done = exact_done = 0
    for i in range(samples):
        sample_rng = random.Random(master.getrandbits(64))
        if i > 0 and deadline is not None and time.perf_counter() >= deadline:
            break
        position = draw(i, sample_rng)
        if position is None:
            break
        left = None
        if i > 0 and deadline is not None:
            left = deadline - time.perf_counter()
        found = _evaluate(position, mode, exact_cards, rollouts, epsilon, sample_rng, left, threads)
        if found is None:  # an exact search ran out of time
            break
        by_card, exact = found
        done += 1
        exact_done += exact
        top = max(by_card.values())
        for card, value in by_card.items():
            values.setdefault(card, []).append(value)
            best_counts[card] = best_counts.get(card, 0) + (value == top)
    entries = [
        HintEntry(card, _mean(v), _stderr(v), best_counts[card] / done)
        for card, v in values.items()
    ]
    entries.sort(key=lambda e: (-e.mean, -e.best_rate, e.card))
    return Hint(entries, seat=mover, samples=done, exact=exact_done, mode=mode,
                seconds=time.perf_counter() - start)  # fmt: skip


def _deal_source(view, deals):
    """(draw(i, rng) -> full Position or None when there are no more, mover)."""
    if deals is not None:
        positions = [Position.parse(d) if isinstance(d, str) else d for d in deals]
        if not positions:
            raise CoinsError("deals is empty: give at least one full position")
        movers = {p.to_move for p in positions}
        if len(movers) != 1 or any(p.is_terminal for p in positions):
            raise CoinsError("the given deals must all have the same seat to move, hand not over")
        return (lambda i, rng: positions[i] if i < len(positions) else None), movers.pop()
    if isinstance(view, Position):
        if view.is_terminal:
            raise CoinsError("the hand is over: there is no card to hint")
        seat = view.to_move
        return (lambda i, rng: resample_position(view, seat, rng)), seat
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
    return (lambda i, rng: source.sample(rng).position), mover


def _evaluate(position, mode, exact_cards, rollouts, epsilon, rng, left, threads):
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
    values = {}
    for card in position.legal_cards():
        after = position.play(card)
        total = 0
        for _ in range(rollouts):
            total += playout(after.hands, after.leader, after.trick, rng, epsilon)[mover]
        # points of a trick the card completed are in after.taken, not in the playout
        values[card] = total / rollouts + (after.taken[mover] - position.taken[mover])
    return values, 0


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def _stderr(values: list[float]) -> float:
    n = len(values)
    if n < 2:
        return 0.0
    mean = _mean(values)
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return math.sqrt(variance / n)
