"""Fast play to the end of a hand on bare bitmasks, and the greedy heuristic.

``Position.play`` validates every position it makes, which is right for a
public API and far too slow for thousands of rollouts, so this module plays on
plain ints: three hand masks, the leader and the cards of the trick so far.
Everything here assumes valid input (the public callers pass positions that
``Position`` has already checked).

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

from solver.cards import COINS, COINS_MASK, RANKS_PER_SUIT, SEATS, popcount

_RANK_FIRST = sorted(range(48), key=lambda c: (c % RANKS_PER_SUIT, c))  # low rank first


def winner_index(a: int, b: int, c: int) -> int:
    """Index in play order (0-2) of the card that wins the trick ``a b c`` (RULES.md)."""
    sa, sb, sc = a // 12, b // 12, c // 12
    if sa == sb == sc:
        return 0 if a > b and a > c else (1 if b > c else 2)
    if sa == sb:
        return 0 if a > b else 1
    if sa == sc:
        return 0 if a > c else 2
    if sb == sc:
        return 1 if b > c else 2
    missing = 6 - sa - sb - sc  # suits 0-3: the one absent
    winner = (missing + 1) % 4
    return 0 if sa == winner else (1 if sb == winner else 2)


def coins_of(cards) -> int:
    return sum(1 for c in cards if c // 12 == COINS)


def _lowest(mask: int) -> int:
    for card in _RANK_FIRST:
        if mask >> card & 1:
            return card
    raise ValueError("empty hand")


def greedy_card(hand: int, trick: list[int] | tuple[int, ...]) -> int:
    """The greedy heuristic's card from ``hand`` with ``trick`` on the table."""
    n = len(trick)
    if n == 2:
        a, b = trick
        pot = coins_of(trick)
        best, best_key = -1, None
        for card in _RANK_FIRST:
            if not hand >> card & 1:
                continue
            coin = card // 12 == COINS
            if winner_index(a, b, card) == 2:
                value = pot + coin
            else:
                value = -coin
            key = (value, -(card % RANKS_PER_SUIT))
            if best_key is None or key > best_key:
                best, best_key = card, key
        return best
    if n == 1 and trick[0] // 12 == COINS:
        higher = hand & COINS_MASK & ~((2 << trick[0]) - 1)
        if higher:
            return (higher & -higher).bit_length() - 1
    others = hand & ~COINS_MASK
    return _lowest(others if others else hand)


def random_card(hand: int, rng: random.Random) -> int:
    cards = [c for c in range(48) if hand >> c & 1]
    return rng.choice(cards)


def playout(hands, leader: int, trick, rng: random.Random, epsilon: float = 0.0) -> list[int]:
    """Points each seat wins from here to the end of the hand (the current trick
    included) when every seat plays ``greedy_card``, or with probability
    ``epsilon`` a random card."""
    return play_until(hands, leader, trick, rng, epsilon, 0)[3]


def play_until(hands, leader: int, trick, rng: random.Random, epsilon: float,
               cards_left: int) -> tuple[list[int], int, list[int], list[int]]:
    """Play as ``playout`` does until no hand holds more than ``cards_left``
    cards (at once if none does; else that is at the start of a trick);
    returns the hands, the leader and the trick reached, and the points each
    seat won on the way."""
    hands = list(hands)
    trick = list(trick)
    points = [0, 0, 0]
    check = True  # hand sizes only drop to the limit when a trick is complete
    while True:
        if check and max(map(popcount, hands)) <= cards_left:
            return hands, leader, trick, points
        seat = (leader + len(trick)) % SEATS
        hand = hands[seat]
        if epsilon and rng.random() < epsilon:
            card = random_card(hand, rng)
        else:
            card = greedy_card(hand, trick)
        hands[seat] = hand & ~(1 << card)
        trick.append(card)
        check = len(trick) == SEATS
        if check:
            leader = (leader + winner_index(*trick)) % SEATS
            points[leader] += coins_of(trick)
            trick = []
