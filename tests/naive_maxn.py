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

import math
from functools import cache

from solver.cards import SEATS, Card
from solver.position import Position


def maxn(
    position: Position,
) -> tuple[tuple[int, int, int], dict[Card, tuple[int, int, int]], list[Card]]:
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


@cache
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


def depth_limited(
    position: Position, tricks: int, leaf, softness: float = 0.0
) -> dict[Card, tuple[float, float, float]]:
    """Each card's three-seat result when max^n is played for ``tricks`` tricks
    (the one on the table counts) and ``leaf(position)`` values the trick
    boundary where that stops (a position with cards left); full width, the
    same preference as ``maxn`` on real numbers. With ``softness`` above 0, a
    choice below the root where some card's line reaches ``leaf`` is soft:
    each card weighs exp(own points / softness), shared out among the cards
    of its run of equivalents (one choice). The twin of the compiled estimate
    search."""
    return {
        card: values
        for card, (values, _) in _limited_results(position, tricks, leaf, softness).items()
    }


def _limited_results(position, tricks, leaf, softness):
    """card -> (its three-seat result, whether its line read ``leaf``)."""
    results = {}
    for card in position.legal_cards():
        child = position.play(card)
        gained = [child.taken[s] - position.taken[s] for s in range(SEATS)]
        rest, estimated = _limited_value(child, tricks - (0 if child.trick else 1), leaf, softness)
        results[card] = tuple(gained[s] + rest[s] for s in range(SEATS)), estimated
    return results


def _limited_value(position: Position, tricks: int, leaf, softness):
    if position.is_terminal:
        return (0.0, 0.0, 0.0), False
    if not position.trick and tricks == 0:
        return tuple(leaf(position)), True
    mover = position.to_move
    results = _limited_results(position, tricks, leaf, softness)
    estimated = any(e for _, e in results.values())
    if estimated and softness > 0:
        top = max(values[mover] for values, _ in results.values())
        runs = _runs(position)
        weights = {
            card: math.exp((values[mover] - top) / softness) / runs[card]
            for card, (values, _) in results.items()
        }
        total = sum(weights.values())
        return tuple(
            sum(weights[c] * v[s] for c, (v, _) in results.items()) / total for s in range(SEATS)
        ), True
    best, best_key = None, None
    for values, _ in results.values():
        opponents = max(values[s] for s in range(SEATS) if s != mover)
        key = (round(values[mover], 9), -round(opponents, 9))
        if best_key is None or key > best_key:
            best, best_key = values, key
    return best, estimated


def _runs(position: Position) -> dict[Card, int]:
    """How many cards of the mover's each card's run holds: cards of one suit
    with no card of another seat or of the trick between them in rank."""
    hand = set(position.legal_cards())
    others = {Card(c) for c in range(48) if any(h >> c & 1 for h in position.hands)} - hand
    others |= set(position.trick)
    runs, current = {}, []
    for card in sorted(hand, key=lambda c: (c.suit, c.rank)):
        if current and (
            current[-1].suit != card.suit
            or any(o.suit == card.suit and current[-1].rank < o.rank < card.rank for o in others)
        ):
            runs.update(dict.fromkeys(current, len(current)))
            current = []
        current.append(card)
    runs.update(dict.fromkeys(current, len(current)))
    return runs
