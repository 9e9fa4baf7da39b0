"""Brute-force match-aware values, written straight from RULES.md ("Values of a
position in a match").

Full-width search over ``Position.play``: no pruning, no equivalence, no
table of positions (``lru_cache`` only memoises this pure function). The
next-hands table is read by its documented layout: ``chances[a - 1, b - 1,
c - 1]`` holds the chances of the leader, the next seat and the third for
needs a, b, c, a need above the table's size reading as its largest. The
compiled match-aware search is held to it on small endings.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from solver.cards import SEATS, Card
from solver.position import Position

DECIMALS = 9


class Reference:
    """Match-aware values for one target, scores and table of the next hands."""

    def __init__(self, target: int, scores, chances: np.ndarray):
        self.target = target
        self.scores = tuple(scores)
        self.chances = chances
        self._solve = lru_cache(maxsize=None)(self._solve_uncached)
        self.ended = self.read_table = (
            0  # how often the match ended in the hand, the table was read
        )

    def values(self, position: Position) -> tuple[tuple[float, ...], dict[Card, tuple[float, ...]]]:
        """(each seat's chance, each card's three chances) at ``position``."""
        return self._solve(position)

    def next_hand(self, needs, leader: int) -> tuple[float, ...]:
        """The table's chances of seats 0, 1, 2 at the start of a hand ``leader`` leads."""
        most = self.chances.shape[0]
        row = self.chances[tuple(min(needs[(leader + i) % SEATS], most) - 1 for i in range(SEATS))]
        return tuple(float(row[(seat - leader) % SEATS]) for seat in range(SEATS))

    def needs(self, position: Position) -> list[int]:
        return [self.target - s - t for s, t in zip(self.scores, position.taken)]

    def _end(self, position: Position, child: Position) -> tuple[float, ...] | None:
        """The chances when the card that led to ``child`` ended the match or the
        hand, else None."""
        if child.trick or not position.trick:
            return None
        winner = child.leader  # of the trick the card ended
        if self.scores[winner] + child.taken[winner] >= self.target:
            self.ended += 1
            return tuple(1.0 if seat == winner else 0.0 for seat in range(SEATS))
        if child.is_terminal:
            self.read_table += 1
            return self.next_hand(self.needs(child), winner)
        return None

    def estimate(self, position: Position, tricks: int, points) -> dict[Card, tuple[float, ...]]:
        """Each card's chances when the search stops after ``tricks`` tricks (the
        current one counts) and a trick boundary there with more than one card a
        hand is valued by ``points(position)`` (each seat's points to the end of the hand)
        turned into chances by ``points_to_chances``: the twin of the
        depth-limited ``solver.match_values.card_chances``."""
        return self._choose(position, lambda child: self._limited(child, tricks, points))[1]

    def _limited(self, child: Position, tricks: int, points) -> tuple[float, ...]:
        if child.trick:
            return self.estimate_value(child, tricks, points)
        if tricks > 1 or len(child.hand(0)) == 1:  # the last trick, forced, is played out
            return self.estimate_value(child, max(1, tricks - 1), points)
        return points_to_chances(points(child), self.needs(child), child.coins_left, self)

    def estimate_value(self, position: Position, tricks: int, points) -> tuple[float, ...]:
        return self._choose(position, lambda child: self._limited(child, tricks, points))[0]

    def _solve_uncached(self, position: Position):
        return self._choose(position, lambda child: self._solve(child)[0])

    def _choose(self, position: Position, value_of):
        """(the mover's choice, each card's chances), ``value_of(child)`` valuing
        the positions after cards that end neither the match nor the hand."""
        mover = position.to_move
        results, best = {}, None
        for card in position.legal_cards():  # index order
            child = position.play(card)
            end = self._end(position, child)
            results[card] = value_of(child) if end is None else end
            if best is None or _better(mover, results[card], best):
                best = results[card]
        return best, results


def _better(mover: int, a, b) -> bool:
    """Does ``mover`` prefer ``a`` (a later card in index order) to ``b``: a larger
    own chance, or an equal one and a smaller larger opponent's chance, both
    rounded to 9 decimals?"""

    def key(chances):
        larger = max(chances[s] for s in range(SEATS) if s != mover)
        return round(chances[mover], DECIMALS), -round(larger, DECIMALS)

    return key(a) > key(b)


def points_to_chances(points, needs, coins: int, reference: Reference) -> tuple[float, ...]:
    """Chances from each seat's estimated points for the rest of the hand (they
    add up to ``coins``): the Coins fall one at a time, each to seat s with
    probability points[s] / coins; the first seat to reach its need wins the
    match; when none does, each seat leads the next hand alike often, read from
    the table at the needs left (``solver.match_values``'s account of its estimate)."""
    shares = [max(p, 0.0) for p in points]
    if sum(shares) <= 0:
        shares = [1.0, 1.0, 1.0]
    shares = [p / sum(shares) for p in shares]
    won = [0.0, 0.0, 0.0]
    reached = {(0, 0, 0): 1.0}
    for _ in range(coins):
        after = {}
        for counts, p in reached.items():
            for seat in range(SEATS):
                more = list(counts)
                more[seat] += 1
                if more[seat] >= needs[seat]:
                    won[seat] += p * shares[seat]
                else:
                    after[tuple(more)] = after.get(tuple(more), 0.0) + p * shares[seat]
        reached = after
    for counts, p in reached.items():
        left = [n - c for n, c in zip(needs, counts)]
        for leader in range(SEATS):
            chances = reference.next_hand(left, leader)
            for seat in range(SEATS):
                won[seat] += p / SEATS * chances[seat]
    return tuple(won)
