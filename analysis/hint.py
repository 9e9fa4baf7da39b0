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

A hint is configured by two objects, as python-chess's ``Limit`` and
OpenSpiel's injected evaluators configure their searches:

- ``HintSettings``: which deals and how many, and how the other seats play
  in them. ``sampler``: ``"uniform"`` among those consistent with the view
  (``solver.sampling``), or a pool of uniform deals, each drawn by how likely
  it makes the opponents' plays so far: under greedy with trembles
  (``"weighted"``, ``analysis.inference``) or under the opponent model
  (``"model"``, ``analysis.opponents``: the kind of each seat unknown too).
  ``opponents``: ``"greedy"``, the playouts play every seat greedy with
  random cards, or ``"model"``, each other seat by a kind of play drawn from
  what its cards so far say of it in that deal (where both are drawn as
  greedy, the deal's exact parts reply best to greedy's cards:
  ``analysis.evaluators``); with either ``"model"`` the
  hint reports that belief (``Hint.beliefs``). ``policy_weight``: in a
  hint for own points, each card's value in a deal is blended with the
  value the card policy learned by self-play gives it from the mover's
  view (``solver.card_policy``). Budget: at most
  ``samples`` deals and ``time_limit`` seconds. The kernels are compiled (or
  loaded from the cache) before the clock starts; deals are valued on
  ``threads`` threads, a deal each, and the clock is read between deals, so
  no search inside runs a timer of its own; a batch of deals that would end
  past the limit (as long as the longest batch so far) is not begun.
- the evaluator: how a card is valued in one deal (``analysis.evaluators``):
  ``PlayoutEvaluator`` (the default), ``PolicyEvaluator``, ``SearchEvaluator``, or
  ``MatchEvaluator`` for the chance of winning a match.

The older keywords (``samples``, ``time_limit``, ``mode``, ``sampler``,
``evaluation``, ``rollouts``, ``epsilon``, ``exact_cards``, ``horizon``,
``tremble``, ``threads``, ``match``, ``points``) are still taken, and read
into the two objects in one place (``configure``).

For a fixed ``seed`` and number of deals the hint is reproducible: deal
``i`` draws on its own stream.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Iterable
from dataclasses import dataclass, replace

from solver import CoinsError, MatchState, Position, checks
from solver.card_policy import default_policy
from solver.cards import Card
from solver.compiled import ensure_compiled
from solver.errors import OptionError
from solver.match import check_match
from solver.record import Record
from solver.sampling import ViewSampler, resample_position
from solver.threads import on_threads

from ._common import Interrupted
from .evaluators import (
    DEFAULT_EPSILON,
    DEFAULT_HORIZON,
    DEFAULT_ROLLOUTS,
    DealEvaluator,
    MatchEvaluator,
    PlayoutEvaluator,
    PolicyEvaluator,
    SearchEvaluator,
)
from .inference import DEFAULT_TREMBLE, deal_weights, hidden_plays
from .opponents import Evidence, OpponentModel, check_model

SAMPLERS = ("uniform", "weighted", "model")
OPPONENTS = ("greedy", "model")
DEFAULT_OPPONENTS = "model"
EVALUATIONS = ("search", "playout", "policy")
DEFAULT_SAMPLER = "model"
DEFAULT_EVALUATION = "playout"
POOL_FACTOR = 10  # weighted sampling: uniform deals in the pool per deal drawn
POOL_MIN = 100
# With a time limit, the most of it the pool's drawing may take: 10 times the
# deals asked for (up to 100,000) took 4.6 s of Python, while the deals valued
# within a second are a few hundred.
POOL_SHARE = 0.25
DEFAULT_SAMPLES = 200
MAX_SAMPLES = 10_000
DEFAULT_TIME_LIMIT = 1.0
DEFAULT_THREADS = 2
# The card policy's share in each card's points: the first weight tried, beside
# greedy bots on deals of its own, then measured on the gauntlet's tune set
# (docs/experiments.md)
DEFAULT_POLICY_WEIGHT = 0.5
# Paired comparisons: a card leaves contention when its mean difference from
# the leader is below zero by more than ELIMINATE standard errors (after at
# least MIN_SAMPLES deals); at the end a card is tied with the best when the
# difference is within TIED standard errors.
MIN_SAMPLES = 8
ELIMINATE = 3.0
TIED = 2.0
# The older keywords of ``hint``, by the object they configure.
SETTINGS_KEYWORDS = (
    "samples",
    "time_limit",
    "sampler",
    "tremble",
    "threads",
    "opponents",
    "policy_weight",
)
EVALUATOR_KEYWORDS = (
    "mode",
    "evaluation",
    "exact_cards",
    "horizon",
    "rollouts",
    "epsilon",
    "match",
    "points",
)


@dataclass(frozen=True)
class HintSettings:
    """Which deals a hint values and how many: at most ``samples`` deals (1 to
    ``MAX_SAMPLES``) and ``time_limit`` seconds (0: no limit, which makes the
    result depend only on the seed and the sample count), drawn by
    ``sampler`` (``"uniform"``, ``"weighted"``, whose greedy model of the
    opponents plays a random card with probability ``tremble``, or
    ``"model"``), valued on ``threads`` threads, a deal each, with the other
    seats played in the playouts by ``opponents`` (``"greedy"`` or
    ``"model"``); ``model``: the library of kinds and their prior.
    ``policy_weight`` (0 to 1): in a hint for own points (max^n, no match),
    each deal's value of a card is blended with the learned card policy's
    value of it from the mover's view (``solver.card_policy``). A deal's
    value, exact or not, assumes every hand is seen from then on; the
    policy learned how a hand goes on when none is."""

    samples: int = DEFAULT_SAMPLES
    time_limit: float = DEFAULT_TIME_LIMIT
    sampler: str = DEFAULT_SAMPLER
    tremble: float = DEFAULT_TREMBLE
    threads: int = DEFAULT_THREADS
    opponents: str = DEFAULT_OPPONENTS
    model: OpponentModel = OpponentModel()
    policy_weight: float = DEFAULT_POLICY_WEIGHT

    @property
    def modelled(self) -> bool:
        """Whether the opponent model is read (for the deals or the playouts)."""
        return self.sampler == "model" or self.opponents == "model"

    def __post_init__(self):
        if self.sampler not in SAMPLERS:
            raise CoinsError(
                f'sampler "{self.sampler}" is not a sampler: use {", ".join(SAMPLERS)}'
            )
        if self.opponents not in OPPONENTS:
            raise CoinsError(
                f'opponents "{self.opponents}" is not a way to play them: use greedy or model'
            )
        check_model(self.model)
        samples, time_limit = check_budget(self.samples, self.time_limit)
        object.__setattr__(self, "samples", samples)
        object.__setattr__(self, "time_limit", time_limit)
        if isinstance(self.tremble, bool) or not 0 < self.tremble <= 1:
            raise OptionError(f"tremble must be a probability above 0, not {self.tremble!r}")
        object.__setattr__(self, "policy_weight", checks.share(self.policy_weight, "policy_weight"))
        threads = self.threads
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise OptionError(f"threads must be a positive whole number, not {threads!r}")


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
    weighs the same), ``seconds``, the ``match`` it played for (or None),
    ``opponents`` (how the playouts played the other seats), ``beliefs``
    (with the opponent model: a ``SeatBelief`` for each other seat, else
    empty), ``policy_weight`` (the card policy's share in the values: 0
    when it was not blended in) and ``interrupted``: Ctrl-C stopped it, the
    entries are of the deals valued by then."""

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
        opponents=DEFAULT_OPPONENTS,
        beliefs=(),
        policy_weight=0.0,
    ):
        super().__init__(entries)
        self.policy_weight = policy_weight
        self.opponents = opponents
        self.beliefs = list(beliefs)
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
            "opponents": self.opponents,
            "policy_weight": self.policy_weight,
            "beliefs": [belief.to_json() for belief in self.beliefs],
            "samples": self.samples,
            "effective_samples": round(self.effective, 3),
            "exact_samples": self.exact,
            "seconds": round(self.seconds, 6),
            "interrupted": self.interrupted,
            **({"match": self.match.to_json()} if self.match else {}),
            "cards": [entry.to_json() for entry in self],
        }


def hint(
    view: Record | Position | str | None,
    samples: int | None = None,
    time_limit: float | None = None,
    seed: int | None = None,
    mode: str | None = None,
    *,
    settings: HintSettings | None = None,
    evaluator: DealEvaluator | None = None,
    rng: random.Random | None = None,
    deals: Iterable[Position | str] | None = None,
    **keywords,
) -> Hint:
    """Ranked cards for the seat to move, from what it sees.

    ``view``: a record with the other hands hidden (``?``), as text or a
    ``Record`` (before any card is played, the position with hidden hands
    is enough); a full record is read as the mover's view of it; a full
    ``Position`` (or its text) as what its mover sees there (the other two
    hands are dealt again from their union in each sample). ``deals``
    replaces sampling with the given full positions (the view is then not
    needed: pass None). ``settings`` (``HintSettings``): the deals and the
    budget (defaults 200 deals, 1 s); ``evaluator``: how a card is valued in
    a deal (default ``PlayoutEvaluator()``: own points when everyone plays
    for themselves; ``analysis.evaluators``). ``seed`` or ``rng``: the random
    stream. ``samples``, ``time_limit``, ``mode`` and the other older
    keywords stand for the two objects (``configure``). Ctrl-C raises
    ``Interrupted`` holding the hint of the deals valued so far (a plain
    KeyboardInterrupt before the first).
    """
    older = {"samples": samples, "time_limit": time_limit, "mode": mode, **keywords}
    settings, evaluator = configure(
        settings, evaluator, **{name: value for name, value in older.items() if value is not None}
    )
    if rng is not None and seed is not None:
        raise CoinsError("give rng or seed, not both")
    master = rng if rng is not None else random.Random(checks.seed(seed))
    samples, threads = settings.samples, settings.threads
    began = time.perf_counter()
    source = _deal_source(view, deals, settings, master)
    pooled = time.perf_counter() - began  # a weighted pool's drawing counts in the budget

    ensure_compiled()  # before the clock: a first run compiles
    start = time.perf_counter() - pooled
    deadline = start + settings.time_limit if settings.time_limit else None
    evaluated: dict[object, dict[Card, float]] = {}
    points_of: dict[object, dict[Card, float]] = {}  # with a match: the points beside
    weights: dict[object, int] = {}
    order: list[object] = []  # the distinct deals, in the order first drawn
    contenders: list[Card] | None = None
    drawn = exact_done = 0
    # the policy's values read only the mover's view, the same in every deal
    weight = settings.policy_weight if evaluator.match is None and evaluator.mode == "maxn" else 0
    policy_values = None
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
            fresh = [
                (key, stream, source.position(key))
                for key, stream in dict(batch).items()
                if key not in evaluated
            ]
            found = (
                on_threads(
                    lambda t: [
                        evaluator(position, contenders, stream, source.kinds(key, stream))
                        for key, stream, position in fresh[t::threads]
                    ],
                    min(threads, max(1, len(fresh))),
                )
                if fresh
                else []
            )
            for t, part in enumerate(found):
                for (key, _, position), (values, exact, own_points) in zip(fresh[t::threads], part):
                    if weight:
                        policy_values = policy_values or default_policy().values(position)
                        values = _blend(values, policy_values, weight)
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
        mode=evaluator.mode,
        sampler=settings.sampler,
        effective=effective,
        evaluation=evaluator.evaluation,
        match=evaluator.match,
        seconds=time.perf_counter() - start,
        interrupted=interrupted,
        opponents=settings.opponents,
        beliefs=source.beliefs(),
        policy_weight=weight if policy_values is not None else 0.0,
    )
    if interrupted:
        raise Interrupted(result)
    return result


def configure(
    settings: HintSettings | None = None, evaluator: DealEvaluator | None = None, **keywords
) -> tuple[HintSettings, DealEvaluator]:
    """The settings and the evaluator of a hint from ``hint``'s older keywords, the
    one place they are read: ``samples``, ``time_limit``, ``sampler``,
    ``tremble`` and ``threads`` make the settings; ``mode`` (``"maxn"`` or
    ``"paranoid"``), ``evaluation`` (``"playout"``, ``"policy"`` or ``"search"``;
    paranoid values always come from playouts, greedy or the policy's), ``exact_cards``, ``horizon``,
    ``rollouts``, ``epsilon``, ``match`` and ``points`` the evaluator. With a
    ``match``, ``exact_cards`` is the match evaluator's, and ``points=True``
    values the points as well, with the mode's own exact reach. An object
    given whole takes none of its keywords."""
    unknown = sorted(set(keywords) - set(SETTINGS_KEYWORDS) - set(EVALUATOR_KEYWORDS))
    if unknown:
        raise TypeError(f"hint() got an unexpected keyword argument {unknown[0]!r}")
    for given, names, what in (
        (settings, SETTINGS_KEYWORDS, "settings"),
        (evaluator, EVALUATOR_KEYWORDS, "evaluator"),
    ):
        clash = [name for name in names if name in keywords]
        if given is not None and clash:
            raise CoinsError(f"give {what} or {', '.join(clash)}, not both")
    if settings is None:
        settings = HintSettings(**{n: keywords[n] for n in SETTINGS_KEYWORDS if n in keywords})
    if evaluator is None:
        evaluator = _evaluator(**{n: keywords[n] for n in EVALUATOR_KEYWORDS if n in keywords})
    return settings, evaluator


def _evaluator(
    mode: str = "maxn",
    evaluation: str = DEFAULT_EVALUATION,
    exact_cards: int | None = None,
    horizon: int = DEFAULT_HORIZON,
    rollouts: int = DEFAULT_ROLLOUTS,
    epsilon: float = DEFAULT_EPSILON,
    match: MatchState | None = None,
    points: bool = False,
) -> DealEvaluator:
    if evaluation not in EVALUATIONS:
        raise CoinsError(
            f'evaluation "{evaluation}" is not an evaluation: use {", ".join(EVALUATIONS)}'
        )
    if check_match(match) is not None and mode != "maxn":
        raise CoinsError("a hint for a match plays for the match: mode must be maxn")
    points_cards = None if match is not None else exact_cards
    if evaluation == "policy":
        own = PolicyEvaluator(mode, points_cards, horizon)
    elif evaluation == "playout" or mode != "maxn":
        own = PlayoutEvaluator(mode, points_cards, horizon, rollouts, epsilon)
    else:
        own = SearchEvaluator(mode, points_cards)
    if match is None:
        return own
    return MatchEvaluator(match, exact_cards, own if points else None)


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


def _blend(values: dict[Card, float], policy: dict[Card, float], weight: float):
    """A deal's card values, ``weight`` of each the card policy's."""
    return {card: (1 - weight) * value + weight * policy[card] for card, value in values.items()}


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
        if abs(lead) < 1e-9:  # equal means: weighted sums can leave -1e-17, shown as "-0.00"
            lead = 0.0
        tied = (
            card == leader
            or card in in_contention
            and (lead <= TIED * lead_stderr if lead_stderr is not None else lead == 0)
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
    once and counted again), ``position(key)`` is that deal's position, and
    ``kinds(key, rng)`` how the playouts play its other seats (None: greedy);
    ``beliefs()``: what the opponent model believes of them, if it is read."""

    def __init__(self, mover, key, position, kinds=lambda key, rng: None, beliefs=list):
        self.mover = mover
        self.key = key
        self.position = position
        self.kinds = kinds
        self.beliefs = beliefs


def read_view(text: str) -> Record | Position:
    """A view or record (``?`` hands, or ``... | cards``), or a bare position."""
    text = text.strip()
    if "|" in text or "?" in text.split(" ")[:3]:
        return Record.parse(text)
    return Position.parse(text)


def _deal_source(view, deals, settings: HintSettings, master) -> _Deals:
    source = _unmodelled_source(view, deals, settings, master)
    if not settings.modelled:
        return source
    if isinstance(source, tuple):  # a view with the other seats' plays to read
        return _modelled_source(*source, settings, master)
    # nothing seen of the other seats: every deal alike, their kinds from the prior
    seats = [seat for seat in range(3) if seat != source.mover]
    return _with_evidence(source, settings.model.without_evidence(seats), lambda key: 0, settings)


def _with_evidence(source: _Deals, evidence: Evidence, index, settings) -> _Deals:
    """``source`` with the kinds of its deals drawn from ``evidence`` (deal
    ``index(key)`` of it) when the playouts play them, and its beliefs."""
    if settings.opponents == "model":
        source.kinds = lambda key, rng: _policies(evidence.draw(index(key), rng))
    source.beliefs = evidence.beliefs
    return source


def _policies(kinds) -> dict:
    return {seat: kind.policy for seat, kind in kinds.items()}


def _modelled_source(view: Record, sampler: ViewSampler, settings: HintSettings, master):
    """With ``sampler`` uniform, fresh deals, each one's other seats' kinds
    read from it, the beliefs from all of them; else a pool of uniform
    deals, drawn by weight, the kinds and beliefs read from the pool."""
    model = settings.model
    if settings.sampler == "uniform":
        drawn = {}

        def fresh(i, rng):
            drawn[i] = sampler.sample_hands(rng)
            return i

        return _Deals(
            view.to_move,
            fresh,
            lambda i: sampler.deal(drawn[i]).position,
            (lambda i, rng: _policies(model.evidence(view, [drawn[i]]).draw(0, rng)))
            if settings.opponents == "model"
            else (lambda i, rng: None),
            lambda: model.evidence(view, list(drawn.values())).beliefs(),
        )
    pool = _pool(sampler, settings, master)
    evidence = model.evidence(view, pool)
    if settings.sampler == "model":
        weights = evidence.deal_weights().tolist()
    else:
        weights = deal_weights(view, pool, settings.tremble)
    source = _weighted(view.to_move, sampler, pool, weights)
    return _with_evidence(source, evidence, lambda j: j, settings)


def _unmodelled_source(view, deals, settings: HintSettings, master):
    """The deals without the opponent model; with it on, for a view where the
    other seats have played, (the view, its sampler) for the model to read."""
    sampler, tremble = settings.sampler, settings.tremble
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
    if settings.modelled and hidden_plays(view):
        return view, source
    if sampler != "weighted" or not hidden_plays(view):
        return _fresh(mover, lambda rng: source.sample(rng).position)
    # importance resampling: a pool of uniform deals weighted by the likelihood
    # of the opponents' plays; each draw picks one of them by weight
    pool = _pool(source, settings, master)
    return _weighted(mover, source, pool, deal_weights(view, pool, tremble))


def _pool(sampler: ViewSampler, settings: HintSettings, master) -> list:
    """Uniform deals for a weighted pool: ``POOL_FACTOR`` for each deal asked
    for (at least ``POOL_MIN``), fewer when drawing them would take more than
    ``POOL_SHARE`` of the time limit."""
    rng = random.Random(master.getrandbits(64))
    size = max(POOL_MIN, POOL_FACTOR * settings.samples)
    stop = time.perf_counter() + POOL_SHARE * settings.time_limit if settings.time_limit else None
    pool = []
    while len(pool) < size:
        pool.append(sampler.sample_hands(rng))
        if stop is not None and len(pool) >= POOL_MIN and time.perf_counter() > stop:
            break
    return pool


def _weighted(mover, sampler: ViewSampler, pool: list, weights) -> _Deals:
    """Each draw one of ``pool``'s deals, picked by ``weights``."""
    cumulative = list(itertools.accumulate(weights))
    indices = range(len(pool))

    def key(i, rng):
        return rng.choices(indices, cum_weights=cumulative)[0]

    return _Deals(mover, key, lambda j: sampler.deal(pool[j]).position)


def _fresh(mover, draw) -> _Deals:
    """Every draw a new deal from ``draw(rng)``."""
    drawn = {}

    def key(i, rng):
        drawn[i] = draw(rng)
        return i

    return _Deals(mover, key, drawn.pop)
