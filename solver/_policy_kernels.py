"""Compiled kernels of the learned card policy: what a seat sees, the network, play.

A small network (``training/train_policy.py`` trains it by self-play) gives
every card of the seat to move a value: the points the seat expects to win
from here to the end of the hand if it plays that card. Its input is what the
seat sees in a ``Position`` (its hand, the cards gone in earlier tricks, the
trick on the table by who played it, the Coins each seat took, the Coins
still out, the cards left) and the card, with a few facts about the card
the network would otherwise have to learn (is it a Coin, how many unseen
cards of its suit are above and below it, can it or must it win the trick).
Which seat played each card of an earlier trick is not part of a ``Position``
(what the bots and the hint's playouts are given), so those cards come as
one set: with no duty to follow suit, who played them tells less than in
other trick-taking games.

The features split into the seat's part (``STATE_FEATURES``) and the card's
(``CARD_FEATURES``), so the first layer adds up the seat's part once per
decision and only the card's few non-zero inputs per card. Everything here
assumes valid input (``solver.card_policy`` validates) and also runs as
plain Python under ``NUMBA_DISABLE_JIT=1``. The primitives come from
``_kernels`` (the trick's winner, bit counts): the searches need none of
this module, so it stays apart, but Numba's cache does not see changes in
another file, so a change to those primitives must come with a fresh cache
here (touch this file).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ._kernels import _SUIT_MASKS, coin_count, njit, popcount, possible_winners, trick_winner

FULL_DECK = (1 << 48) - 1

# the seat's part: relative seats are the seat itself, its left (the next to
# play) and its right (the one before it)
HAND = 0  # 48: the seat's cards
GONE = 48  # 48: cards played in earlier tricks
RIGHT_ON_TABLE = 96  # 48: the card its right played to this trick
LEFT_ON_TABLE = 144  # 48: the card its left led to this trick (two cards down)
IN_TRICK = 192  # 3: one-hot, cards already in the trick
TAKEN = 195  # 3: Coins taken by the seat, its left, its right (/12)
COINS_OUT = 198  # Coins nobody has taken yet (/12)
CARDS_LEFT = 199  # cards in the seat's hand (/16)
UNSEEN_BY_SUIT = 200  # 4: cards of each suit the seat cannot see (/12)
HELD_BY_SUIT = 204  # 4: the seat's cards of each suit (/12)
STATE_FEATURES = 208
# the card's part, from STATE_FEATURES on
CARD = 0  # 48: one-hot
IS_COIN = 48
UNSEEN_ABOVE = 49  # unseen cards of its suit above it (/11)
UNSEEN_BELOW = 50  # unseen cards of its suit below it (/11)
OWN_SUIT = 51  # the seat's other cards of its suit (/11)
SURE_WIN = 52  # it wins the trick whatever the cards to come (second or last to play)
CAN_WIN = 53  # some card to come lets it win the trick (second or last to play)
POT = 54  # Coins in the trick with it (/3)
CARD_FEATURES = 55
POLICY_FEATURES = STATE_FEATURES + CARD_FEATURES

# the network as the kernels take it: two hidden ReLU layers, one output
# (w3: hidden2 weights, b3: one bias)
PolicyNet = namedtuple("PolicyNet", "w1 b1 w2 b2 w3 b3")


@njit
def seen_trick(n, t0, t1):
    """(the card of the mover's right on the table, that of its left; -1 for none)."""
    if n == 1:
        return t0, -1
    if n == 2:
        return t1, t0
    return -1, -1


@njit
def state_features(hand, gone, n, t0, t1, taken_self, taken_left, taken_right, x):
    """Fill ``x[:STATE_FEATURES]`` with the seat's part for the mover holding
    ``hand``, ``gone`` the cards of earlier tricks, ``n`` cards ``t0, t1`` on
    the table."""
    x[:STATE_FEATURES] = 0.0
    table = 0
    right, left = seen_trick(n, t0, t1)
    if right >= 0:
        x[RIGHT_ON_TABLE + right] = 1.0
        table |= 1 << right
    if left >= 0:
        x[LEFT_ON_TABLE + left] = 1.0
        table |= 1 << left
    unseen = FULL_DECK & ~(hand | gone | table)
    for card in range(48):
        if hand >> card & 1:
            x[HAND + card] = 1.0
        if gone >> card & 1:
            x[GONE + card] = 1.0
    x[IN_TRICK + n] = 1.0
    x[TAKEN] = taken_self / 12.0
    x[TAKEN + 1] = taken_left / 12.0
    x[TAKEN + 2] = taken_right / 12.0
    x[COINS_OUT] = (12 - taken_self - taken_left - taken_right) / 12.0
    x[CARDS_LEFT] = popcount(hand) / 16.0
    for suit in range(4):
        x[UNSEEN_BY_SUIT + suit] = popcount(unseen & _SUIT_MASKS[suit]) / 12.0
        x[HELD_BY_SUIT + suit] = popcount(hand & _SUIT_MASKS[suit]) / 12.0
    return unseen


@njit
def card_features(card, hand, unseen, n, t0, t1, x):
    """Fill ``x[STATE_FEATURES:]`` with the card's part (``unseen``: what
    ``state_features`` returned)."""
    a = x[STATE_FEATURES:]
    a[:] = 0.0
    a[CARD + card] = 1.0
    a[IS_COIN] = coin_count(card)
    suit = _SUIT_MASKS[card // 12]
    above = ~((2 << card) - 1)
    a[UNSEEN_ABOVE] = popcount(unseen & suit & above) / 11.0
    a[UNSEEN_BELOW] = popcount(unseen & suit & ((1 << card) - 1)) / 11.0
    a[OWN_SUIT] = (popcount(hand & suit) - 1) / 11.0
    pot = coin_count(card)
    if n == 2:
        wins = 1.0 if trick_winner(t0, t1, card) == 2 else 0.0
        a[SURE_WIN] = wins
        a[CAN_WIN] = wins
        pot += coin_count(t0) + coin_count(t1)
    elif n == 1:
        winners = possible_winners(t0, card, unseen)
        a[SURE_WIN] = 1.0 if winners == 2 else 0.0
        a[CAN_WIN] = 1.0 if winners & 2 else 0.0
        pot += coin_count(t0)
    a[POT] = pot / 3.0


@njit
def card_values(hand, gone, n, t0, t1, taken_self, taken_left, taken_right, net, x, h1, values):
    """The network's value of every card of ``hand`` into ``values[card]``
    (other entries untouched). ``x``: POLICY_FEATURES floats of scratch,
    ``h1``: two rows of the first hidden layer's size."""
    w1, b1, w2, b2, w3, b3 = net
    unseen = state_features(hand, gone, n, t0, t1, taken_self, taken_left, taken_right, x)
    n1, n2 = b1.shape[0], b2.shape[0]
    pre = h1[0]
    pre[:] = b1
    for i in range(STATE_FEATURES):
        if x[i] != 0.0:
            xi = x[i]
            for j in range(n1):
                pre[j] += xi * w1[i, j]
    a1 = h1[1]
    for card in range(48):
        if not hand >> card & 1:
            continue
        card_features(card, hand, unseen, n, t0, t1, x)
        a1[:] = pre
        for i in range(STATE_FEATURES, POLICY_FEATURES):
            if x[i] != 0.0:
                xi = x[i]
                for j in range(n1):
                    a1[j] += xi * w1[i, j]
        out = b3[0]
        for j in range(n2):
            z = b2[j]
            for i in range(n1):
                if a1[i] > 0.0:
                    z += a1[i] * w2[i, j]
            if z > 0.0:
                out += z * w3[j]
        values[card] = out


@njit
def best_card(hand, values):
    """The card of ``hand`` of the highest value; the first in index order among equals."""
    best, best_value = -1, -np.inf
    for card in range(48):
        if hand >> card & 1 and values[card] > best_value:
            best, best_value = card, values[card]
    return best


@njit
def policy_card(hands, leader, n, t0, t1, taken, net, x, h1, values):
    """The network's card for the seat to move (``hands``: the three seats';
    only the mover's is read, and the union of all for the cards gone)."""
    seat = (leader + n) % 3
    table = (1 << t0 if n >= 1 else 0) | (1 << t1 if n == 2 else 0)
    gone = FULL_DECK & ~(hands[0] | hands[1] | hands[2] | table)
    card_values(
        hands[seat],
        gone,
        n,
        t0,
        t1,
        taken[seat],
        taken[(seat + 1) % 3],
        taken[(seat + 2) % 3],
        net,
        x,
        h1,
        values,
    )
    return best_card(hands[seat], values)


@njit
def policy_play_until(start_hands, leader, start_trick, n, start_taken, cards_left, net):
    """Every seat plays the network's card until no hand holds more than
    ``cards_left`` cards; returns the hands, leader, trick cards and count
    reached, and each seat's points on the way (``start_taken``: the Coins
    taken so far, which the network reads)."""
    hands = start_hands.copy()
    taken = start_taken.copy()
    trick = np.array([start_trick[0], start_trick[1], -1], dtype=np.int64)
    x = np.empty(POLICY_FEATURES)
    hidden = np.empty((2, net.b1.shape[0]))
    values = np.empty(48)
    points = np.zeros(3, dtype=np.int64)
    check = True
    while True:
        if check and max(popcount(hands[0]), popcount(hands[1]), popcount(hands[2])) <= cards_left:
            break
        seat = (leader + n) % 3
        card = policy_card(hands, leader, n, trick[0], trick[1], taken, net, x, hidden, values)
        hands[seat] &= ~(1 << card)
        trick[n] = card
        n += 1
        check = n == 3
        if check:
            leader = (leader + trick_winner(trick[0], trick[1], trick[2])) % 3
            won = coin_count(trick[0]) + coin_count(trick[1]) + coin_count(trick[2])
            points[leader] += won
            taken[leader] += won
            n = 0
            trick[0] = -1
            trick[1] = -1
    return hands, leader, trick[:2].copy(), n, points
