"""Runs of equivalent cards: cards of one suit in one hand with no live card
between them win and lose exactly the same tricks, so they have the same
values in every mode and the searches try one card of each run."""

from __future__ import annotations

from . import _kernels as k
from .cards import Card, cards_in
from .position import Position


def equivalent_runs(position: Position) -> list[list[Card]]:
    """The mover's cards grouped into runs of equivalent cards (no live card
    between them), each run high to low, runs in index order of their lowest card."""
    hand = position.hands[position.to_move]
    live = position.hands[0] | position.hands[1] | position.hands[2] | position.trick_mask
    groups: dict[int, list[Card]] = {}
    for card in cards_in(hand):
        groups.setdefault(int(k.representative_of(card, hand, live)), []).append(card)
    return [sorted(group, reverse=True) for group in groups.values()]
