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

    def values(self, position: Position) -> tuple[tuple[float, ...], dict[Card, tuple[float, ...]]]:
        """(each seat's chance, each card's three chances) at ``position``."""
        return self._solve(position)

    def next_hand(self, position: Position) -> tuple[float, ...]:
        """The table's chances at the end of a hand with no winner (``position`` terminal)."""
        needs = [self.target - s - t for s, t in zip(self.scores, position.taken)]
        leader = position.leader  # won the last trick
        most = self.chances.shape[0]
        row = self.chances[tuple(min(needs[(leader + i) % SEATS], most) - 1 for i in range(SEATS))]
        return tuple(float(row[(seat - leader) % SEATS]) for seat in range(SEATS))

    def _after(self, position: Position, child: Position) -> tuple[float, ...]:
        if not child.trick and position.trick:  # the card ended a trick
            winner = child.leader
            if self.scores[winner] + child.taken[winner] >= self.target:
                return tuple(1.0 if seat == winner else 0.0 for seat in range(SEATS))
            if child.is_terminal:
                return self.next_hand(child)
        return self._solve(child)[0]

    def _solve_uncached(self, position: Position):
        mover = position.to_move
        results = {}
        best = None
        for card in position.legal_cards():  # index order
            child = position.play(card)
            results[card] = self._after(position, child)
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
