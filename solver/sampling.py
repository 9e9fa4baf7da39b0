"""Determinisations: full deals consistent with what one seat has seen.

A *view* (RULES.md, "Hidden hands") is a record of play whose hidden starting
hands are written ``?``. A determinisation fills every hidden hand so that the
whole record can be replayed on it: each hidden seat holds, at the start, the
cards it plays later in the record, plus cards drawn from the *pool*: the
cards nobody has been seen to hold or play. Coins has no duty to follow suit,
so no play reveals a void: every way of filling the hands is consistent,
except that the start's ``taken`` field must not exceed the Coins already gone
(the pool cards left undealt were played before the record starts).

``sample_deal`` draws one determinisation uniformly among all consistent
ones; ``sample_deals`` draws several, independently; ``count_deals`` counts
them. Randomness comes only from the ``rng`` (a ``random.Random``) or ``seed``
argument, never from global state::

    >>> view = "? KNJ7543.96.AN874.96 ? 0 - | JO KC AO"
    >>> deal = sample_deal(view, seed=1)
    >>> deal.record.view(1) == Record.parse(view)
    True
    >>> str(deal.position).split(" ")[1]
    'NJ7543.96.AN874.96'

``resample_position(position, seat, rng)`` does the same for a full
``Position`` as ``seat`` sees it at that moment (what solver.match's players
are shown): the other two hands are dealt again from their union, keeping
their sizes. Because play reveals nothing, this is the same distribution as
sampling the seat's view of the whole record and then replaying it.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from .cards import COINS_MASK, DECK_SIZE, SEATS, Cards, cards_in, popcount
from .errors import CoinsError
from .position import Position
from .record import Record
from .rules import trick_winner

FULL_DECK = (1 << DECK_SIZE) - 1


@dataclass(frozen=True)
class Deal:
    """One determinisation: ``record`` is the view with every hand filled in
    (a full record, replayable), ``position`` the position after its last card."""

    record: Record
    position: Position

    @property
    def start(self) -> Position:
        return self.record.start


class ViewSampler:
    """Samples deals of one view: ``ViewSampler(view).sample(rng)`` -> ``Deal``,
    ``.count()``. It computes once what every sample needs: per hidden seat the
    cards it is known to hold (it plays them later) and how many more it draws;
    the pool split into Coins and other cards; the most Coins the hidden hands
    may draw (taken must not exceed the Coins gone)."""

    def __init__(self, view: Record | str):
        if isinstance(view, str):
            view = Record.parse(view)
        elif not isinstance(view, Record):
            raise CoinsError(f"a view is a Record or its text, not {type(view).__name__}")
        self.view = view
        sizes = view.hand_sizes
        self.known = self._known_cards(view)
        seen = 0
        for hand in view.hands:
            seen |= hand or 0
        for card in view.trick:
            seen |= 1 << card
        for mask in self.known.values():
            seen |= mask
        self.pool = FULL_DECK & ~seen
        self.draws = {s: sizes[s] - popcount(self.known[s]) for s in view.hidden}
        self.total = sum(self.draws.values())
        if min(self.draws.values(), default=0) < 0 or self.total > popcount(self.pool):
            raise CoinsError("this view admits no deal: the hidden hands cannot be filled")
        self.pool_coins = cards_in(self.pool & COINS_MASK)
        self.pool_other = cards_in(self.pool & ~COINS_MASK)
        # taken <= Coins gone = Coins of the pool left undealt
        self.max_coins = len(self.pool_coins) - sum(view.taken)
        low = max(0, self.total - len(self.pool_other))
        high = min(self.total, len(self.pool_coins), self.max_coins)
        self.weights = [
            (
                k,
                math.comb(len(self.pool_coins), k)
                * math.comb(len(self.pool_other), self.total - k),
            )
            for k in range(low, high + 1)
        ]
        if not self.weights:
            raise CoinsError("this view admits no deal: taken needs more Coins gone than can be")

    @staticmethod
    def _known_cards(view: Record) -> dict[int, Cards]:
        """Cards each hidden seat plays within the record (so held at the start)."""
        known = {seat: 0 for seat in view.hidden}
        leader, trick = view.leader, list(view.trick)
        for card in view.moves:
            mover = (leader + len(trick)) % SEATS
            if mover in known:
                known[mover] |= 1 << card
            trick.append(card)
            if len(trick) == SEATS:
                leader = (leader + trick_winner(trick)) % SEATS
                trick = []
        return known

    def count(self) -> int:
        ways = sum(w for _, w in self.weights)  # sets of cards the hidden hands draw
        split = math.factorial(self.total)
        for n in self.draws.values():
            split //= math.factorial(n)
        return ways * split

    def sample_hands(self, rng: random.Random) -> tuple[Cards, Cards, Cards]:
        """The starting hands of one uniform deal, without building its record
        (cheap: ``hint`` draws hundreds of these to weight them)."""
        ks = [k for k, _ in self.weights]
        if len(ks) == 1:
            coins = ks[0]
        else:
            coins = rng.choices(ks, weights=[w for _, w in self.weights])[0]
        drawn = rng.sample(self.pool_coins, coins) + rng.sample(self.pool_other, self.total - coins)
        rng.shuffle(drawn)
        hands = list(self.view.hands)
        i = 0
        for seat in self.view.hidden:
            n = self.draws[seat]
            mask = self.known[seat]
            for card in drawn[i : i + n]:
                mask |= 1 << card
            hands[seat] = mask
            i += n
        return tuple(hands)

    def deal(self, hands: tuple[Cards, Cards, Cards]) -> Deal:
        """The deal with these starting hands (from ``sample_hands``)."""
        view = self.view
        record = Record(hands, view.leader, view.trick, view.taken, view.moves)
        return Deal(record, record.final)

    def sample(self, rng: random.Random) -> Deal:
        return self.deal(self.sample_hands(rng))


def _rng(rng, seed) -> random.Random:
    if rng is not None and seed is not None:
        raise CoinsError("give rng or seed, not both")
    if rng is None:
        return random.Random(seed)
    if not isinstance(rng, random.Random):
        raise CoinsError(f"rng must be a random.Random, not {type(rng).__name__}")
    return rng


def sample_deal(
    view: Record | str, *, rng: random.Random | None = None, seed: int | None = None
) -> Deal:
    """One deal consistent with ``view``, uniformly at random."""
    return ViewSampler(view).sample(_rng(rng, seed))


def sample_deals(
    view: Record | str, n: int, *, rng: random.Random | None = None, seed: int | None = None
) -> list[Deal]:
    """``n`` independent uniform deals consistent with ``view`` (repeats possible)."""
    if not isinstance(n, int) or n < 0:
        raise CoinsError(f"the number of deals must be a whole number, not {n!r}")
    deals = ViewSampler(view)
    rng = _rng(rng, seed)
    return [deals.sample(rng) for _ in range(n)]


def count_deals(view: Record | str) -> int:
    """How many deals are consistent with ``view``."""
    return ViewSampler(view).count()


def unseen_by(position: Position, seat: int) -> Cards:
    """The cards ``seat`` cannot see at ``position``: the other two hands."""
    return position.hands[(seat + 1) % SEATS] | position.hands[(seat + 2) % SEATS]


def resample_position(position: Position, seat: int, rng: random.Random) -> Position:
    """``position`` with the hands other than ``seat``'s dealt again at random from
    their union, keeping their sizes: a uniform determinisation of what ``seat``
    sees (the trick, its own hand, the cards gone, the Coins taken)."""
    others = [(seat + 1) % SEATS, (seat + 2) % SEATS]
    cards = cards_in(unseen_by(position, seat))
    rng.shuffle(cards)
    hands = list(position.hands)
    n = popcount(position.hands[others[0]])
    hands[others[0]] = sum(1 << c for c in cards[:n])
    hands[others[1]] = sum(1 << c for c in cards[n:])
    return Position(tuple(hands), position.leader, position.trick, position.taken)


def view_of(record: Record | str, seat: int) -> Record:
    """``record`` as ``seat`` sees it (a convenience over ``Record.view``)."""
    if isinstance(record, str):
        record = Record.parse(record)
    return record.view(seat)


__all__ = [
    "Deal",
    "ViewSampler",
    "count_deals",
    "resample_position",
    "sample_deal",
    "sample_deals",
    "unseen_by",
    "view_of",
]
