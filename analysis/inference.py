"""How likely a sampled deal makes the opponents' plays seen so far: deal weights.

A uniform determinisation (``solver.sampling``) ignores what the opponents'
choices reveal: a seat that led a high Sword probably held no low one. This
module scores a sampled deal by the probability that the hidden seats would
have played the cards they did, in that deal, under a model of their play.

The model is the greedy heuristic of ``analysis.playout`` with trembles: at
each of its decisions a hidden seat plays ``greedy_card`` with probability
``1 - tremble`` and otherwise any card of its hand uniformly, so

    P(card) = (1 - tremble) * [card is the greedy card] + tremble / (cards held)

It is cheap (one ``greedy_card`` call per observed play: a few hundred deals
are weighted in milliseconds) and never zero, so no consistent deal is ruled
out. Exact values would be a better model late in a hand but cost a search per
observed play per deal. ``benchmarks/hint_quality.py`` measures what this one
buys: nothing measurable beside greedy bots, and more than a point a hand
lost beside random ones (whose plays it misreads), so ``hint`` samples
uniformly by default.
"""

from __future__ import annotations

import math

from solver.cards import SEATS, Cards, popcount
from solver.record import Record

from .playout import greedy_card, winner_index

DEFAULT_TREMBLE = 0.5


def _turns(view: Record, hands):
    """(seat, its hand before the card, the trick before it, card) for every
    card of ``view.moves``, replayed from ``hands`` on bare bitmasks."""
    hands = [h or 0 for h in hands]
    leader, trick = view.leader, list(view.trick)
    for card in view.moves:
        seat = (leader + len(trick)) % SEATS
        yield seat, hands[seat], trick, card
        hands[seat] &= ~(1 << card)
        trick = trick + [card]
        if len(trick) == SEATS:
            leader = (leader + winner_index(*trick)) % SEATS
            trick = []


def hidden_plays(view: Record) -> int:
    """How many cards of the record the view's hidden seats played."""
    hidden = set(view.hidden)
    return sum(seat in hidden for seat, _, _, _ in _turns(view, view.hands))


def log_likelihood(view: Record, hands: tuple[Cards, Cards, Cards],
                   tremble: float = DEFAULT_TREMBLE) -> float:
    """Log-probability of the hidden seats' plays in ``view.moves`` when the
    record starts from ``hands`` (a full deal of the view) and they play by the
    trembling greedy model."""
    hidden = set(view.hidden)
    total = 0.0
    for seat, hand, trick, card in _turns(view, hands):
        if seat in hidden:
            p = tremble / popcount(hand)
            if greedy_card(hand, trick) == card:
                p += 1 - tremble
            total += math.log(p)
    return total


def deal_weights(view: Record, deals: list[tuple[Cards, Cards, Cards]],
                 tremble: float = DEFAULT_TREMBLE) -> list[float]:
    """Weights proportional to each deal's likelihood, the largest 1."""
    logs = [log_likelihood(view, hands, tremble) for hands in deals]
    top = max(logs)
    return [math.exp(x - top) for x in logs]
