"""Duplicate hands and matches between bots, with 95% confidence intervals.

``duplicate(bots, hands, seed)`` deals ``hands`` deals; each deal is played
once per seating, the three bots rotated round the table (so each plays every
seat of every deal equally), with the same dealer. Luck of the cards cancels
out of the comparison: a bot's score for a deal is its mean over the
seatings, and the interval is over deals (deals are independent; the
seatings of one deal are not).

``matches(bots, count, target, seed)`` plays whole matches to ``target``
(``solver.match.Match``) the same way: ``count`` match seeds, each played once
per seating (3 x ``count`` matches) with the same first dealer and the same
start scores (``start_scores``: 0,0,0 by default), so each bot sits each
score. The first
hand of the three matches is the same deal; later hands shuffle the same
deck, but who deals follows the play (the last trick's winner), so their
hands may differ, and so may the length of the matches: whole matches allow
no more duplication than that. A bot's share of matches won and its points
per hand are taken per match seed, the intervals over seeds. There are no
ties for first: only a trick's winner scores, so exactly one seat reaches
the target, and the match ends there.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from solver import CoinsError, checks
from solver.match import Hand, Match, MatchResult, MatchState, check_target

from ._common import Interrupted
from .bots import make_bot

Z95 = 1.959964


@dataclass
class BotScore:
    """One bot's results: ``mean`` points per hand, ``half_width`` of its 95%
    confidence interval, the ``hands`` it played, ``seconds_per_move``."""

    name: str
    mean: float
    half_width: float
    hands: int
    seconds_per_move: float

    def to_json(self) -> dict:
        return {
            "bot": self.name,
            "mean": round(self.mean, 4),
            "ci95": [round(self.mean - self.half_width, 4), round(self.mean + self.half_width, 4)],
            "hands": self.hands,
            "seconds_per_move": round(self.seconds_per_move, 6),
        }


@dataclass
class DuplicateResult:
    """The bots' scores (in the order given), deals and hands played, the seed;
    ``interrupted``: Ctrl-C stopped the run, and these are the deals played in
    every seating by then."""

    bots: list[str]
    scores: list[BotScore]
    deals: int
    hands: int
    seed: int
    seconds: float
    per_deal: list[list[float]] = field(default_factory=list)
    interrupted: bool = False

    def to_json(self) -> dict:
        return {
            "bots": self.bots,
            "deals": self.deals,
            "hands": self.hands,
            "seed": self.seed,
            "seconds": round(self.seconds, 3),
            "interrupted": self.interrupted,
            "scores": [s.to_json() for s in self.scores],
        }


class _Timed:
    """A player that counts its moves and seconds (and is shown the record, or
    the match, when the player it wraps reads them)."""

    def __init__(self, player):
        self.choose_fn = getattr(player, "choose", player)
        for method in ("choose_record", "choose_for_match"):
            if hasattr(player, method):
                setattr(self, method, self._timing(getattr(player, method)))
        self.choose = self._timing(self.choose_fn)
        self.moves = 0
        self.seconds = 0.0

    def _timing(self, choose):
        def timed(*arguments):
            start = time.perf_counter()
            card = choose(*arguments)
            self.seconds += time.perf_counter() - start
            self.moves += 1
            return card

        return timed

    @property
    def seconds_per_move(self) -> float:
        return self.seconds / self.moves if self.moves else 0.0


# seat s holds bot seating[s]: the three rotations of the bots round the table
SEATINGS = ((0, 1, 2), (1, 2, 0), (2, 0, 1))
# The most deals (or match seeds) one run plays, three times each: beyond it a run
# would outlast any wait (a million random-bot deals take hours).
MAX_DEALS = 1_000_000


def mean_and_half_width(values: Sequence[float]) -> tuple[float, float]:
    """The mean of independent ``values`` and the half-width of its 95%
    confidence interval (normal approximation; NaN from fewer than two)."""
    mean = sum(values) / len(values)
    if len(values) < 2:
        return mean, float("nan")
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
    return mean, Z95 * sd / math.sqrt(len(values))


def interval(mean: float, half_width: float) -> tuple[float, float] | None:
    """(low, high) of a confidence interval, or None when there is none (NaN)."""
    return None if math.isnan(half_width) else (mean - half_width, mean + half_width)


def _players(
    bots: Sequence[str], options: dict | None, players: Sequence | None = None
) -> list[_Timed]:
    """The three named bots (``options`` go to pimc), or the three ``players``
    given, which ``bots`` then only labels; timed."""
    if len(bots) != 3:
        raise CoinsError(f"a game of Coins has three seats: give three bots, not {len(bots)}")
    if players is None:
        players = [
            make_bot(name, **(options or {}) if name.startswith("pimc") else {}) for name in bots
        ]
    elif len(players) != 3:
        raise CoinsError(f"a game of Coins has three seats: give three players, not {len(players)}")
    return [_Timed(player) for player in players]


def _check_count(count, what: str) -> None:
    checks.whole_number(count, f"the number of {what}", 1, MAX_DEALS)


def _finished(*per_bot: list[list]) -> list[list]:
    """After Ctrl-C: each bot's list cut to the deals (or seeds) every bot has, so
    that the scores are of whole deals, played in every seating; a plain
    KeyboardInterrupt when there is none."""
    done = min(len(values) for bots in per_bot for values in bots)
    if not done:
        raise KeyboardInterrupt
    return [[values[:done] for values in bots] for bots in per_bot]


def duplicate(
    bots: Sequence[str],
    deals: int,
    seed: int | None = None,
    *,
    options: dict | None = None,
    progress: Callable[[int, int], None] | None = None,
    players: Sequence | None = None,
    seatings: Sequence[tuple[int, int, int]] = SEATINGS,
    deal_seeds: Sequence[int] | None = None,
) -> DuplicateResult:
    """Play ``deals`` deals, each once per rotation of the three ``bots`` (names:
    random, greedy, policy, pimc, pimc-points; ``options`` go to the pimc bots). ``players``: three players
    of your own instead, ``bots`` then only their labels (to compare variants
    of one bot). ``seatings``: other seatings than the three rotations (seat s
    holds bot ``seating[s]``). ``deal_seeds``: deal i is drawn from seed
    ``deal_seeds[i]`` as a one-deal run with that ``seed`` draws its deal, so
    that fixed sets of deals can be replayed one by one (``deals`` is then
    their number). ``progress(done, total)`` is called after each hand.
    Ctrl-C raises ``Interrupted`` holding the result of the deals played in
    every seating by then."""
    players = _players(bots, options, players)
    if deal_seeds is not None:
        deals = len(deal_seeds)
    _check_count(deals, "deals")
    seed = random.randrange(2**32) if seed is None else checks.seed(seed)
    master = random.Random(seed)
    per_deal = [[] for _ in bots]
    start = time.perf_counter()
    total = deals * len(seatings)
    done = 0
    interrupted = False
    try:
        for i in range(deals):
            source = master if deal_seeds is None else random.Random(deal_seeds[i])
            deal_seed = source.getrandbits(64)
            dealer = source.randrange(3)
            points = [0.0] * 3
            for seating in seatings:
                result = Hand([players[b] for b in seating], dealer, seed=deal_seed).play()
                for seat, b in enumerate(seating):
                    points[b] += result.points[seat]
                done += 1
                if progress is not None:
                    progress(done, total)
            for b in range(3):
                per_deal[b].append(points[b] / len(seatings))
    except KeyboardInterrupt:
        interrupted = True
        (per_deal,) = _finished(per_deal)
    played = len(per_deal[0])
    scores = [
        BotScore(
            name,
            *mean_and_half_width(per_deal[b]),
            played * len(seatings),
            players[b].seconds_per_move,
        )
        for b, name in enumerate(bots)
    ]
    outcome = DuplicateResult(
        list(bots),
        scores,
        played,
        played * len(seatings),
        seed,
        time.perf_counter() - start,
        per_deal,
        interrupted,
    )
    if interrupted:
        raise Interrupted(outcome)
    return outcome


@dataclass
class MatchScore:
    """One bot's results over whole matches: matches ``won`` of ``matches``, the
    ``won_share`` with its 95% interval ``won_ci`` (low, high; None when there
    is none), ``mean`` points per hand with ``half_width``, the ``hands`` it
    played and its ``seconds_per_move``."""

    name: str
    won: int
    matches: int
    won_share: float
    won_ci: tuple[float, float] | None
    mean: float
    half_width: float
    hands: int
    seconds_per_move: float

    def to_json(self) -> dict:
        ci = interval(self.mean, self.half_width)
        return {
            "bot": self.name,
            "matches_won": self.won,
            "matches": self.matches,
            "won_share": round(self.won_share, 4),
            "won_share_ci95": None if self.won_ci is None else [round(x, 4) for x in self.won_ci],
            "mean": round(self.mean, 4),
            "ci95": None if ci is None else [round(x, 4) for x in ci],
            "hands": self.hands,
            "seconds_per_move": round(self.seconds_per_move, 6),
        }


@dataclass
class MatchesResult:
    """The bots' scores (in the order given) over ``matches`` matches to
    ``target``: ``deals`` match seeds, each played once per seating. ``played``
    holds (seating, ``MatchResult``) for every match, seed by seed; seat s held
    bot ``seating[s]``. ``start_scores``: the scores every match started from,
    or None when each seed drew its own. ``interrupted``: Ctrl-C stopped the run, and
    these are the seeds played in every seating by then."""

    bots: list[str]
    scores: list[MatchScore]
    target: int
    deals: int
    matches: int
    hands: int
    seed: int
    seconds: float
    played: list[tuple[tuple[int, int, int], MatchResult]] = field(default_factory=list)
    start_scores: tuple[int, int, int] | None = (0, 0, 0)
    interrupted: bool = False

    def to_json(self) -> dict:
        return {
            "bots": self.bots,
            "target": self.target,
            "start_scores": None if self.start_scores is None else list(self.start_scores),
            "deals": self.deals,
            "matches": self.matches,
            "hands": self.hands,
            "seed": self.seed,
            "seconds": round(self.seconds, 3),
            "interrupted": self.interrupted,
            "scores": [s.to_json() for s in self.scores],
        }


def matches(
    bots: Sequence[str],
    count: int,
    target: int,
    seed: int | None = None,
    *,
    options: dict | None = None,
    progress: Callable[[int, int], None] | None = None,
    start_scores: Sequence[int] | Callable[[random.Random], Sequence[int]] = (0, 0, 0),
) -> MatchesResult:
    """Play ``count`` match seeds to ``target``, each once per rotation of the three
    ``bots`` (3 x ``count`` matches; ``options`` go to pimc). ``start_scores``:
    the scores of seats 0, 1, 2 before the first hand, or a function that
    draws them for each seed from the random stream it is given.
    ``progress(done, total)`` is called after each match. Ctrl-C raises
    ``Interrupted`` holding the result of the seeds played in every seating
    by then."""
    players = _players(bots, options)
    _check_count(count, "matches")
    check_target(target)
    fixed = None if callable(start_scores) else MatchState(target, tuple(start_scores)).scores
    seed = random.randrange(2**32) if seed is None else checks.seed(seed)
    master = random.Random(seed)
    played = []
    won_share = [[] for _ in bots]
    per_hand = [[] for _ in bots]
    start = time.perf_counter()
    interrupted = False
    try:
        for _ in range(count):
            match_seed = master.getrandbits(64)
            first_dealer = master.randrange(3)
            starting = fixed or MatchState(target, tuple(start_scores(master))).scores
            wins, points, hands = [0] * 3, [0] * 3, 0
            for seating in SEATINGS:
                result = Match(
                    [players[b] for b in seating],
                    target,
                    first_dealer,
                    seed=match_seed,
                    start_scores=starting,
                ).play()
                played.append((seating, result))
                wins[seating[result.winner]] += 1
                for seat, b in enumerate(seating):
                    points[b] += result.scores[seat] - starting[seat]
                hands += result.number_of_hands
                if progress is not None:
                    progress(len(played), count * 3)
            for b in range(3):
                won_share[b].append(wins[b] / 3)
                per_hand[b].append(points[b] / hands)
    except KeyboardInterrupt:
        interrupted = True
        won_share, per_hand = _finished(won_share, per_hand)
        count = len(won_share[0])
        played = played[: count * 3]
    total_hands = sum(result.number_of_hands for _, result in played)
    scores = [
        MatchScore(
            name,
            sum(1 for seating, result in played if seating[result.winner] == b),
            len(played),
            *_share_interval(won_share[b]),
            *mean_and_half_width(per_hand[b]),
            total_hands,
            players[b].seconds_per_move,
        )
        for b, name in enumerate(bots)
    ]
    outcome = MatchesResult(
        list(bots),
        scores,
        target,
        count,
        len(played),
        total_hands,
        seed,
        time.perf_counter() - start,
        played,
        fixed,
        interrupted,
    )
    if interrupted:
        raise Interrupted(outcome)
    return outcome


def _share_interval(shares: list[float]) -> tuple[float, tuple[float, float] | None]:
    """A share won and its 95% interval, kept within 0-1; None from fewer than two
    seeds or when every seed gave the same share (zero spread is no evidence
    of zero uncertainty)."""
    mean, half = mean_and_half_width(shares)
    if math.isnan(half) or half == 0:
        return mean, None
    return mean, (max(0.0, mean - half), min(1.0, mean + half))
