"""Compiled kernels: trick resolution, move generation and the paranoid search.

Everything here assumes valid input (the public wrappers in ``paranoid.py``
validate first) and does no bounds checks. Kernels that call one another live
in this one module because Numba's cache does not notice changes to functions
in other files. All of it also runs as plain Python under
``NUMBA_DISABLE_JIT=1``, which the test suite uses for coverage.

The search is a boolean ("can seat p win at least ``need`` more points?")
alpha-beta over cards, written with explicit per-ply arrays instead of
recursion, as DDS does: it keeps the kernel cache-safe and lets the caller
stop it after a node or time budget. Its transposition table stores, at trick
boundaries, a lower and an upper bound on p's points from there to the end
of the hand. The key is relative: each suit's live cards are renumbered
0, 1, 2 ... from the lowest, because only the order of live cards within a
suit (and which suit is Coins) decides tricks, so positions that differ only
in which low cards are gone share one entry.
"""

from __future__ import annotations

import numba
import numpy as np

from .cards import COINS_MASK

JIT_OPTIONS = dict(cache=True, nogil=True)  # nogil: searches run in threads
njit = numba.njit(**JIT_OPTIONS)

# single bit -> index, via 2**i mod 67 being distinct for i < 64
_BIT_INDEX = np.full(67, -1, dtype=np.int64)
for _i in range(64):
    _BIT_INDEX[(1 << _i) % 67] = _i
del _i

_SUIT_MASKS = np.array([0xFFF << (12 * s) for s in range(4)], dtype=np.int64)

# Compressing a suit's cards to their ranks among the live cards of the suit
# (a software "parallel bit extract") goes six bits at a time through a table.
_POP6 = np.array([bin(i).count("1") for i in range(64)], dtype=np.int64)
_EXTRACT6 = np.zeros((64, 64), dtype=np.int64)
for _live in range(64):
    for _held in range(64):
        _out, _k = 0, 0
        for _b in range(6):
            if _live >> _b & 1:
                if _held >> _b & 1:
                    _out |= 1 << _k
                _k += 1
        _EXTRACT6[_live, _held] = _out
del _live, _held, _out, _k, _b

MAX_PLY = 50  # 48 cards, plus the root and one spare
MAX_MOVES = 16
BUCKET = 4  # transposition-table entries probed per key

# search outcome codes
FALSE, TRUE, ABORTED = 0, 1, -1

# option bits for paranoid_search (tests turn the speed-ups off to check them)
NO_TABLE, NO_EQUIVALENCE, PREFER_HIGH = 1, 2, 4  # PREFER_HIGH: a second thread's ordering

# stats slots: nodes, table hits and stores, then cutoffs counted by
# [searching seat or pair][cards already in the trick][first card or later]
STAT_NODES, STAT_TT_HITS, STAT_TT_STORES, STAT_CUTOFFS = 0, 1, 2, 3
STAT_SIZE = STAT_CUTOFFS + 12


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
def _extract(held, live):
    """``held``'s cards renumbered by rank among the 12-bit ``live`` set."""
    low = _EXTRACT6[live & 63, held & 63]
    return low | (_EXTRACT6[live >> 6, (held >> 6) & 63] << _POP6[live & 63])


@njit
def relative_key(h0, h1, live, leader, seat):
    """Two words that name a trick-boundary position up to rank renumbering.

    Per suit: how many live cards (4 bits) and which of them seats 0 and 1
    hold (12 bits each); seat 2 holds the rest. Suits C, O go in the first
    word, S, B in the second with the leader and the searching seat.
    """
    word_a = 0
    word_b = (leader << 56) | (seat << 58)
    for suit in range(4):
        suit_live = (live >> (12 * suit)) & 0xFFF
        part = _POP6[suit_live & 63] + _POP6[suit_live >> 6]
        part |= _extract((h0 >> (12 * suit)) & 0xFFF, suit_live) << 4
        part |= _extract((h1 >> (12 * suit)) & 0xFFF, suit_live) << 16
        if suit < 2:
            word_a |= part << (28 * suit)
        else:
            word_b |= part << (28 * (suit - 2))
    return word_a, word_b


@njit
def _key_index(key_a, key_b, table_mask):
    """Bucket start for a key: products of 28-bit pieces (no int64 overflow)."""
    h = (key_a & 0xFFFFFFF) * 0x9E3779B1
    h ^= (key_a >> 28) * 0x85EBCA77
    h ^= (key_b & 0xFFFFFFF) * 0xC2B2AE3D
    h ^= (key_b >> 28) * 0x27D4EB2F
    h ^= h >> 31
    return h & table_mask


@njit
def _tt_pack(low, high, move, depth):
    """One data word: bounds on the searching seat's points, best card
    (relative; -1 for none) and cards left (0 marks an empty entry)."""
    return low | (high << 8) | ((move + 1) << 16) | (depth << 24)


@njit
def _tt_low(data):
    return data & 0xFF


@njit
def _tt_high(data):
    return (data >> 8) & 0xFF


@njit
def _tt_move(data):
    return ((data >> 16) & 0xFF) - 1


@njit
def _tt_depth(data):
    return (data >> 24) & 0xFF


@njit
def _tt_matches(tt_keys, slot, data, key_a, key_b):
    return tt_keys[slot, 0] ^ data == key_a and tt_keys[slot, 1] ^ data == key_b


@njit
def _tt_find(tt_keys, tt_data, key_a, key_b, index):
    for slot in range(index, index + BUCKET):
        if _tt_matches(tt_keys, slot, tt_data[slot], key_a, key_b):
            return slot
    return -1


@njit
def _tt_write(tt_keys, tt_data, slot, key_a, key_b, data):
    tt_data[slot] = data
    tt_keys[slot, 0] = key_a ^ data
    tt_keys[slot, 1] = key_b ^ data


@njit
def _relative_card(card, live):
    """A card as suit * 16 + its rank among the live cards of its suit."""
    suit = card // 12
    below = live & _SUIT_MASKS[suit] & ((1 << card) - 1)
    return suit * 16 + popcount(below)


@njit
def _absolute_card(relative, live):
    """The live card that ``_relative_card`` named ``relative``."""
    rest = live & _SUIT_MASKS[relative // 16]
    for _ in range(relative % 16):
        rest &= rest - 1
    return bit_index(rest & -rest) if rest else -1


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
def _order_moves(ply, mover, seat, stack_hands, trick_cards, n_trick, moves, n, hint, history, options):
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
        elif maximizing:
            score -= coin_count(card) << 40  # a Coin led is a Coin the pair can take
        else:
            seat_hand = stack_hands[ply, seat]
            seat_above = seat_hand & _SUIT_MASKS[card // 12] & ~((2 << card) - 1)
            if coin_count(card) and seat_above == 0:
                score += 1 << 40  # a Coin seat p cannot overtake in its suit
        if card == hint:
            score += 1 << 50
        # among equals cheaper cards first (a helper thread tries dearer ones)
        scores[i] = score + (card % 12) if options & PREFER_HIGH else score - (card % 12)
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
    tt_data,
    history,
    stats,
    max_nodes,
    stop,
    options,
):
    """Can ``seat`` win at least ``need`` more points against the other two?

    Returns TRUE, FALSE or ABORTED (the node budget ``max_nodes`` ran out, 0
    meaning no limit, or another thread set ``stop[0]``: a search thread that
    answered first, or the caller's timer). ``stats`` gains the nodes searched and the
    table's hits and stores. Bounds in the table stay valid across calls, root
    positions and threads: each entry's key words are stored XORed with its
    data word, so an entry torn by two threads writing at once reads as a miss.
    """
    hands = np.empty((MAX_PLY, 3), dtype=np.int64)
    leaders = np.empty(MAX_PLY, dtype=np.int64)
    n_trick = np.empty(MAX_PLY, dtype=np.int64)
    trick_cards = np.empty((MAX_PLY, 2), dtype=np.int64)
    needs = np.empty(MAX_PLY, dtype=np.int64)
    moves = np.empty((MAX_PLY, MAX_MOVES), dtype=np.int64)
    n_moves = np.empty(MAX_PLY, dtype=np.int64)
    move_index = np.empty(MAX_PLY, dtype=np.int64)
    tt_slot = np.empty(MAX_PLY, dtype=np.int64)  # -1: not a stored (expanded boundary) node
    tt_key = np.empty((MAX_PLY, 2), dtype=np.int64)

    for s in range(3):
        hands[0, s] = hands0[s]
    leaders[0] = leader0
    n_trick[0] = n_trick0
    trick_cards[0, 0] = trick0[0]
    trick_cards[0, 1] = trick0[1]
    needs[0] = need

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
            if (nodes & 0xFFF) == 0 and stop[0] != 0:
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
                key_a, key_b = relative_key(h0, h1, live, lead, seat)
                index = _key_index(key_a, key_b, table_mask)
                slot = _tt_find(tt_keys, tt_data, key_a, key_b, index)
                if slot < 0:
                    # take an empty entry, else the one with the fewest cards left
                    slot = index
                    for candidate in range(index + 1, index + BUCKET):
                        if _tt_depth(tt_data[candidate]) < _tt_depth(tt_data[slot]):
                            slot = candidate
                    _tt_write(tt_keys, tt_data, slot, key_a, key_b, _tt_pack(0, 12, -1, popcount(live)))
                else:
                    stats[STAT_TT_HITS] += 1
                    data = tt_data[slot]
                    if _tt_low(data) >= target:
                        result = TRUE
                        entering = False
                        continue
                    if _tt_high(data) < target:
                        result = FALSE
                        entering = False
                        continue
                    if _tt_move(data) >= 0:
                        hint = _absolute_card(_tt_move(data), live)
                tt_slot[ply] = slot
                tt_key[ply, 0] = key_a
                tt_key[ply, 1] = key_b
            hand = hands[ply, mover]
            n = move_representatives(hand, 0 if options & NO_EQUIVALENCE else live, moves[ply])
            if hint >= 0 and hand >> hint & 1 == 0:
                hint = -1
            _order_moves(ply, mover, seat, hands, trick_cards, nt, moves, n, hint, history, options)
            n_moves[ply] = n
            move_index[ply] = 0
        else:
            # the node at ``ply`` is decided: ``result``
            slot = tt_slot[ply]
            if slot >= 0:
                # the entry may have been replaced meanwhile: check the key again
                key_a = tt_key[ply, 0]
                key_b = tt_key[ply, 1]
                data = tt_data[slot]
                if _tt_matches(tt_keys, slot, data, key_a, key_b):
                    stats[STAT_TT_STORES] += 1
                    low = _tt_low(data)
                    high = _tt_high(data)
                    if result == TRUE:
                        low = max(low, needs[ply])
                    else:
                        high = min(high, needs[ply] - 1)
                    _tt_write(
                        tt_keys, tt_data, slot, key_a, key_b,
                        _tt_pack(low, high, _tt_move(data), _tt_depth(data)),
                    )
            if ply == 0:
                stats[STAT_NODES] += nodes
                return result
            ply -= 1
            mover = (leaders[ply] + n_trick[ply]) % 3
            maximizing = mover == seat
            card = moves[ply, move_index[ply]]
            if (result == TRUE) == maximizing:
                # cutoff: this card decides the node
                stats[
                    STAT_CUTOFFS + 6 * maximizing + 2 * n_trick[ply] + (move_index[ply] > 0)
                ] += 1
                history[((mover - seat) % 3) * 3 + n_trick[ply], card] += 1 + popcount(hands[ply, mover])
                slot = tt_slot[ply]
                if slot >= 0:
                    data = tt_data[slot]
                    key_a = tt_key[ply, 0]
                    key_b = tt_key[ply, 1]
                    if _tt_matches(tt_keys, slot, data, key_a, key_b):
                        live = hands[ply, 0] | hands[ply, 1] | hands[ply, 2]
                        move = _relative_card(card, live)
                        _tt_write(
                            tt_keys, tt_data, slot, key_a, key_b,
                            _tt_pack(_tt_low(data), _tt_high(data), move, _tt_depth(data)),
                        )
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
