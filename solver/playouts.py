"""Fast play to the end of a hand on bare bitmasks, and the greedy heuristic.

``Position.play`` validates every position it makes, which is right for a
public API and far too slow for thousands of rollouts, so this module plays on
plain ints: three hand masks, the leader and the cards of the trick so far,
through the compiled playouts of the kernels, taking and returning plain
Python values. Everything here assumes valid input (the callers pass
positions that ``Position`` has already checked).

``greedy_card`` is the heuristic of the ``greedy`` bot and the rollout policy
of ``hint`` (RULES.md scoring; Coins points only):

- last to play: it knows the trick's outcome for each card. It takes the card
  that wins the most Coins; when it cannot win any, the one that gives away
  none of its own Coins; ties go to the lowest rank (keep high cards).
- second to play, a Coin led: it wins for sure with the lowest higher Coin
  (two cards of one suit: the higher wins, whatever the third); otherwise it
  sheds its lowest non-Coin.
- leading, or second after a non-Coin: the lowest non-Coin (lowest rank, then
  index order); a Coin only when it holds nothing else.

A playout may play each seat by a ``Policy`` of its own: greedy's card with
random ones at a rate, or a softmax over greedy's whole order of preference,
the models ``analysis.opponents`` infers for the other seats. Where both
other seats play greedy's card, ``greedy_reply`` gives a seat's best reply to
them (every hand open): with their cards fixed by the rule, the search
branches on its own cards alone.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from . import _kernels as k
from .errors import OptionError


class Policy(NamedTuple):
    """How one seat plays in a playout: a random card with probability
    ``epsilon``, else the card at place i of greedy's order of preference (its
    card, then its card from the rest, ...) with weight exp(-i /
    ``temperature``); temperature 0 is greedy's own card."""

    epsilon: float = 0.0
    temperature: float = 0.0


def check_policy(policy) -> Policy:
    """``policy`` as a ``Policy``, or OptionError for one out of range."""
    epsilon, temperature = policy
    for value, name in ((epsilon, "epsilon"), (temperature, "temperature")):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
            raise OptionError(f"a playout policy's {name} must be a number, not {value!r}")
    if not 0 <= epsilon <= 1:
        raise OptionError(f"a playout policy's epsilon must be from 0 to 1, not {epsilon!r}")
    if not 0 <= temperature < math.inf:
        raise OptionError(f"a playout policy's temperature must be 0 or more, not {temperature!r}")
    return Policy(float(epsilon), float(temperature))


def greedy_card(hand: int, trick: list[int] | tuple[int, ...]) -> int:
    """The greedy heuristic's card from ``hand`` with ``trick`` on the table."""
    t0, t1 = (list(trick) + [-1, -1])[:2]
    return int(k.greedy_card(hand, t0, t1, len(trick)))


def greedy_place(hand: int, trick: list[int] | tuple[int, ...], card: int) -> int:
    """How many cards of ``hand`` greedy's order puts before ``card`` (which
    ``hand`` must hold): 0 for greedy's own card."""
    if not hand >> card & 1:
        raise OptionError(f"the hand does not hold card {card}")
    t0, t1 = (list(trick) + [-1, -1])[:2]
    return int(k.greedy_place(hand, t0, t1, len(trick), card))


def greedy_places(deals, turns) -> np.ndarray:
    """The place in greedy's order of every card of ``turns`` (seat, the trick's
    cards before it, the card; in play order) from the seat's hand then, in
    each of ``deals`` (three hands before the first turn): an array, deals by
    turns. Every deal must hold each card in its seat's hand when played."""
    hands = np.array(deals, dtype=np.int64).reshape(-1, 3)
    table = np.array(
        [[seat, *(list(trick) + [-1, -1])[:2], len(trick), card] for seat, trick, card in turns],
        dtype=np.int64,
    ).reshape(-1, 5)
    if len(set(table[:, 4].tolist())) != len(table):
        raise OptionError("a card is played twice in the turns")
    for seat, card in table[:, [0, 4]].tolist():
        if not (hands[:, seat] >> card & 1).all():
            raise OptionError(f"a deal's seat {seat} does not hold card {card}, which it plays")
    places = np.zeros((len(hands), len(table)), dtype=np.int64)
    k.greedy_places(hands, table, places)
    return places


def playout(hands, leader: int, trick, rng: random.Random, epsilon: float = 0.0) -> list[int]:
    """Points each seat wins from here to the end of the hand (the current trick
    included) when every seat plays ``greedy_card``, or with probability
    ``epsilon`` a random card."""
    return play_until(hands, leader, trick, rng, epsilon, 0)[3]


def play_until(
    hands,
    leader: int,
    trick,
    rng: random.Random,
    epsilon: float,
    cards_left: int,
    policies: Sequence[Policy] | None = None,
) -> tuple[list[int], int, list[int], list[int]]:
    """Play as ``playout`` does until no hand holds more than ``cards_left``
    cards (at once if none does; else that is at the start of a trick);
    returns the hands, the leader and the trick reached, and the points each
    seat won on the way. ``policies``: a ``Policy`` for each seat, in place of
    ``Policy(epsilon)`` for all three (the policies are checked; the position
    is not). The random cards come from a seed drawn from ``rng`` (compiled:
    ``_kernels.play_until``)."""
    if policies is None:
        policies = (Policy(epsilon),) * 3
    elif len(policies) != 3:
        raise OptionError(f"give a playout policy for each of the 3 seats, not {len(policies)}")
    else:
        policies = [check_policy(policy) for policy in policies]
    epsilons = np.array([p.epsilon for p in policies], dtype=np.float64)
    temperatures = np.array([p.temperature for p in policies], dtype=np.float64)
    t0, t1 = (list(trick) + [-1, -1])[:2]
    seed = rng.getrandbits(63) if epsilons.any() or temperatures.any() else 0
    h0, h1, h2, leader, t0, t1, n, p0, p1, p2 = k.play_until(
        hands[0],
        hands[1],
        hands[2],
        leader,
        t0,
        t1,
        len(trick),
        epsilons,
        temperatures,
        cards_left,
        seed,
    )
    return (
        [int(h0), int(h1), int(h2)],
        int(leader),
        [int(t0), int(t1)][:n],
        [int(p0), int(p1), int(p2)],
    )


def greedy_reply(hands, leader: int, trick, seat: int) -> int:
    """The most Coins ``seat`` takes from here on when both other seats play
    greedy's card and it replies best to them, every hand open (compiled:
    ``_kernels.greedy_reply`` tries every order of its own cards)."""
    t0, t1 = (list(trick) + [-1, -1])[:2]
    return int(
        k.greedy_reply(
            int(hands[0]), int(hands[1]), int(hands[2]), leader, t0, t1, len(trick), seat
        )
    )


def greedy_reply_values(hands, leader: int, trick) -> dict[int, int]:
    """``greedy_reply`` for the seat to move after each of its cards (by index)."""
    mover = (leader + len(trick)) % 3
    t0, t1 = (list(trick) + [-1, -1])[:2]
    h0, h1, h2 = (int(h) for h in hands)
    values = {}
    hand = (h0, h1, h2)[mover]
    for card in (c for c in range(48) if hand >> c & 1):
        a0, a1, a2, lead, c0, c1, n, won = k.greedy_step(
            h0, h1, h2, leader, t0, t1, len(trick), card, mover
        )
        values[card] = int(won + k.greedy_reply(a0, a1, a2, lead, c0, c1, n, mover))
    return values
