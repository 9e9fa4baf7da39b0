"""Brute-force equilibrium (max^n) values, written straight from RULES.md.

Full-width search over ``Position.play``: no pruning, no equivalence, no
transposition table (``lru_cache`` only memoises this pure function so the
tests stay quick). The compiled max^n solver is held to it on small positions.

RULES.md, "Values the solver reports": every seat, at every turn, plays to
maximise its own points from that decision to the end of the hand. Among cards
that give the mover the same own points it takes the one after which the
larger of its two opponents' points (counted from that decision on) is
smallest; where that still ties, the first card in index order. Points taken
earlier play no part, so ``taken`` is dropped before searching.
"""

from __future__ import annotations

from functools import lru_cache

from solver.cards import SEATS, Card
from solver.position import Position


def maxn(position: Position) -> tuple[tuple[int, int, int], dict[Card, tuple[int, int, int]], list[Card]]:
    """``(values, card_results, line)`` of ``position``.

    ``values``: the points each seat wins from the position on when everyone
    plays for itself; ``card_results``: for each card the mover holds, the
    three-seat result (from the position on, current trick included) after
    the mover plays it; ``line``: the equilibrium line to the end of the hand.
    """
    position = _without_taken(position)
    values, _, results = _solve(position)
    line = []
    while not position.is_terminal:
        _, best, _ = _solve(position)
        line.append(best)
        position = _without_taken(position.play(best))
    return values, dict(results), line


def equilibrium(position: Position) -> tuple[int, int, int]:
    return _solve(_without_taken(position))[0]


def _without_taken(position: Position) -> Position:
    if position.taken == (0, 0, 0):
        return position
    return Position(position.hands, position.leader, position.trick)


@lru_cache(maxsize=None)
def _solve(position: Position):
    """(values from here on, the mover's equilibrium card, each card's result)."""
    if position.is_terminal:
        return (0, 0, 0), None, {}
    mover = position.to_move
    results = {}
    best_card, best_key, best_values = None, None, None
    for card in position.legal_cards():  # index order: the last tie-break
        child = position.play(card)
        gained = [child.taken[s] - position.taken[s] for s in range(SEATS)]
        child_values = _solve(_without_taken(child))[0]
        values = tuple(gained[s] + child_values[s] for s in range(SEATS))
        results[card] = values
        opponents = max(values[s] for s in range(SEATS) if s != mover)
        key = (values[mover], -opponents)  # own points, then the smaller opponent maximum
        if best_key is None or key > best_key:  # strictly better: earlier cards win ties
            best_card, best_key, best_values = card, key, values
    return best_values, best_card, results


def depth_limited(position: Position, tricks: int, leaf) -> dict[Card, tuple[float, float, float]]:
    """Each card's three-seat result when max^n is played for ``tricks`` tricks
    (the one on the table counts) and ``leaf(position)`` values the trick
    boundary where that stops (a position with cards left); full width, the
    same preference as ``maxn`` on real numbers. The twin of the compiled
    estimate search."""
    results = {}
    for card in position.legal_cards():
        child = position.play(card)
        gained = [child.taken[s] - position.taken[s] for s in range(SEATS)]
        rest = _limited_value(child, tricks - (0 if child.trick else 1), leaf)
        results[card] = tuple(gained[s] + rest[s] for s in range(SEATS))
    return results


def _limited_value(position: Position, tricks: int, leaf) -> tuple[float, float, float]:
    if position.is_terminal:
        return (0.0, 0.0, 0.0)
    if not position.trick and tricks == 0:
        return tuple(leaf(position))
    mover = position.to_move
    best, best_key = None, None
    for card, values in depth_limited(position, tricks, leaf).items():
        opponents = max(values[s] for s in range(SEATS) if s != mover)
        key = (round(values[mover], 9), -round(opponents, 9))
        if best_key is None or key > best_key:
            best, best_key = values, key
    return best
