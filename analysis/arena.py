"""Duplicate hands between bots: mean points per hand with 95% confidence intervals.

``duplicate(bots, hands, seed)`` deals ``hands`` deals; each deal is played
once per seating, the three bots rotated round the table (so each plays every
seat of every deal equally), with the same dealer. Luck of the cards cancels
out of the comparison: a bot's score for a deal is its mean over the
seatings, and the interval is over deals (deals are independent; the
seatings of one deal are not).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from solver import CoinsError
from solver.match import Hand

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
    """The bots' scores (in the order given), deals and hands played, the seed."""

    bots: list[str]
    scores: list[BotScore]
    deals: int
    hands: int
    seed: int
    seconds: float
    per_deal: list[list[float]] = field(default_factory=list)

    def to_json(self) -> dict:
        return {
            "bots": self.bots,
            "deals": self.deals,
            "hands": self.hands,
            "seed": self.seed,
            "seconds": round(self.seconds, 3),
            "scores": [s.to_json() for s in self.scores],
        }


class _Timed:
    """A player that counts its moves and seconds (and is shown the record when
    the player it wraps reads one)."""

    def __init__(self, player):
        self.choose_fn = getattr(player, "choose", player)
        if hasattr(player, "choose_record"):
            self.choose_record = self._timing(player.choose_record)
        self.choose = self._timing(self.choose_fn)
        self.moves = 0
        self.seconds = 0.0

    def _timing(self, choose):
        def timed(shown, seat, rng):
            start = time.perf_counter()
            card = choose(shown, seat, rng)
            self.seconds += time.perf_counter() - start
            self.moves += 1
            return card

        return timed


def duplicate(
    bots: Sequence[str],
    deals: int,
    seed: int | None = None,
    *,
    options: dict | None = None,
    progress: Callable[[int, int], None] | None = None,
    players: Sequence | None = None,
) -> DuplicateResult:
    """Play ``deals`` deals, each once per rotation of the three ``bots`` (names:
    random, greedy, pimc; ``options`` go to pimc). ``players``: three players
    of your own instead, ``bots`` then only their labels (to compare variants
    of one bot). ``progress(done, total)`` is called after each hand."""
    if len(bots) != 3:
        raise CoinsError(f"a game of Coins has three seats: give three bots, not {len(bots)}")
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise CoinsError(f"the number of deals must be a positive whole number, not {deals!r}")
    seed = random.randrange(2**32) if seed is None else seed
    if players is None:
        players = [make_bot(name, **(options or {}) if name == "pimc" else {}) for name in bots]
    elif len(players) != 3:
        raise CoinsError(f"a game of Coins has three seats: give three players, not {len(players)}")
    players = [_Timed(player) for player in players]
    master = random.Random(seed)
    per_deal = [[] for _ in bots]
    start = time.perf_counter()
    total = deals * 3
    done = 0
    for _ in range(deals):
        deal_seed = master.getrandbits(64)
        dealer = master.randrange(3)
        points = [0.0] * 3
        for shift in range(3):
            # seat s holds bot (s + shift) % 3
            seating = [(s + shift) % 3 for s in range(3)]
            result = Hand([players[b] for b in seating], dealer, seed=deal_seed).play()
            for seat, b in enumerate(seating):
                points[b] += result.points[seat]
            done += 1
            if progress is not None:
                progress(done, total)
        for b in range(3):
            per_deal[b].append(points[b] / 3)
    scores = []
    for b, name in enumerate(bots):
        values = per_deal[b]
        mean = sum(values) / len(values)
        if len(values) > 1:
            sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
            half = Z95 * sd / math.sqrt(len(values))
        else:
            half = float("nan")
        player = players[b]
        scores.append(
            BotScore(name, mean, half, deals * 3,
                     player.seconds / player.moves if player.moves else 0.0)  # fmt: skip
        )
    return DuplicateResult(list(bots), scores, deals, total, seed, time.perf_counter() - start,
                           per_deal)  # fmt: skip
