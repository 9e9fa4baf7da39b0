"""How likely a sampled deal makes the opponents' plays seen so far: deal weights.

A uniform determinisation (``solver.sampling``) ignores what the opponents'
choices reveal: a seat that led a high Sword probably held no low one. This
module scores a sampled deal by the probability that the hidden seats would
have played the cards they did, in that deal, under a model of their play.

The model is the greedy heuristic of ``solver.playouts`` with trembles: at
each of its decisions a hidden seat plays ``greedy_card`` with probability
``1 - tremble`` and otherwise any card of its hand uniformly, so

    P(card) = (1 - tremble) * [card is the greedy card] + tremble / (cards held)

It is cheap (one ``greedy_card`` call per observed play: a few hundred deals
are weighted in milliseconds) and never zero, so no consistent deal is ruled
out. Exact values would be a better model late in a hand but cost a search per
observed play per deal. ``benchmarks/hint_quality.py`` measures what this one
buys (benchmarks/README.md): beside players it does not model, such as
random ones, it misreads their plays. ``hint`` reads them by default with
``analysis.opponents``, whose library of kinds includes a random player.
"""

from __future__ import annotations

import math

from solver.cards import SEATS, Cards, popcount
from solver.playouts import greedy_card
from solver.record import Record
from solver.rules import trick_winner

DEFAULT_TREMBLE = 0.5


def _turns(view: Record) -> list[tuple[int, list[int], int]]:
    """(seat, the trick before the card, card) for every card of ``view.moves``:
    who plays when follows from the cards alone, the same in every deal."""
    leader, trick = view.leader, list(view.trick)
    turns = []
    for card in view.moves:
        turns.append(((leader + len(trick)) % SEATS, trick, card))
        trick = trick + [card]
        if len(trick) == SEATS:
            leader = (leader + trick_winner(trick)) % SEATS
            trick = []
    return turns


def hidden_plays(view: Record) -> int:
    """How many cards of the record the view's hidden seats played."""
    hidden = set(view.hidden)
    return sum(seat in hidden for seat, _, _ in _turns(view))


def log_likelihood(
    view: Record, hands: tuple[Cards, Cards, Cards], tremble: float = DEFAULT_TREMBLE
) -> float:
    """Log-probability of the hidden seats' plays in ``view.moves`` when the
    record starts from ``hands`` (a full deal of the view) and they play by the
    trembling greedy model."""
    return _log_likelihood(_turns(view), set(view.hidden), hands, tremble)


def _log_likelihood(turns, hidden: set[int], hands, tremble: float) -> float:
    hands = list(hands)
    total = 0.0
    for seat, trick, card in turns:
        if seat in hidden:
            p = tremble / popcount(hands[seat])
            if greedy_card(hands[seat], trick) == card:
                p += 1 - tremble
            total += math.log(p)
        hands[seat] &= ~(1 << card)
    return total


def deal_weights(
    view: Record, deals: list[tuple[Cards, Cards, Cards]], tremble: float = DEFAULT_TREMBLE
) -> list[float]:
    """Weights proportional to each deal's likelihood, the largest 1."""
    turns, hidden = _turns(view), set(view.hidden)
    logs = [_log_likelihood(turns, hidden, hands, tremble) for hands in deals]
    top = max(logs)
    return [math.exp(x - top) for x in logs]
