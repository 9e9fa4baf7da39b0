"""Compiled greedy play (Numba): the kernels behind ``analysis.playout``.

``hint`` plays a greedy playout for every card of every sampled deal before
its exact solve; in Python that was a third of a hint's time and held the
GIL, so two threads could not share the work. Compiled with ``nogil`` the
playouts run in parallel too. Everything here takes plain ints and trusts
them: ``analysis.playout`` is the validating, documented face.

Random cards (``epsilon``) come from a 64-bit LCG seeded by the caller, so a
playout depends only on its arguments, whichever thread runs it.
"""

from __future__ import annotations

import numba
import numpy as np

from solver._kernels import JIT_OPTIONS, bit_index, popcount, trick_winner
from solver.cards import COINS_MASK, RANKS_PER_SUIT

njit = numba.njit(**JIT_OPTIONS)

# cards from the lowest rank up, index order within a rank
RANK_FIRST = np.array(sorted(range(48), key=lambda c: (c % RANKS_PER_SUIT, c)), dtype=np.int64)
_LCG_MUL = 6364136223846793005
_LCG_ADD = 1442695040888963407


@njit
def _lowest(mask):
    for card in RANK_FIRST:
        if mask >> card & 1:
            return card
    return -1


@njit
def greedy_card(hand, t0, t1, n):
    """The greedy heuristic's card (``analysis.playout``) with ``n`` cards
    ``t0, t1`` on the table."""
    if n == 2:
        pot = (t0 // 12 == 1) + (t1 // 12 == 1)
        best, best_value, best_rank = -1, -99, 99
        for card in RANK_FIRST:
            if not hand >> card & 1:
                continue
            coin = 1 if card // 12 == 1 else 0
            value = pot + coin if trick_winner(t0, t1, card) == 2 else -coin
            rank = card % 12
            if value > best_value or (value == best_value and rank < best_rank):
                best, best_value, best_rank = card, value, rank
        return best
    if n == 1 and t0 // 12 == 1:
        higher = hand & COINS_MASK & ~((2 << t0) - 1)
        if higher:
            return bit_index(higher & -higher)
    others = hand & ~COINS_MASK
    return _lowest(others if others else hand)


@njit
def _random_card(hand, state):
    """(a card of ``hand`` chosen by the LCG, the next state)."""
    state = state * _LCG_MUL + _LCG_ADD
    pick = (state >> 33) & 0x7FFFFFFF
    k = pick % popcount(hand)
    for card in range(48):
        if hand >> card & 1:
            if k == 0:
                return card, state
            k -= 1
    return -1, state


@njit
def play_until(h0, h1, h2, leader, t0, t1, n, epsilon, cards_left, seed):
    """Greedy play (a random card with probability ``epsilon``) until no hand
    holds more than ``cards_left`` cards; returns the hands, leader, trick
    cards and count reached, and each seat's points on the way."""
    hands = np.array([h0, h1, h2], dtype=np.int64)
    trick = np.array([t0, t1, -1], dtype=np.int64)
    points = np.zeros(3, dtype=np.int64)
    state = seed
    check = True
    while True:
        if check and max(popcount(hands[0]), popcount(hands[1]), popcount(hands[2])) <= cards_left:
            break
        seat = (leader + n) % 3
        hand = hands[seat]
        card = -1
        if epsilon > 0:
            state = state * _LCG_MUL + _LCG_ADD
            if ((state >> 33) & 0x7FFFFFFF) < epsilon * 2147483648.0:
                card, state = _random_card(hand, state)
        if card < 0:
            card = greedy_card(hand, trick[0], trick[1], n)
        hands[seat] = hand & ~(1 << card)
        trick[n] = card
        n += 1
        check = n == 3
        if check:
            leader = (leader + trick_winner(trick[0], trick[1], trick[2])) % 3
            points[leader] += (trick[0] // 12 == 1) + (trick[1] // 12 == 1) + (trick[2] // 12 == 1)
            n = 0
            trick[0] = -1
            trick[1] = -1
    return (hands[0], hands[1], hands[2], leader, trick[0], trick[1], n,
            points[0], points[1], points[2])  # fmt: skip
