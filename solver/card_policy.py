"""A card policy learned by self-play: the value of each card from what a seat sees.

``CardPolicy`` is a small network (two hidden ReLU layers) that gives every
card of the seat to move the points the seat expects to win from there to the
end of the hand after playing it, reading only what that seat sees
(``_policy_kernels`` lists the inputs). ``training/train_policy.py`` trains it
by self-play (Deep Monte Carlo, as DouZero) against itself, greedy and its
earlier versions; the weights ship in ``policy_net.npz``. It is the ``policy``
bot, and a playout policy of the hint: a few milliseconds a move.

Not to be confused with ``solver.policy``: the search's tuning settings.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property

import numpy as np

from . import _policy_kernels as pk
from . import checks
from .cards import Card
from .errors import CoinsError
from .position import Position

WEIGHTS_FILE = "policy_net.npz"


@dataclass(frozen=True, eq=False)
class CardPolicy:
    """The network's weights: ``w1`` (POLICY_FEATURES x h1), ``b1``, ``w2`` (h1 x
    h2), ``b2``, ``w3`` (h2) and ``b3`` (one bias)."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    w3: np.ndarray
    b3: np.ndarray

    @classmethod
    def load(cls, path=None) -> CardPolicy:
        """The weights in ``path`` (an ``.npz`` with w1 b1 w2 b2 w3 b3), by default
        the ones shipped with the package."""
        weights = checks.weight_arrays(
            path, __package__, WEIGHTS_FILE, pk.PolicyNet._fields, "card policy"
        )
        arrays = {
            name: np.ascontiguousarray(array, dtype=np.float64) for name, array in weights.items()
        }
        policy = cls(**arrays)
        policy._check()
        return policy

    def _check(self) -> None:
        n1, n2 = self.b1.shape[0], self.b2.shape[0]
        shapes = {
            "w1": (pk.POLICY_FEATURES, n1),
            "b1": (n1,),
            "w2": (n1, n2),
            "b2": (n2,),
            "w3": (n2,),
            "b3": (1,),
        }
        checks.array_shapes(self, shapes, "card policy")

    @cached_property
    def kernel_net(self) -> pk.PolicyNet:
        """What the kernels take."""
        return pk.PolicyNet(self.w1, self.b1, self.w2, self.b2, self.w3, self.b3)

    def values(self, position: Position) -> dict[Card, float]:
        """The network's value of each card of the seat to move: its expected
        points from the position to the end of the hand after that card."""
        hand = _mover_hand(position)
        t0, t1 = (list(position.trick) + [-1, -1])[:2]
        seat = position.to_move
        values = np.empty(48)
        pk.card_values(
            hand,
            _gone(position),
            len(position.trick),
            t0,
            t1,
            position.taken[seat],
            position.taken[(seat + 1) % 3],
            position.taken[(seat + 2) % 3],
            self.kernel_net,
            np.empty(pk.POLICY_FEATURES),
            np.empty((2, self.b1.shape[0])),
            values,
        )
        return {card: float(values[card]) for card in position.legal_cards()}

    def card(self, position: Position) -> Card:
        """The card of the highest value (the first in index order among equals)."""
        _mover_hand(position)
        t0, t1 = (list(position.trick) + [-1, -1])[:2]
        card = pk.policy_card(
            np.array(position.hands, dtype=np.int64),
            position.leader,
            len(position.trick),
            t0,
            t1,
            np.array(position.taken, dtype=np.int64),
            self.kernel_net,
            np.empty(pk.POLICY_FEATURES),
            np.empty((2, self.b1.shape[0])),
            np.empty(48),
        )
        return Card(card)

    def play_until(
        self, position: Position, cards_left: int = 0
    ) -> tuple[Position, tuple[int, int, int]]:
        """Every seat plays this policy from the position until no hand holds
        more than ``cards_left`` cards (at once if none does; else that is at
        the start of a trick): the position reached, and the points each seat
        won on the way (0: to the end of the hand, the trick on the table
        included)."""
        t0, t1 = (list(position.trick) + [-1, -1])[:2]
        hands, leader, trick, n, points = pk.policy_play_until(
            np.array(position.hands, dtype=np.int64),
            position.leader,
            np.array([t0, t1], dtype=np.int64),
            len(position.trick),
            np.array(position.taken, dtype=np.int64),
            cards_left,
            self.kernel_net,
        )
        points = tuple(int(p) for p in points)
        taken = tuple(t + p for t, p in zip(position.taken, points))
        reached = Position(
            tuple(int(h) for h in hands),
            int(leader),
            tuple(Card(int(c)) for c in trick[:n]),
            taken,
        )
        return reached, points


def _mover_hand(position: Position) -> int:
    if position.is_terminal:
        raise CoinsError("the hand is over: there is no card to value")
    return position.hands[position.to_move]


def _gone(position: Position) -> int:
    """The cards played in earlier tricks."""
    return pk.FULL_DECK & ~(
        position.hands[0] | position.hands[1] | position.hands[2] | position.trick_mask
    )


@cache
def default_policy() -> CardPolicy:
    """The shipped policy, loaded once."""
    return CardPolicy.load()
