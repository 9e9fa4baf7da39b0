"""Slow, obviously-correct solvers written straight from RULES.md.

Full-width minimax over ``Position.play``: no pruning, no transposition table,
no equivalence. The compiled solvers are held to these on small positions.
"""

from __future__ import annotations

from functools import lru_cache

from solver.position import Position


@lru_cache(maxsize=None)
def guaranteed(position: Position, seat: int) -> int:
    """Points ``seat`` can be sure of against the other two playing together."""
    if position.is_terminal:
        return 0
    outcomes = []
    for card in position.legal_cards():
        child = position.play(card)
        gained = child.taken[seat] - position.taken[seat]
        outcomes.append(gained + guaranteed(child, seat))
    return max(outcomes) if position.to_move == seat else min(outcomes)


def card_values(position: Position) -> dict:
    """The mover's guaranteed value after each card it holds."""
    mover = position.to_move
    values = {}
    for card in position.legal_cards():
        child = position.play(card)
        values[card] = child.taken[mover] - position.taken[mover] + guaranteed(child, mover)
    return values
