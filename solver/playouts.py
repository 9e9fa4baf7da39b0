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
"""

from __future__ import annotations

import random

from . import _kernels as k


def greedy_card(hand: int, trick: list[int] | tuple[int, ...]) -> int:
    """The greedy heuristic's card from ``hand`` with ``trick`` on the table."""
    t0, t1 = (list(trick) + [-1, -1])[:2]
    return int(k.greedy_card(hand, t0, t1, len(trick)))


def playout(hands, leader: int, trick, rng: random.Random, epsilon: float = 0.0) -> list[int]:
    """Points each seat wins from here to the end of the hand (the current trick
    included) when every seat plays ``greedy_card``, or with probability
    ``epsilon`` a random card."""
    return play_until(hands, leader, trick, rng, epsilon, 0)[3]


def play_until(
    hands, leader: int, trick, rng: random.Random, epsilon: float, cards_left: int
) -> tuple[list[int], int, list[int], list[int]]:
    """Play as ``playout`` does until no hand holds more than ``cards_left``
    cards (at once if none does; else that is at the start of a trick);
    returns the hands, the leader and the trick reached, and the points each
    seat won on the way. The random cards come from a seed drawn from ``rng``
    (compiled: ``_kernels.play_until``)."""
    t0, t1 = (list(trick) + [-1, -1])[:2]
    seed = rng.getrandbits(63) if epsilon else 0
    h0, h1, h2, leader, t0, t1, n, p0, p1, p2 = k.play_until(
        hands[0], hands[1], hands[2], leader, t0, t1, len(trick), float(epsilon), cards_left, seed
    )
    return (
        [int(h0), int(h1), int(h2)],
        int(leader),
        [int(t0), int(t1)][:n],
        [int(p0), int(p1), int(p2)],
    )
