"""Compiled kernels: trick resolution, move generation and the paranoid search.

Everything here assumes valid input (the public wrappers in ``paranoid.py``
validate first) and does no bounds checks. Kernels that call one another live
in this one module because Numba's cache does not notice changes to functions
in other files. All of it also runs as plain Python under
``NUMBA_DISABLE_JIT=1``, which the test suite uses for coverage.

The search is a boolean ("can seat p win at least ``need`` more points?")
alpha-beta over cards, written with explicit per-ply arrays instead of
recursion, as DDS does: it keeps the kernel cache-safe and lets the caller
stop it after a node or time budget. Its transposition table, keyed at trick
boundaries on the cards each seat holds, the leader and the seat p, stores a
lower and an upper bound on p's points from there to the end of the hand.
"""

from __future__ import annotations

import time

import numba
import numpy as np

from .cards import COINS_MASK

JIT_OPTIONS = dict(cache=True)
njit = numba.njit(**JIT_OPTIONS)

# single bit -> index, via 2**i mod 67 being distinct for i < 64
_BIT_INDEX = np.full(67, -1, dtype=np.int64)
for _i in range(64):
    _BIT_INDEX[(1 << _i) % 67] = _i
del _i

_SUIT_MASKS = np.array([0xFFF << (12 * s) for s in range(4)], dtype=np.int64)

# Zobrist keys: one per (seat, card), per leader and per searching seat.
_rng = np.random.default_rng(0x5EED_C015)
_ZOBRIST = _rng.integers(1, 2**62, size=(3, 48), dtype=np.int64)
_ZOBRIST_LEADER = _rng.integers(1, 2**62, size=3, dtype=np.int64)
_ZOBRIST_SEAT = _rng.integers(1, 2**62, size=3, dtype=np.int64)
del _rng

MAX_PLY = 50  # 48 cards, plus the root and one spare
MAX_MOVES = 16
BUCKET = 4  # transposition-table entries probed per key

# search outcome codes
FALSE, TRUE, ABORTED = 0, 1, -1

# option bits for paranoid_search (tests turn the speed-ups off to check them)
NO_TABLE, NO_EQUIVALENCE = 1, 2

# stats slots
STAT_NODES, STAT_TT_HITS, STAT_TT_STORES = 0, 1, 2


@njit
def bit_index(bit):
    return _BIT_INDEX[bit % 67]


@njit
def popcount(mask):
    """Number of cards in a 48-bit ``mask`` (SWAR: no intrinsics, no unsigned types)."""
    x = mask - ((mask >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return x & 0x7F


@njit
def trick_winner(c0, c1, c2):
    """Index in play order (0-2) of the card that wins the trick c0, c1, c2."""
    s0 = c0 // 12
    s1 = c1 // 12
    s2 = c2 // 12
    if s0 == s1:
        if s0 == s2:
            if c0 > c1:
                return 0 if c0 > c2 else 2
            return 1 if c1 > c2 else 2
        return 0 if c0 > c1 else 1
    if s0 == s2:
        return 0 if c0 > c2 else 2
    if s1 == s2:
        return 1 if c1 > c2 else 2
    winning_suit = (7 - s0 - s1 - s2) & 3  # the suit after the missing one
    if s0 == winning_suit:
        return 0
    return 1 if s1 == winning_suit else 2


@njit
def coin_count(c):
    """1 for a card of the Coins suit (index 12-23), else 0."""
    return 1 if c // 12 == 1 else 0


@njit
def move_representatives(hand, live, out):
    """Write one card per run of equivalent cards in ``hand`` to ``out``.

    Cards of one suit with no live card between them are equivalent; the
    highest of each run stands for it. Returns how many were written.
    """
    n = 0
    rest = hand
    while rest:
        low = rest & -rest
        rest ^= low
        card = bit_index(low)
        above = live & _SUIT_MASKS[card // 12] & ~((low << 1) - 1)
        if above & -above & hand:
            continue
        out[n] = card
        n += 1
    return n


@njit
def representative_of(card, hand, live):
    """The card that stands for ``card``'s run of equivalents in ``hand``."""
    bit = 1 << card
    suit = _SUIT_MASKS[card // 12]
    while True:
        above = live & suit & ~((bit << 1) - 1)
        nxt = above & -above
        if nxt & hand:
            bit = nxt
        else:
            return bit_index(bit)


@njit
def _tt_find(tt_keys, key0, key1, key2, index):
    for slot in range(index, index + BUCKET):
        if tt_keys[slot, 0] == key0 and tt_keys[slot, 1] == key1 and tt_keys[slot, 2] == key2:
            return slot
    return -1


@njit
def possible_winners(lead_card, card, third_hand):
    """Who can still win a trick whose first two cards are ``lead_card`` and
    ``card``, whatever the third player holds: bit 0 the leader, bit 1 the
    second player, bit 2 the third player."""
    lead_suit = lead_card // 12
    suit = card // 12
    if lead_suit == suit:
        # two of a suit: the higher wins unless the third plays that suit higher
        top = max(lead_card, card)
        winners = 1 if lead_card > card else 2
        if third_hand & _SUIT_MASKS[suit] & ~((2 << top) - 1):
            winners |= 4
        return winners
    winners = 0
    for third_suit in range(4):
        held = third_hand & _SUIT_MASKS[third_suit]
        if held == 0:
            continue
        if third_suit == lead_suit or third_suit == suit:
            mine = lead_card if third_suit == lead_suit else card
            if held & ~((2 << mine) - 1):
                winners |= 4  # a higher card of the pair's suit wins
            if held & ((1 << mine) - 1):
                winners |= 1 if third_suit == lead_suit else 2
        else:
            winning_suit = (7 - lead_suit - suit - third_suit) & 3
            if winning_suit == lead_suit:
                winners |= 1
            elif winning_suit == suit:
                winners |= 2
            else:
                winners |= 4
    return winners


@njit
def _order_moves(ply, mover, seat, stack_hands, trick_cards, n_trick, moves, n, hint, history):
    """Sort ``moves[ply, :n]`` best first for the mover.

    The last card of a trick is ordered by the trick's outcome for seat p (the
    outcome is then known); the others by the history of cutoffs. A card from
    the transposition table goes first.
    """
    scores = np.empty(MAX_MOVES, dtype=np.int64)
    maximizing = mover == seat
    for i in range(n):
        card = moves[ply, i]
        score = history[((mover - seat) % 3) * 3 + n_trick, card]
        if n_trick == 2:
            c0 = trick_cards[ply, 0]
            c1 = trick_cards[ply, 1]
            points = coin_count(c0) + coin_count(c1) + coin_count(card)
            winner_offset = trick_winner(c0, c1, card)
            seat_wins = (mover + 1 + winner_offset) % 3 == seat
            if maximizing:
                outcome = 1 + points if seat_wins else -coin_count(card)
            else:
                outcome = -1 - points if seat_wins else coin_count(card)
            score += outcome << 40
        elif n_trick == 1:
            # does the trick's outcome for seat p no longer depend on the third card?
            lead_card = trick_cards[ply, 0]
            third = (mover + 1) % 3
            winners = possible_winners(lead_card, card, stack_hands[ply, third])
            seat_bit = 1 << ((seat - mover + 1) % 3)  # seat p as leader (1), mover (2), third (4)
            if third == seat:
                seat_can_win = winners & seat_bit != 0
                seat_must_win = winners == seat_bit
            else:  # the third player is the pair's: it decides
                seat_can_win = winners == seat_bit
                seat_must_win = seat_can_win
            points = coin_count(lead_card) + coin_count(card)
            if maximizing:
                outcome = 1 + points if seat_must_win else (0 if seat_can_win else -coin_count(card))
            else:
                outcome = -1 - points if seat_can_win else coin_count(card)
            score += outcome << 40
        if card == hint:
            score += 1 << 50
        scores[i] = score - (card % 12)  # cheaper cards first among equals
    for i in range(1, n):  # insertion sort, n <= 16
        card = moves[ply, i]
        score = scores[i]
        j = i - 1
        while j >= 0 and scores[j] < score:
            scores[j + 1] = scores[j]
            moves[ply, j + 1] = moves[ply, j]
            j -= 1
        scores[j + 1] = score
        moves[ply, j + 1] = card


@njit
def paranoid_search(
    seat,
    need,
    hands0,
    leader0,
    trick0,
    n_trick0,
    tt_keys,
    tt_bounds,
    tt_moves,
    history,
    stats,
    max_nodes,
    deadline,
    options,
):
    """Can ``seat`` win at least ``need`` more points against the other two?

    Returns TRUE, FALSE or ABORTED (node budget ``max_nodes`` or the
    ``perf_counter`` ``deadline`` ran out; 0 means no limit). ``stats`` gains
    the nodes searched and the table's hits and stores. Bounds in the table
    stay valid across calls and across root positions.
    """
    hands = np.empty((MAX_PLY, 3), dtype=np.int64)
    leaders = np.empty(MAX_PLY, dtype=np.int64)
    n_trick = np.empty(MAX_PLY, dtype=np.int64)
    trick_cards = np.empty((MAX_PLY, 2), dtype=np.int64)
    needs = np.empty(MAX_PLY, dtype=np.int64)
    hashes = np.empty(MAX_PLY, dtype=np.int64)
    moves = np.empty((MAX_PLY, MAX_MOVES), dtype=np.int64)
    n_moves = np.empty(MAX_PLY, dtype=np.int64)
    move_index = np.empty(MAX_PLY, dtype=np.int64)
    tt_slot = np.empty(MAX_PLY, dtype=np.int64)  # -1: not a stored (expanded boundary) node

    hash0 = 0
    for s in range(3):
        rest = hands0[s]
        while rest:
            low = rest & -rest
            rest ^= low
            hash0 ^= _ZOBRIST[s, bit_index(low)]
    for s in range(3):
        hands[0, s] = hands0[s]
    leaders[0] = leader0
    n_trick[0] = n_trick0
    trick_cards[0, 0] = trick0[0]
    trick_cards[0, 1] = trick0[1]
    needs[0] = need
    hashes[0] = hash0

    table_mask = tt_keys.shape[0] - BUCKET
    nodes = 0
    ply = 0
    result = FALSE
    entering = True
    while True:
        if entering:
            nodes += 1
            if max_nodes > 0 and nodes > max_nodes:
                stats[STAT_NODES] += nodes
                return ABORTED
            if deadline > 0.0 and (nodes & 0xFFFF) == 0:
                with numba.objmode(now="float64"):
                    now = time.perf_counter()
                if now > deadline:
                    stats[STAT_NODES] += nodes
                    return ABORTED
            tt_slot[ply] = -1
            h0 = hands[ply, 0]
            h1 = hands[ply, 1]
            h2 = hands[ply, 2]
            target = needs[ply]
            nt = n_trick[ply]
            on_table = 0
            for i in range(nt):
                on_table |= 1 << trick_cards[ply, i]
            live = h0 | h1 | h2 | on_table
            if target <= 0:
                result = TRUE
                entering = False
                continue
            if target > popcount(live & COINS_MASK):
                result = FALSE
                entering = False
                continue
            lead = leaders[ply]
            mover = (lead + nt) % 3
            hint = -1
            if nt == 0 and h0 & (h0 - 1) == 0:  # one card each: the last trick
                c0 = bit_index(hands[ply, lead])
                c1 = bit_index(hands[ply, (lead + 1) % 3])
                c2 = bit_index(hands[ply, (lead + 2) % 3])
                winner = (lead + trick_winner(c0, c1, c2)) % 3
                won = coin_count(c0) + coin_count(c1) + coin_count(c2) if winner == seat else 0
                result = TRUE if won >= target else FALSE
                entering = False
                continue
            if nt == 0 and not options & NO_TABLE:
                key0 = h0 | (lead << 48) | (seat << 50)
                hkey = hashes[ply] ^ _ZOBRIST_LEADER[lead] ^ _ZOBRIST_SEAT[seat]
                index = hkey & table_mask
                slot = _tt_find(tt_keys, key0, h1, h2, index)
                if slot < 0:
                    # replace the entry with the fewest cards left in the bucket
                    slot = index
                    fewest = 99
                    for candidate in range(index, index + BUCKET):
                        if tt_keys[candidate, 0] == 0:
                            slot = candidate
                            break
                        left = popcount(tt_keys[candidate, 0] & 0xFFFFFFFFFFFF)
                        if left < fewest:
                            fewest = left
                            slot = candidate
                    tt_keys[slot, 0] = key0
                    tt_keys[slot, 1] = h1
                    tt_keys[slot, 2] = h2
                    tt_bounds[slot, 0] = 0
                    tt_bounds[slot, 1] = 12
                    tt_moves[slot] = -1
                else:
                    stats[STAT_TT_HITS] += 1
                    if tt_bounds[slot, 0] >= target:
                        result = TRUE
                        entering = False
                        continue
                    if tt_bounds[slot, 1] < target:
                        result = FALSE
                        entering = False
                        continue
                    hint = tt_moves[slot]
                tt_slot[ply] = slot
            hand = hands[ply, mover]
            n = move_representatives(hand, 0 if options & NO_EQUIVALENCE else live, moves[ply])
            if hint >= 0 and hand >> hint & 1 == 0:
                hint = -1
            _order_moves(ply, mover, seat, hands, trick_cards, nt, moves, n, hint, history)
            n_moves[ply] = n
            move_index[ply] = 0
        else:
            # the node at ``ply`` is decided: ``result``
            slot = tt_slot[ply]
            if slot >= 0:
                # the entry may have been replaced meanwhile: check the key again
                if (
                    tt_keys[slot, 1] == hands[ply, 1]
                    and tt_keys[slot, 2] == hands[ply, 2]
                    and tt_keys[slot, 0] == hands[ply, 0] | (leaders[ply] << 48) | (seat << 50)
                ):
                    stats[STAT_TT_STORES] += 1
                    if result == TRUE:
                        if needs[ply] > tt_bounds[slot, 0]:
                            tt_bounds[slot, 0] = needs[ply]
                    elif needs[ply] - 1 < tt_bounds[slot, 1]:
                        tt_bounds[slot, 1] = needs[ply] - 1
            if ply == 0:
                stats[STAT_NODES] += nodes
                return result
            ply -= 1
            mover = (leaders[ply] + n_trick[ply]) % 3
            maximizing = mover == seat
            card = moves[ply, move_index[ply]]
            if (result == TRUE) == maximizing:
                stats[3 + (1 if maximizing else 0) * 6 + n_trick[ply] * 2 + (0 if move_index[ply] == 0 else 1)] += 1
                # cutoff: this card decides the node
                history[((mover - seat) % 3) * 3 + n_trick[ply], card] += 1 + popcount(hands[ply, mover])
                if tt_slot[ply] >= 0:
                    tt_moves[tt_slot[ply]] = card
                continue
            move_index[ply] += 1
            if move_index[ply] >= n_moves[ply]:
                result = FALSE if maximizing else TRUE
                continue
            entering = True
        # play moves[ply, move_index[ply]] into ply + 1
        lead = leaders[ply]
        nt = n_trick[ply]
        mover = (lead + nt) % 3
        card = moves[ply, move_index[ply]]
        child = ply + 1
        for s in range(3):
            hands[child, s] = hands[ply, s]
        hands[child, mover] ^= 1 << card
        hashes[child] = hashes[ply] ^ _ZOBRIST[mover, card]
        if nt < 2:
            leaders[child] = lead
            n_trick[child] = nt + 1
            trick_cards[child, 0] = trick_cards[ply, 0]
            trick_cards[child, 1] = trick_cards[ply, 1]
            trick_cards[child, nt] = card
            needs[child] = needs[ply]
        else:
            c0 = trick_cards[ply, 0]
            c1 = trick_cards[ply, 1]
            winner = (lead + trick_winner(c0, c1, card)) % 3
            leaders[child] = winner
            n_trick[child] = 0
            points = coin_count(c0) + coin_count(c1) + coin_count(card)
            needs[child] = needs[ply] - points if winner == seat else needs[ply]
        ply = child
        entering = True
