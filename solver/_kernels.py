"""Compiled kernels: cards and tricks, the transposition tables, the searches, greedy playouts.

Everything here assumes valid input (the public wrappers in ``solve.py``,
``paranoid.py``, ``maxn.py``, ``evaluator.py``, ``match_values.py`` and
``playouts.py`` validate first) and does no bounds checks.
Kernels that call one another live in this one module because Numba's cache
does not see changes to functions in other files. All of it also runs as
plain Python under ``NUMBA_DISABLE_JIT=1`` (the primitives have Python
twins), where CI runs the kernel tests with Python's own checks.

The sections build on one another:

- primitives: bit counts, and ``borrowed`` arrays that count no references;
- cards and tricks: the trick's winner, runs of equivalent cards;
- the root position and the play step every search shares (``play_card``);
- the movers' preferences, one rule for each kind of value;
- the transposition tables: positions keyed up to rank renumbering
  (``relative_key``); 16-byte slots in buckets of one cache line for the
  exact searches, and the boundary table of the depth-limited ones;
- the paranoid search (``paranoid_search``), a loop over small inlined steps;
- the max^n search (``maxn_search``);
- leaf values: the value network, and the chances its points give in a match;
- the depth-limited searches (``estimate_search``, ``match_search``): one
  loop for points and for chances;
- playouts (``play_until``), the rollouts of ``analysis.hint``, each seat by a
  policy of its own, and greedy's order (``greedy_places``) for ``analysis.opponents``.

The searches keep explicit per-ply arrays (``path``) instead of recursing, as
DDS does: the kernels stay cache-safe, and a caller can stop a search after a
node or time budget and resume it exactly. A new search goes in a section of
its own after the ones it builds on and before the playouts, keeps its
per-ply arrays in a ``path`` of the caller's (the common rows, then its own),
names its stats slots, checks its ``stop`` flag every ``STOP_CHECK_NODES``
nodes, and borrows its array arguments (``borrowed``) before handing them to
inlined helpers.
"""

from __future__ import annotations

from collections import namedtuple

import numba
import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic, overload

from .cards import COINS_MASK, RANKS_PER_SUIT

JIT_OPTIONS = dict(cache=True, nogil=True)  # nogil: searches run in threads
njit = numba.njit(**JIT_OPTIONS)
# Numba-level inlining, for the steps the searches take at every node: the
# loop then reads as a list of named steps at no cost in speed (LLVM alone
# left such helpers as calls).
njit_inline = numba.njit(inline="always", **JIT_OPTIONS)

_SUIT_MASKS = np.array([0xFFF << (12 * s) for s in range(4)], dtype=np.int64)

MAX_PLY = 66  # 48 cards, a CHOOSER node a trick, the root and one spare
MAX_MOVES = 32  # a hand's 16 cards, and the pair's choices (RELAXED)

# search outcome codes
FALSE, TRUE, ABORTED = 0, 1, -1
DEFERRED = 2  # a child another thread is searching: come back to it later
# Every search reads its ``stop`` flag once in this many nodes (a power of two): often
# enough that a deadline holds even while nodes are slow (a fresh table's pages touched
# for the first time can take a millisecond each on a busy machine).
STOP_CHECK_NODES = 16
_STOP_MASK = STOP_CHECK_NODES - 1


# ----- primitives: plain Python functions with a compiled form of their own ----

# Bit counts. Compiled, they are LLVM's ``cttz`` and ``ctpop`` (one
# instruction each where the CPU has them); as plain Python, Python's own.


def bit_index(bit):
    """Index of the one set bit of ``bit``."""
    return int(bit).bit_length() - 1


def popcount(mask):
    """Number of cards in a 48-bit ``mask``."""
    return int(mask).bit_count()


@intrinsic
def _count_trailing_zeros(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))  # 0: defined for 0 too

    return types.int64(types.int64), codegen


@intrinsic
def _count_ones(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


@overload(bit_index, jit_options=JIT_OPTIONS)
def _bit_index_compiled(bit):
    return lambda bit: _count_trailing_zeros(bit)


@overload(popcount, jit_options=JIT_OPTIONS)
def _popcount_compiled(mask):
    return lambda mask: _count_ones(mask)


def borrowed(array):
    """``array`` for the helpers of a kernel that holds it: compiled, a view
    that counts no references.

    Numba counts a reference to an array each time a helper takes it, with
    atomic operations, which in the inlined helpers of a search loop cost
    more than the search itself (docs/experiments.md). A kernel's array arguments belong to its caller for the
    whole call, so the kernel borrows each one on entry and passes the
    borrowed views on: only to helpers it calls, never kept or returned.
    As plain Python it is the array itself."""
    return array


@intrinsic
def _without_reference_count(typingctx, array):
    def codegen(context, builder, signature, args):
        source = context.make_array(signature.args[0])(context, builder, args[0])
        view = context.make_array(signature.return_type)(context, builder)
        for name in ("nitems", "itemsize", "data", "shape", "strides"):
            setattr(view, name, getattr(source, name))
        view.meminfo = cgutils.get_null_value(view.meminfo.type)  # nothing to count
        view.parent = cgutils.get_null_value(view.parent.type)
        return view._getvalue()

    return array(array), codegen


@overload(borrowed, jit_options=JIT_OPTIONS)
def _borrowed_compiled(array):
    if isinstance(array, types.Array):
        return lambda array: _without_reference_count(array)


# ----- cards and tricks -------------------------------------------------------


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
def _insert_move(moves, scores, ply, i, card, score):
    """Insert ``card`` by ``score`` into ``moves[ply, :i]``, kept best first
    with its ``scores`` (an insertion sort step: n <= 16; equal scores keep
    their order). Small enough for LLVM to inline, so passing the arrays
    counts no references."""
    j = i - 1
    while j >= 0 and scores[j] < score:
        scores[j + 1] = scores[j]
        moves[ply, j + 1] = moves[ply, j]
        j -= 1
    scores[j + 1] = score
    moves[ply, j + 1] = card


# ----- the root position, the path and the play step ---------------------------

# a search's root position, one int64 array (``root_array``): the three hands,
# the leader, how many cards the trick holds and those cards (-1: none)
ROOT_HANDS, ROOT_LEADER, ROOT_N_TRICK, ROOT_TRICK, ROOT_SIZE = 0, 3, 4, 5, 7


def root_array(hands, leader, trick):
    """The ``root`` argument of the searches for a position."""
    root = np.full(ROOT_SIZE, -1, dtype=np.int64)
    root[ROOT_HANDS : ROOT_HANDS + 3] = hands
    root[ROOT_LEADER] = leader
    root[ROOT_N_TRICK] = len(trick)
    root[ROOT_TRICK : ROOT_TRICK + len(trick)] = trick
    return root


@njit
def _set_root(hands, leaders, n_trick, trick_cards, root):
    """Put the ``root`` position (``root_array``) in ply 0 of a search's per-ply arrays."""
    for s in range(3):
        hands[0, s] = root[ROOT_HANDS + s]
    leaders[0] = root[ROOT_LEADER]
    n_trick[0] = root[ROOT_N_TRICK]
    trick_cards[0, 0] = root[ROOT_TRICK]
    trick_cards[0, 1] = root[ROOT_TRICK + 1]


# The rows every search's ``path`` (its per-ply arrays, ``[row, ply]``) starts
# with: each node on the way down from the root keeps its hands, trick, table
# key, moves (``MAX_MOVES`` rows), leader, cards in the trick, how many moves it
# has and which it is searching, its table slot (-1: none) and the node count
# when it was entered; one row more holds the scores of the moves being
# ordered. A search adds its own rows from ``PATH_COMMON_ROWS`` on.
PATH_HANDS, PATH_TRICK, PATH_TT_KEY, PATH_MOVES = 0, 3, 5, 7
(
    PATH_LEADER,
    PATH_N_TRICK,
    PATH_N_MOVES,
    PATH_MOVE_INDEX,
    PATH_TT_SLOT,
    PATH_ENTRY_NODES,
    PATH_SCORES,
    PATH_COMMON_ROWS,
) = range(PATH_MOVES + MAX_MOVES, PATH_MOVES + MAX_MOVES + 8)


@njit_inline
def path_views(path):
    """The common rows of ``path`` as per-ply arrays: hands, trick cards,
    table keys and moves (indexed ``[ply, i]``), leaders, cards in the trick,
    move counts, move indices, table slots, node counts on entry, and the
    move scores."""
    return (
        path[PATH_HANDS : PATH_HANDS + 3].T,
        path[PATH_TRICK : PATH_TRICK + 2].T,
        path[PATH_TT_KEY : PATH_TT_KEY + 2].T,
        path[PATH_MOVES : PATH_MOVES + MAX_MOVES].T,
        path[PATH_LEADER],
        path[PATH_N_TRICK],
        path[PATH_N_MOVES],
        path[PATH_MOVE_INDEX],
        path[PATH_TT_SLOT],
        path[PATH_ENTRY_NODES],
        path[PATH_SCORES],
    )


@njit_inline
def live_cards(hands, trick_cards, ply, nt):
    """The cards still in play at ``ply``: the hands and the ``nt`` cards of the trick."""
    on_table = 0
    for i in range(nt):
        on_table |= 1 << trick_cards[ply, i]
    return hands[ply, 0] | hands[ply, 1] | hands[ply, 2] | on_table


@njit_inline
def last_trick(hands, leaders, ply):
    """The cards of the last trick, one card each left at ``ply``, in play order."""
    lead = leaders[ply]
    return (
        bit_index(hands[ply, lead]),
        bit_index(hands[ply, (lead + 1) % 3]),
        bit_index(hands[ply, (lead + 2) % 3]),
    )


@njit_inline
def play_card(hands, leaders, n_trick, trick_cards, ply, card):
    """Play ``card``, the mover's at ``ply``, into ``ply + 1``: the hands less
    the card, and the trick one card longer or, after its third card, taken
    by its winner, who leads the next. Returns that winner, or -1 within a
    trick. Every search plays its cards through this one step."""
    lead = leaders[ply]
    nt = n_trick[ply]
    child = ply + 1
    for s in range(3):
        hands[child, s] = hands[ply, s]
    hands[child, (lead + nt) % 3] ^= 1 << card
    if nt < 2:
        leaders[child] = lead
        n_trick[child] = nt + 1
        trick_cards[child, 0] = trick_cards[ply, 0]
        trick_cards[child, 1] = trick_cards[ply, 1]
        trick_cards[child, nt] = card
        return -1
    winner = (lead + trick_winner(trick_cards[ply, 0], trick_cards[ply, 1], card)) % 3
    leaders[child] = winner
    n_trick[child] = 0
    return winner


# ----- the movers' preferences -----------------------------------------------------
#
# RULES.md's mover takes the card that gives it the most (points, or chance of
# winning the match), then the one that leaves its larger opponent the least,
# then the first in index order. One rule for each kind of value a search
# compares: exact points, estimated points (real numbers, equal when closer
# than rounding), chances (compared on a grid of ``CHANCE_DECIMALS`` decimals).

ESTIMATE_TIE = 1e-9  # estimated points closer than this count as equal
CHANCE_DECIMALS = 9
_CHANCE_SCALE = 10.0**CHANCE_DECIMALS


@njit
def _own_and_rival(mover, v0, v1, v2):
    """The mover's value in (v0, v1, v2) and its larger opponent's."""
    if mover == 0:
        return v0, max(v1, v2)
    if mover == 1:
        return v1, max(v0, v2)
    return v2, max(v0, v1)


@njit
def _prefers_beyond(tie, mover, a0, a1, a2, card_a, b0, b1, b2, card_b):
    """Does ``mover`` take (a0, a1, a2) by ``card_a`` over (b0, b1, b2) by
    ``card_b``, values no more than ``tie`` apart counting as equal?"""
    own_a, rival_a = _own_and_rival(mover, a0, a1, a2)
    own_b, rival_b = _own_and_rival(mover, b0, b1, b2)
    if abs(own_a - own_b) > tie:
        return own_a > own_b
    if abs(rival_a - rival_b) > tie:
        return rival_a < rival_b
    return card_a < card_b


@njit
def prefers_points(mover, a0, a1, a2, card_a, b0, b1, b2, card_b):
    """The mover's preference between exact points."""
    return _prefers_beyond(0, mover, a0, a1, a2, card_a, b0, b1, b2, card_b)


@njit
def prefers_estimated_points(mover, a0, a1, a2, card_a, b0, b1, b2, card_b):
    """The mover's preference between estimated points, equal within ``ESTIMATE_TIE``."""
    return _prefers_beyond(ESTIMATE_TIE, mover, a0, a1, a2, card_a, b0, b1, b2, card_b)


@njit
def prefers_chances(mover, a0, a1, a2, card_a, b0, b1, b2, card_b):
    """The mover's preference between chances of winning the match, rounded to
    ``CHANCE_DECIMALS`` decimals."""
    a0, a1, a2 = (
        np.rint(a0 * _CHANCE_SCALE),
        np.rint(a1 * _CHANCE_SCALE),
        np.rint(a2 * _CHANCE_SCALE),
    )
    b0, b1, b2 = (
        np.rint(b0 * _CHANCE_SCALE),
        np.rint(b1 * _CHANCE_SCALE),
        np.rint(b2 * _CHANCE_SCALE),
    )
    return _prefers_beyond(0, mover, a0, a1, a2, card_a, b0, b1, b2, card_b)


# ----- the transposition table ---------------------------------------------------
#
# Entries sit at trick boundaries. The key is relative: each suit's live cards
# are renumbered 0, 1, 2 ... from the lowest (``relative_key``), because only
# the order of live cards within a suit (and which suit is Coins) decides
# tricks, so positions that differ only in which low cards are gone share one
# entry. Values count points from the node on, so ``taken`` is no part of it.
# A slot is two int64 words (``_tt_write``); a key's bucket is
# ``PARANOID_BUCKET`` or ``MAXN_BUCKET`` slots from a multiple of that, one
# 64-byte cache line.

PARANOID_BUCKET = 4
MAXN_BUCKET = 4

# A suit's cards held by one seat, renumbered by rank among the live cards of
# the suit and read as base-3 digits (the digit of live card i is 3**i), go
# six cards at a time through a table (a software "parallel bit extract");
# int16 keeps the table at 8 KiB, a quarter of the core's L1 cache.
_TERNARY_EXTRACT6 = np.zeros((64, 64), dtype=np.int16)
for _live in range(64):
    for _held in range(64):
        _out, _k = 0, 0
        for _b in range(6):
            if _live >> _b & 1:
                if _held >> _b & 1:
                    _out += 3**_k
                _k += 1
        _TERNARY_EXTRACT6[_live, _held] = _out
del _live, _held, _out, _k, _b
_POWERS_OF_3 = np.array([3**n for n in range(7)], dtype=np.int64)
# how many base-3 numbers have fewer than n digits
_SHORTER_CODES = np.array([(3**n - 1) // 2 for n in range(13)], dtype=np.int64)


@njit
def _ternary_ranks(held, live):
    """The 12-bit ``held`` set's cards as base-3 digits by rank among the 12-bit ``live`` set."""
    low = _TERNARY_EXTRACT6[live & 63, held & 63]
    return low + _TERNARY_EXTRACT6[live >> 6, (held >> 6) & 63] * _POWERS_OF_3[popcount(live & 63)]


@njit
def _suit_code(h0, h1, live, suit):
    """Which seat holds each live card of ``suit``, as a base-3 number of as
    many digits as live cards (0: seat 2, 1: seat 0, 2: seat 1), offset by
    the count of shorter numbers: under 2**20."""
    suit_live = (live >> (12 * suit)) & 0xFFF
    held0 = _ternary_ranks((h0 >> (12 * suit)) & 0xFFF, suit_live)
    held1 = _ternary_ranks((h1 >> (12 * suit)) & 0xFFF, suit_live)
    return _SHORTER_CODES[popcount(suit_live)] + held0 + 2 * held1


@njit
def relative_key(h0, h1, live, leader, seat):
    """Two words that name a trick-boundary position up to rank renumbering:
    the ``_suit_code`` of suits C, O, S in the first (20 bits each), that of
    B, the leader and the searching seat in the second (24 bits)."""
    word_a = _suit_code(h0, h1, live, 0)
    word_a |= _suit_code(h0, h1, live, 1) << 20
    word_a |= _suit_code(h0, h1, live, 2) << 40
    return word_a, _suit_code(h0, h1, live, 3) | (leader << 20) | (seat << 22)


@njit
def _key_index(key_a, key_b, table_mask):
    """Bucket start for a key: products of 28-bit pieces (no int64 overflow)."""
    h = (key_a & 0xFFFFFFF) * 0x9E3779B1
    h ^= ((key_a >> 28) & 0xFFFFFFF) * 0x85EBCA77
    h ^= (key_b | (key_a >> 56) << 24) * 0xC2B2AE3D
    h ^= h >> 31
    return h & table_mask


@njit
def _tt_worth(data):
    return (data >> 24) & 0xFF


@njit
def _work(nodes):
    """What a finished paranoid entry keeps as its worth: the bit
    length of the nodes its search took (at least 1: 0 marks an empty slot)."""
    bits = 1
    while nodes > 1:
        nodes >>= 1
        bits += 1
    return bits


@njit
def _tt_matches(tt, slot, word, key_a, key_b):
    """Does ``word``, read from ``tt[slot, 1]``, hold the entry of this key?"""
    return word >> 32 == key_b and tt[slot, 0] ^ word == key_a


@njit
def _tt_find(tt, key_a, key_b, index, bucket):
    for slot in range(index, index + bucket):
        if _tt_matches(tt, slot, tt[slot, 1], key_a, key_b):
            return slot
    return -1


@njit
def _tt_write(tt, slot, key_a, key_b, data):
    """Slot words: ``key_b`` and the 32-bit ``data`` in one, ``key_a`` XOR
    that word in the other (so a slot torn by two threads writing at once
    matches no key)."""
    word = (key_b << 32) | data
    tt[slot, 1] = word
    tt[slot, 0] = key_a ^ word


@njit
def _tt_take(tt, index, bucket, key_a, key_b, data):
    """Write a new entry into the bucket at ``index``: into an empty slot, else
    over the entry cheapest to find again (the least worth: cards left while
    it is searched, then the work its search took, ``_work``). Returns its slot."""
    slot = index
    for candidate in range(index + 1, index + bucket):
        if _tt_worth(tt[candidate, 1]) < _tt_worth(tt[slot, 1]):
            slot = candidate
    _tt_write(tt, slot, key_a, key_b, data)
    return slot


@njit
def move_entries(old, new, bucket, first, stop):
    """Write the entries of slots ``first`` to ``stop`` (whole buckets) of the
    table ``old`` to the larger ``new``, each in the bucket of ``bucket``
    slots its key picks there. The buckets of ``new`` that a bucket of
    ``old`` maps to take no other entries, so none is lost, and threads
    moving different slots write different buckets (but for an entry torn by
    two threads, whose key names no position: it may be lost)."""
    mask = new.shape[0] - bucket
    for slot in range(first, stop):
        word = old[slot, 1]
        if _tt_worth(word) == 0:
            continue
        index = _key_index(old[slot, 0] ^ word, word >> 32, mask)
        for target in range(index, index + bucket):
            if _tt_worth(new[target, 1]) == 0:
                new[target, 0] = old[slot, 0]  # the slot's words as they are
                new[target, 1] = word
                break


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


# -- the boundary table of the depth-limited searches, kept across searches --
#
# ``estimate_search`` and ``match_search`` keep the value of every trick
# boundary they value or finish in a table of the caller's: ``keys`` (slots x
# ``BOUNDARY_KEY_WORDS``: the key's two words, the caller's ``word`` for what
# the values were made with (the network and the softness, or the table of
# chances and the network), so entries stay valid from one search to the next,
# and the cards a hand, which decides what a full bucket gives up) and
# ``values`` (slots x 3: points from the boundary on, or chances), in buckets
# of ``BOUNDARY_BUCKET`` slots. The key is ``relative_key`` with the tricks left
# to search and the needs (0 for points).

BOUNDARY_KEY_WORDS = 4
BOUNDARY_BUCKET = 4
BoundaryTable = namedtuple("BoundaryTable", "keys values word")
_MIX_A, _MIX_B = 0x1E3779B97F4A7C15, 0x3F58476D1CE4E5B9
_LOW_63 = (1 << 63) - 1


@njit
def boundary_key(h0, h1, h2, leader, depth, n0, n1, n2):
    """The key of a trick boundary of a depth-limited search: ``relative_key``
    (its seat field 0), then the tricks left to search and the needs (6 bits
    each: the caller caps the needs below 64)."""
    key_a, key_b = relative_key(h0, h1, h0 | h1 | h2, leader, 0)
    return key_a, key_b | (depth << 24) | (n0 << 30) | (n1 << 36) | (n2 << 42)


@njit
def _boundary_index(key_a, key_b, mask):
    """The first slot of a key's bucket: the high bits of a multiplicative hash
    (in 63 bits, so plain Python picks the same slots)."""
    x = (int(key_a) * _MIX_A + int(key_b) * _MIX_B) & _LOW_63
    return (x >> (63 - popcount(mask))) & ~(BOUNDARY_BUCKET - 1)


@njit
def _boundary_find(keys, key_a, key_b, word, mask):
    """The slot holding the key's value, or -1."""
    index = _boundary_index(key_a, key_b, mask)
    for slot in range(index, index + BOUNDARY_BUCKET):
        if keys[slot, 2] == word and keys[slot, 0] == key_a and keys[slot, 1] == key_b:
            return slot
    return -1


@njit
def _boundary_slot(keys, key_a, key_b, word, cards, mask):
    """The slot to keep a boundary with ``cards`` a hand in (its key written):
    its own if the bucket has it, else a free or stale one, else that of the
    entry with the fewest cards."""
    index = _boundary_index(key_a, key_b, mask)
    victim = index
    for slot in range(index, index + BOUNDARY_BUCKET):
        if keys[slot, 2] != word or (keys[slot, 0] == key_a and keys[slot, 1] == key_b):
            victim = slot
            break
        if keys[slot, 3] < keys[victim, 3]:
            victim = slot
    keys[victim, 0] = key_a
    keys[victim, 1] = key_b
    keys[victim, 2] = word
    keys[victim, 3] = cards
    return victim


# ----- the paranoid search --------------------------------------------------------
#
# A boolean alpha-beta over cards: can the searching seat p win at least
# ``need`` more points against the other two (the pair)? Table entries hold
# a lower and an upper bound on p's points from the node on. Besides the real
# game it plays two others whose answers bound the real one (``paranoid.py``
# says when): the relaxed game (a lower bound, smaller proofs) and the
# rank-free game (an upper bound, cheaper denials).

# option bits for paranoid_search (tests turn the speed-ups off to check them)
NO_TABLE, NO_EQUIVALENCE = 1, 2
# the relaxed game (a lower bound): the pair chooses which of its seats takes a
# trick that the ranks of its own two cards decide, when no card of the
# searching seat lies between them; pair cards then count only by suit and by
# which of the seat's cards they beat
RELAXED = 4
# a pair card played with a choice: move code = card + CHOICE_UNIT * (1 or 2),
# the seat (searching seat + 1 or + 2) that takes the trick if the choice decides
CHOICE_UNIT = 64
# the rank-free game (an upper bound): a trick that two or more cards of Cups,
# Swords or Clubs decide goes to whichever seat that played them the searching
# seat chooses, so ranks matter only in Coins; the choice is a node of its own
# after the trick
RANK_FREE = 8
CHOOSER = 3  # ``n_trick`` of that node: the trick is down, its taker not chosen
# probes: at the pair's nodes of the real game where the seat holds at least
# ``knobs[KNOB_PROBE_MIN_CARDS]`` cards, each card after the first is
# searched in the relaxed game first. A proof there (the seat sure of the
# points after that card) is a real one and spares the card's real search: a
# wrong card of the pair costs a proof, and relaxed proofs are several times
# smaller. Without one the card is searched in the real game (``PROBED``).
# The first card, right most of the time, is not probed.
PROBES = 16
PROBE_NONE, PROBING, PROBED = 0, 1, 2

OPEN = 3  # a node its entry checks left undecided: its moves are searched

# the fields of ``solver.policy.SearchPolicy`` the paranoid search reads
# (``knobs``, one int64 array: ``paranoid_knobs``)
KNOB_BUSY_MIN_CARDS, KNOB_PROBE_MIN_CARDS, KNOBS = 0, 1, 2


def paranoid_knobs(busy_min_cards, probe_min_cards):
    """The ``knobs`` argument of ``paranoid_search``: threads mark only nodes
    with ``busy_min_cards`` cards in the hands, and probes happen only where
    the searching seat holds ``probe_min_cards``."""
    knobs = np.zeros(KNOBS, dtype=np.int64)
    knobs[KNOB_BUSY_MIN_CARDS] = busy_min_cards
    knobs[KNOB_PROBE_MIN_CARDS] = probe_min_cards
    return knobs


# the paranoid search's own rows of its ``path`` (``new_path``), after the
# common ones: all that a paused search needs to go on exactly where it stopped
(
    PATH_NEED,
    PATH_EXCLUSIVE,
    PATH_DEFERRED,
    PATH_SECOND_PASS,
    PATH_BUSY_SLOT,
    PATH_BUSY_MARK,
    PATH_CHOICE,
    PATH_PAUSED,
    PATH_GAME,
    PATH_PROBE,
    PATH_PROBE_NODES,
    PATH_ROWS,
) = range(PATH_COMMON_ROWS, PATH_COMMON_ROWS + 12)
# PATH_GAME: the game each node is searched in: 0 (the real one), RELAXED or RANK_FREE;
# PATH_PROBE: a pair node's current card, PROBING or PROBED (``PROBES``), and
# PATH_PROBE_NODES the node count when its probe began


def new_path():
    """The ``path`` of a paranoid search not yet begun (``path[PATH_PAUSED, 0]``
    holds the ply a paused search goes on from, plus one)."""
    return np.zeros((PATH_ROWS, MAX_PLY), dtype=np.int64)


# stats slots: nodes, table hits and stores, then cutoffs counted by
# [searching seat or pair][cards already in the trick][first card or later],
# then the table's probes, the probes whose bounds decided the node, and the
# nodes deferred because another thread was searching them
STAT_NODES, STAT_TT_HITS, STAT_TT_STORES, STAT_CUTOFFS = 0, 1, 2, 3
STAT_TT_PROBES, STAT_TT_DECIDED = STAT_CUTOFFS + 12, STAT_CUTOFFS + 13
STAT_DEFERRED = STAT_CUTOFFS + 14
# probes that found a proof and their nodes, probes that did not and theirs
STAT_PROBES_PROVED, STAT_PROBES_FAILED = STAT_CUTOFFS + 15, STAT_CUTOFFS + 17
STAT_SIZE = STAT_CUTOFFS + 19


# -- its games: the hands dealt again, the pair's choices, the seat's choice of taker --


@njit
def canonical_pair(seat_hand, q_hand, r_hand):
    """The pair's hands with the cards of each gap between the seat's cards
    (per suit) dealt lowest to ``q_hand``'s share, then to ``r_hand``: one
    position for all that the relaxed game does not tell apart."""
    new_q = 0
    pair = q_hand | r_hand
    rest = pair
    while rest:
        low = rest & -rest
        suit = _SUIT_MASKS[bit_index(low) // 12]
        above = seat_hand & suit & ~((low << 1) - 1)
        gap = rest & ((above & -above) - 1 if above else suit)
        rest ^= gap
        for _ in range(popcount(q_hand & gap)):
            new_q |= gap & -gap
            gap &= gap - 1
    return new_q, pair ^ new_q


@njit
def _add_choices(moves, ply, n, seat, mover, lead, nt, trick_cards, seat_hand):
    """In the relaxed game, the pair's second card of a trick: each card of the
    suit of its partner's card with none of the seat's cards (held or played to
    this trick) between the two goes twice, once for each seat of the pair taking
    the trick if their ranks decide it. Returns the new count of moves."""
    partner = 3 - seat - mover
    at = (partner - lead) % 3
    if at >= nt:
        return n  # the pair's first card of the trick
    partner_card = trick_cards[ply, at]
    seat_cards = seat_hand
    if (seat - lead) % 3 < nt:
        seat_cards |= 1 << trick_cards[ply, (seat - lead) % 3]
    total = n
    for i in range(n):
        card = moves[ply, i]
        if card // 12 != partner_card // 12:
            continue
        low = min(card, partner_card)
        high = max(card, partner_card)
        if seat_cards & ((1 << high) - (2 << low)):
            continue
        moves[ply, i] = card + CHOICE_UNIT
        moves[ply, total] = card + 2 * CHOICE_UNIT
        total += 1
    return total


@njit
def _lowest(mask, n):
    """The ``n`` lowest cards of ``mask``."""
    low = 0
    for _ in range(n):
        low |= mask & -mask
        mask &= mask - 1
    return low


@njit
def rank_free_hands(seat_hand, q_hand, r_hand):
    """The hands with each suit but Coins dealt again by counts, the lowest
    cards to the seat, the next to ``q_hand``'s: one position for all that the
    rank-free game does not tell apart."""
    coins = _SUIT_MASKS[1]
    new_seat, new_q = seat_hand & coins, q_hand & coins
    for suit in (0, 2, 3):
        mask = _SUIT_MASKS[suit]
        rest = (seat_hand | q_hand | r_hand) & mask
        low = _lowest(rest, popcount(seat_hand & mask))
        new_seat |= low
        rest ^= low
        new_q |= _lowest(rest, popcount(q_hand & mask))
    new_r = (seat_hand | q_hand | r_hand) ^ new_seat ^ new_q
    return new_seat, new_q, new_r


@njit
def contest_takers(lead, c0, c1, c2):
    """Seats (a bit mask) that may take the trick c0, c1, c2 led by ``lead``
    in the rank-free game: those that played the suit deciding it, when two
    or more cards of Cups, Swords or Clubs decide it; else its winner."""
    winner = trick_winner(c0, c1, c2)
    suit = (c0, c1, c2)[winner] // 12
    if suit == 1:
        return 1 << ((lead + winner) % 3)
    takers = 0  # in a trick of three suits, only the winner
    for i, card in enumerate((c0, c1, c2)):
        if card // 12 == suit:
            takers |= 1 << ((lead + i) % 3)
    return takers


@njit
def _takers_as_moves(takers, seat, out):
    """A ``CHOOSER`` node's moves, the seats in ``takers``, the searching seat
    first. Returns how many."""
    n = 0
    for step in range(3):
        who = (seat + step) % 3
        if takers >> who & 1:
            out[n] = who
            n += 1
    return n


@njit
def _mover(lead, nt, seat):
    """The seat to move; at a ``CHOOSER`` node the searching seat."""
    return seat if nt == CHOOSER else (lead + nt) % 3


# -- its table entries: bounds on the searching seat's points --


@njit
def _tt_pack(low, high, move, worth):
    """One data word: bounds on the searching seat's points, best card
    (relative; -1 for none) and what replacing the entry would lose (0 marks
    an empty entry): cards left while it is searched, then ``_work``."""
    return low | (high << 8) | ((move + 1) << 16) | (worth << 24)


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
def _own_entry(tt, tt_slot, tt_key, ply):
    """The slot and data word of the entry the node at ``ply`` took, or slot
    -1 if another position has replaced it since (threads and replacement
    both can)."""
    slot = tt_slot[ply]
    if slot >= 0:
        data = tt[slot, 1]
        if _tt_matches(tt, slot, data, tt_key[ply, 0], tt_key[ply, 1]):
            return slot, data
    return -1, 0


@njit_inline
def _canonical_hands(hands, ply, seat, game):
    """At a trick boundary of the relaxed or rank-free game, deal the hands
    again as the one position for all that the game does not tell apart, so
    that they share one entry."""
    q = (seat + 1) % 3
    r = (seat + 2) % 3
    if game & RELAXED:
        hands[ply, q], hands[ply, r] = canonical_pair(
            hands[ply, seat], hands[ply, q], hands[ply, r]
        )
    if game & RANK_FREE:
        hands[ply, seat], hands[ply, q], hands[ply, r] = rank_free_hands(
            hands[ply, seat], hands[ply, q], hands[ply, r]
        )


@njit_inline
def _tt_probe(
    tt, table_mask, stats, tt_slot, tt_key, entry_nodes, ply, key_a, key_b, live, target, nodes
):
    """Look up the boundary node at ``ply`` (key ``key_a``, ``key_b``): TRUE or
    FALSE when its entry's bounds decide ``target``; else OPEN and the card
    the entry holds (-1: none), the node keeping the entry, or a new one."""
    index = _key_index(key_a, key_b, table_mask)
    slot = _tt_find(tt, key_a, key_b, index, PARANOID_BUCKET)
    stats[STAT_TT_PROBES] += 1
    hint = -1
    if slot < 0:
        slot = _tt_take(
            tt, index, PARANOID_BUCKET, key_a, key_b, _tt_pack(0, 12, -1, popcount(live))
        )
    else:
        stats[STAT_TT_HITS] += 1
        data = tt[slot, 1]
        if _tt_low(data) >= target:
            stats[STAT_TT_DECIDED] += 1
            return TRUE, hint
        if _tt_high(data) < target:
            stats[STAT_TT_DECIDED] += 1
            return FALSE, hint
        if _tt_move(data) >= 0:
            hint = _absolute_card(_tt_move(data), live)
    tt_slot[ply] = slot
    entry_nodes[ply] = nodes
    tt_key[ply, 0] = key_a
    tt_key[ply, 1] = key_b
    return OPEN, hint


@njit_inline
def _tt_store_bound(tt, stats, tt_slot, tt_key, entry_nodes, ply, result, target, nodes):
    """The node at ``ply`` is decided (``result`` for ``target`` points): its
    entry, if still its own, learns the bound and the work it took."""
    slot, data = _own_entry(tt, tt_slot, tt_key, ply)
    if slot >= 0:
        stats[STAT_TT_STORES] += 1
        low = _tt_low(data)
        high = _tt_high(data)
        if result == TRUE:
            low = max(low, target)
        else:
            high = min(high, target - 1)
        _tt_write(
            tt,
            slot,
            tt_key[ply, 0],
            tt_key[ply, 1],
            _tt_pack(low, high, _tt_move(data), _work(nodes - entry_nodes[ply])),
        )


@njit_inline
def _tt_store_card(tt, tt_slot, tt_key, hands, ply, card):
    """The node's entry, if still its own, learns the card that decided it."""
    slot, data = _own_entry(tt, tt_slot, tt_key, ply)
    if slot >= 0:
        live = hands[ply, 0] | hands[ply, 1] | hands[ply, 2]
        _tt_write(
            tt,
            slot,
            tt_key[ply, 0],
            tt_key[ply, 1],
            _tt_pack(_tt_low(data), _tt_high(data), _relative_card(card, live), _tt_worth(data)),
        )


# -- its busy marks: nodes a thread is searching, which the others defer --


@njit
def _node_signature(h0, h1, h2, leader, n_trick, card0, card1, need, seat):
    """A 59-bit hash naming a node of one boolean search (products of 24-bit
    pieces by 32-bit odd numbers: no int64 overflow)."""
    h = (h0 & 0xFFFFFF) * 0x9E3779B1 ^ (h0 >> 24) * 0x85EBCA77
    h ^= (h1 & 0xFFFFFF) * 0xC2B2AE3D ^ (h1 >> 24) * 0x27D4EB2F
    h ^= (h2 & 0xFFFFFF) * 0x165667B1 ^ (h2 >> 24) * 0xD3A2646C
    h ^= (leader + 3 * n_trick + 9 * (card0 + 1) + 441 * (card1 + 1)) * 0xFD7046C5
    h ^= (need + 16 * seat) * 0xB55A4F09
    h ^= h >> 29
    return h & 0x7FFFFFFFFFFFFFF


@njit_inline
def _mark_busy(
    busy,
    busy_slot,
    busy_mark,
    exclusive,
    hands,
    trick_cards,
    ply,
    lead,
    nt,
    target,
    game,
    seat,
    thread,
):
    """Mark the node at ``ply`` as searched by ``thread``: OPEN, or DEFERRED
    (and no mark) when the node is one to leave to another thread that has
    marked it (``exclusive``: not the first card of its parent)."""
    signature = _node_signature(
        hands[ply, 0],
        hands[ply, 1],
        hands[ply, 2],
        lead,
        nt,
        trick_cards[ply, 0] if nt > 0 else -1,
        trick_cards[ply, 1] if nt > 1 else -1,
        target + 16 * game,
        seat,
    )
    mark = signature * 16 + thread % 16
    slot = signature & (busy.shape[0] - 1)
    held = busy[slot]
    if exclusive[ply] and held >> 4 == mark >> 4 and held != mark:
        return DEFERRED
    busy[slot] = mark
    busy_slot[ply] = slot
    busy_mark[ply] = mark
    return OPEN


@njit_inline
def _unmark_busy(busy, busy_slot, busy_mark, ply):
    """Take the node's mark away, unless another thread has marked the slot since."""
    if busy_slot[ply] >= 0 and busy[busy_slot[ply]] == busy_mark[ply]:
        busy[busy_slot[ply]] = 0


# -- its steps: a node decided on entering, its moves, the next move, a move played --


@njit_inline
def _decided_on_entering(hands, leaders, ply, seat, target, nt, live, pending, rank_free):
    """TRUE or FALSE when the node needs no search: nothing more is needed,
    more than the Coins left (``pending``: those of a CHOOSER node's trick),
    or one card each is left (the last trick); else OPEN."""
    if target <= 0:
        return TRUE
    if target > popcount(live & COINS_MASK) + pending:
        return FALSE
    h0 = hands[ply, 0]
    if nt == 0 and h0 & (h0 - 1) == 0:  # one card each: the last trick
        lead = leaders[ply]
        c0, c1, c2 = last_trick(hands, leaders, ply)
        if rank_free:
            takers = contest_takers(lead, c0, c1, c2)
        else:
            takers = 1 << ((lead + trick_winner(c0, c1, c2)) % 3)
        won = coin_count(c0) + coin_count(c1) + coin_count(c2) if takers >> seat & 1 else 0
        return TRUE if won >= target else FALSE
    return OPEN


@njit_inline
def move_score(card, mover, seat, n_trick, c0, c1, third_hand, seat_hand):
    """How good ``card`` looks for the mover, before history: the last card of
    a trick by the trick's outcome for seat p (the outcome is then known), the
    second by whether that outcome no longer depends on the third card.

    The optimal line tries cards in this order too (``paranoid.outcome_order``).
    """
    maximizing = mover == seat
    if n_trick == 2:
        points = coin_count(c0) + coin_count(c1) + coin_count(card)
        seat_wins = (mover + 1 + trick_winner(c0, c1, card)) % 3 == seat
        if maximizing:
            return 1 + points if seat_wins else -coin_count(card)
        if seat_wins:
            # a trick without Coins costs the pair nothing and leaves p to lead,
            # the weak place: the pair then answers p's card
            return -1 - points if points else 1
        return coin_count(card)
    if n_trick == 1:
        third = (mover + 1) % 3
        winners = possible_winners(c0, card, third_hand)
        seat_bit = 1 << ((seat - mover + 1) % 3)  # seat p as leader (1), mover (2), third (4)
        if third == seat:
            seat_can_win = winners & seat_bit != 0
            seat_must_win = winners == seat_bit
        else:  # the third player is the pair's: it decides
            seat_can_win = winners == seat_bit
            seat_must_win = seat_can_win
        points = coin_count(c0) + coin_count(card)
        if maximizing:
            return 1 + points if seat_must_win else (0 if seat_can_win else -coin_count(card))
        return -1 - points if seat_can_win else coin_count(card)
    if maximizing:
        return -coin_count(card)  # a Coin led is a Coin the pair can take
    seat_above = seat_hand & _SUIT_MASKS[card // 12] & ~((2 << card) - 1)
    return 1 if coin_count(card) and seat_above == 0 else 0  # a Coin p cannot overtake


@njit_inline
def _paranoid_moves(
    moves,
    scores,
    hands,
    trick_cards,
    choice,
    history,
    ply,
    seat,
    mover,
    lead,
    nt,
    live,
    hint,
    game,
    options,
):
    """Write the node's moves to ``moves[ply]``, best first, and return how
    many: one card of each run of equivalents (with the pair's choices in the
    relaxed game), or at a CHOOSER node the seats that may take the trick.

    Best first: by ``move_score``, then the history of cutoffs, the table's
    card (``hint``) first, and among equals cheaper cards first (every thread
    alike)."""
    if game & RANK_FREE and nt == CHOOSER:
        return _takers_as_moves(choice[ply] & 7, seat, moves[ply])
    hand = hands[ply, mover]
    n = move_representatives(hand, 0 if options & NO_EQUIVALENCE else live, moves[ply])
    if game & RELAXED and mover != seat:
        n = _add_choices(moves, ply, n, seat, mover, lead, nt, trick_cards, hands[ply, seat])
    if hint >= 0 and hand >> hint & 1 == 0:
        hint = -1
    side = ((mover - seat) % 3) * 3 + nt
    third_hand = hands[ply, (mover + 1) % 3]
    for i in range(n):
        code = moves[ply, i]
        card = code % CHOICE_UNIT
        score = (
            move_score(
                card,
                mover,
                seat,
                nt,
                trick_cards[ply, 0],
                trick_cards[ply, 1],
                third_hand,
                hands[ply, seat],
            )
            << 40
        )
        score += history[side, card]
        if card == hint:
            score += 1 << 50
        _insert_move(moves, scores, ply, i, code, score - card % 12)
    return n


@njit_inline
def _probe_failed(stats, probe, probe_nodes, ply, result, nodes):
    """The relaxed search of the probed card at ``ply`` ended with ``result``:
    count it; True when it found no proof, and the card is to be searched in
    the real game."""
    failed = result != TRUE
    counted = STAT_PROBES_FAILED if failed else STAT_PROBES_PROVED
    stats[counted] += 1
    stats[counted + 1] += nodes - probe_nodes[ply]
    probe[ply] = PROBED if failed else PROBE_NONE
    return failed


@njit_inline
def _learn_cutoff(
    stats,
    history,
    tt,
    tt_slot,
    tt_key,
    hands,
    moves,
    move_index,
    n_trick,
    ply,
    seat,
    mover,
    learn_order,
):
    """The move at ``ply`` decided its node: count the cutoff, and the node's
    entry learns the card; so does the history, if ``learn_order``."""
    card = moves[ply, move_index[ply]] % CHOICE_UNIT
    maximizing = mover == seat
    stats[STAT_CUTOFFS + 6 * maximizing + 2 * n_trick[ply] + (move_index[ply] > 0)] += 1
    if learn_order:
        history[((mover - seat) % 3) * 3 + n_trick[ply], card] += 1 + popcount(hands[ply, mover])
    _tt_store_card(tt, tt_slot, tt_key, hands, ply, card)


@njit_inline
def _next_move(move_index, n_moves, deferred, second_pass, ply):
    """Go on to the node's next move: the next in order, then those deferred,
    lowest first. False when none is left."""
    if not second_pass[ply]:
        move_index[ply] += 1
        if move_index[ply] >= n_moves[ply]:
            second_pass[ply] = 1
    if second_pass[ply]:
        if deferred[ply] == 0:
            return False
        move_index[ply] = bit_index(deferred[ply] & -deferred[ply])
        deferred[ply] &= deferred[ply] - 1
    return True


@njit_inline
def _probe_due(probe, move_index, second_pass, hands, ply, seat, mover, game, probe_min_cards):
    """Is the move at ``ply`` to be probed in the relaxed game first (``PROBES``)?"""
    return (
        game == 0
        and probe[ply] == PROBE_NONE
        and move_index[ply] > 0
        and not second_pass[ply]
        and mover != seat
        and popcount(hands[ply, seat]) >= probe_min_cards
    )


@njit_inline
def _play_move(hands, leaders, n_trick, trick_cards, needs, choice, ply, move, seat, rank_free):
    """Play ``move`` into ``ply + 1``: a card (carrying the pair's choice, in
    the relaxed game) through ``play_card``, and the points the trick gives
    the searching seat off its need; in the rank-free game a trick its taker
    is chosen for goes to a CHOOSER node, whose move is the seat that takes it."""
    child = ply + 1
    needs[child] = needs[ply]
    if rank_free and n_trick[ply] == CHOOSER:  # the chosen seat takes the trick
        for s in range(3):
            hands[child, s] = hands[ply, s]
        leaders[child] = move
        n_trick[child] = 0
        choice[child] = 0
        if move == seat:
            needs[child] -= choice[ply] >> 3
        return
    lead = leaders[ply]
    card = move % CHOICE_UNIT
    chosen = move // CHOICE_UNIT
    if chosen == 0:
        chosen = choice[ply]
    winner = play_card(hands, leaders, n_trick, trick_cards, ply, card)
    if winner < 0:
        choice[child] = chosen
        return
    c0 = trick_cards[ply, 0]
    c1 = trick_cards[ply, 1]
    points = coin_count(c0) + coin_count(c1) + coin_count(card)
    takers = contest_takers(lead, c0, c1, card) if rank_free else 0
    if takers & (takers - 1):  # a choice of taker: its node comes first
        leaders[child] = lead
        n_trick[child] = CHOOSER
        choice[child] = takers | points << 3
        return
    if chosen and winner != seat:
        winner = (seat + chosen) % 3  # the pair's ranks decided it: its choice
    leaders[child] = winner
    choice[child] = 0
    if winner == seat:
        needs[child] -= points


@njit
def paranoid_search(
    root, seat, need, options, knobs, tt, history, stats, busy, thread, path, stop, max_nodes
):
    """Can ``seat`` win at least ``need`` more points from ``root``
    (``root_array``) against the other two?

    Returns TRUE, FALSE or ABORTED (the node budget ``max_nodes`` ran out, 0
    meaning no limit, or another thread set ``stop[0]``: a search thread that
    answered first, or the caller's timer). ``stats`` gains the nodes
    searched and the table's counts. An aborted search leaves in ``path``
    (``new_path``) the way down to where it stopped, and called again with
    that ``path`` goes on from there, in the same table or one its entries
    were moved to: it searches the same tree as if never stopped. Bounds in
    the table ``tt`` stay valid across calls, root positions and threads:
    each entry's key words are stored XORed with its data word, so an entry
    torn by two threads writing at once reads as a miss. ``history`` counts
    the cards that made cutoffs, by side and place in the trick, to order
    the moves.

    Threads sharing the table also share ``busy`` (more than one slot turns
    this on), where each marks the nodes it is searching that hold at least
    ``knobs[KNOB_BUSY_MIN_CARDS]`` cards, as in ABDADA: a node's later cards
    go first to children no other thread is busy with, and the children
    deferred so are searched once the rest are done, when the other thread's
    result is usually in the table.

    With ``RELAXED`` in ``options`` it plays the relaxed game instead, where
    the seat can do no better than in the real one: the pair's hands are
    dealt again at each trick's start that probes the table
    (``canonical_pair``), its second card of a trick may carry a choice
    (``_add_choices``), and its entries are keyed apart. With ``RANK_FREE``
    it plays the rank-free game, where the seat can do no worse than in the
    real one: a trick that two or more cards of Cups, Swords or Clubs decide
    ends in a ``CHOOSER`` node, where the seat picks its taker among the seats
    that played them; the hands are dealt again by counts in those suits at
    each trick's start (``rank_free_hands``), and its entries are keyed apart.
    With ``PROBES`` the real game probes the pair's cards in the relaxed one.
    """
    tt = borrowed(tt)
    history = borrowed(history)
    stats = borrowed(stats)
    busy = borrowed(busy)
    path = borrowed(path)
    stop = borrowed(stop)
    (
        hands,
        trick_cards,
        tt_key,
        moves,
        leaders,
        n_trick,
        n_moves,
        move_index,
        tt_slot,
        entry_nodes,
        scores,
    ) = path_views(path)
    needs = path[PATH_NEED]
    exclusive = path[PATH_EXCLUSIVE]  # defer this node if another thread has it
    deferred = path[PATH_DEFERRED]  # bit i: move i was deferred
    second_pass = path[PATH_SECOND_PASS]
    busy_slot = path[PATH_BUSY_SLOT]  # -1: this node marked no busy slot
    busy_mark = path[PATH_BUSY_MARK]
    # the pair's choice made in this trick (0: none); at a CHOOSER node (only
    # in the rank-free game, which every check of one tests first, to spare
    # the real game), its takers (bits 0-2) and the trick's Coins (from bit 3)
    choice = path[PATH_CHOICE]
    game = path[PATH_GAME]
    probe = path[PATH_PROBE]
    probe_nodes = path[PATH_PROBE_NODES]
    root_game = options & (RELAXED | RANK_FREE)
    busy_min_cards = knobs[KNOB_BUSY_MIN_CARDS]
    probe_min_cards = knobs[KNOB_PROBE_MIN_CARDS]
    busy_mask = busy.shape[0] - 1  # 0: one thread, nothing to share
    table_mask = tt.shape[0] - PARANOID_BUCKET

    # the thread's node count goes on across calls, so that entries begun
    # before a pause count the work done on them before it
    first_node = stats[STAT_NODES]
    nodes = first_node
    ply = path[PATH_PAUSED, 0] - 1
    if ply < 0:
        ply = 0
        _set_root(hands, leaders, n_trick, trick_cards, root)
        needs[0] = need
        exclusive[0] = 0
        choice[0] = 0
        game[0] = root_game
    else:  # find again the entries of the nodes above: the table may be new
        for p in range(ply):
            if tt_slot[p] >= 0:
                index = _key_index(tt_key[p, 0], tt_key[p, 1], table_mask)
                tt_slot[p] = _tt_find(tt, tt_key[p, 0], tt_key[p, 1], index, PARANOID_BUCKET)
    result = FALSE
    entering = True
    while True:
        if entering:
            nodes += 1
            if (max_nodes > 0 and nodes - first_node > max_nodes) or (
                (nodes & _STOP_MASK) == 0 and stop[0] != 0
            ):
                stats[STAT_NODES] = nodes - 1  # the node is entered again on going on
                path[PATH_PAUSED, 0] = ply + 1
                return ABORTED
            tt_slot[ply] = -1
            busy_slot[ply] = -1
            rank_free = game[ply] & RANK_FREE
            nt = n_trick[ply]
            target = needs[ply]
            choosing = rank_free != 0 and nt == CHOOSER
            if choosing:  # the trick is out of the hands, its Coins pending
                live = hands[ply, 0] | hands[ply, 1] | hands[ply, 2]
                pending = choice[ply] >> 3
            else:
                live = live_cards(hands, trick_cards, ply, nt)
                pending = 0
            lead = leaders[ply]
            hint = -1
            result = _decided_on_entering(
                hands, leaders, ply, seat, target, nt, live, pending, rank_free
            )
            if result == OPEN and nt == 0 and not options & NO_TABLE:
                _canonical_hands(hands, ply, seat, game[ply])
                key_a, key_b = relative_key(hands[ply, 0], hands[ply, 1], live, lead, seat)
                key_b |= (1 if game[ply] & RELAXED else 2 if rank_free else 0) << 24  # games apart
                result, hint = _tt_probe(
                    tt,
                    table_mask,
                    stats,
                    tt_slot,
                    tt_key,
                    entry_nodes,
                    ply,
                    key_a,
                    key_b,
                    live,
                    target,
                    nodes,
                )
            if (
                result == OPEN
                and busy_mask
                and not choosing
                and popcount(hands[ply, 0] | hands[ply, 1] | hands[ply, 2]) >= busy_min_cards
            ):
                result = _mark_busy(
                    busy,
                    busy_slot,
                    busy_mark,
                    exclusive,
                    hands,
                    trick_cards,
                    ply,
                    lead,
                    nt,
                    target,
                    game[ply],
                    seat,
                    thread,
                )
                if result == DEFERRED:
                    tt_slot[ply] = -1  # decided nothing: store nothing
                    stats[STAT_DEFERRED] += 1
            if result != OPEN:
                entering = False
                continue
            mover = _mover(lead, nt, seat)
            n_moves[ply] = _paranoid_moves(
                moves,
                scores,
                hands,
                trick_cards,
                choice,
                history,
                ply,
                seat,
                mover,
                lead,
                nt,
                live,
                hint,
                game[ply],
                options,
            )
            move_index[ply] = 0
            deferred[ply] = 0
            second_pass[ply] = 0
            probe[ply] = PROBE_NONE
        else:
            # the node at ``ply`` is decided: ``result`` (or deferred)
            _unmark_busy(busy, busy_slot, busy_mark, ply)
            _tt_store_bound(tt, stats, tt_slot, tt_key, entry_nodes, ply, result, needs[ply], nodes)
            if ply == 0:
                stats[STAT_NODES] = nodes
                path[PATH_PAUSED, 0] = 0
                return result
            ply -= 1
            if probe[ply] == PROBING and _probe_failed(
                stats, probe, probe_nodes, ply, result, nodes
            ):
                entering = True  # no proof in the relaxed game: the same card, in the real one
            else:
                mover = _mover(leaders[ply], n_trick[ply], seat)
                maximizing = mover == seat
                if result == DEFERRED:
                    deferred[ply] |= 1 << move_index[ply]
                elif (result == TRUE) == maximizing:  # a cutoff: this move decides the node
                    if not (
                        game[ply] & RANK_FREE and n_trick[ply] == CHOOSER
                    ):  # a seat: nothing to learn
                        # probes leave the order to the game searched
                        _learn_cutoff(
                            stats,
                            history,
                            tt,
                            tt_slot,
                            tt_key,
                            hands,
                            moves,
                            move_index,
                            n_trick,
                            ply,
                            seat,
                            mover,
                            game[ply] == root_game,
                        )
                    continue
                probe[ply] = PROBE_NONE
                if not _next_move(move_index, n_moves, deferred, second_pass, ply):
                    result = FALSE if maximizing else TRUE
                    continue
                entering = True
        # play moves[ply, move_index[ply]] into ply + 1
        child = ply + 1
        game[child] = game[ply]
        if options & PROBES and _probe_due(
            probe,
            move_index,
            second_pass,
            hands,
            ply,
            seat,
            (leaders[ply] + n_trick[ply]) % 3,
            game[ply],
            probe_min_cards,
        ):
            probe[ply] = PROBING
            probe_nodes[ply] = nodes
            game[child] = RELAXED
        exclusive[child] = move_index[ply] > 0 and not second_pass[ply]
        _play_move(
            hands,
            leaders,
            n_trick,
            trick_cards,
            needs,
            choice,
            ply,
            moves[ply, move_index[ply]],
            seat,
            game[ply] & RANK_FREE,
        )
        ply = child
        entering = True


# ----- the max^n (equilibrium) search ----------------------------------------------
#
# The exact value vector of RULES.md: at every node the mover takes the card
# that maximises its own points from that node to the end of the hand, then
# the one that minimises the larger of its opponents' points (from that node
# on), then the first in index order. Speed-ups, each of which a test turns
# off (``options``) to check it:
#
# - Rank equivalence: cards of one suit in one hand with no live card between
#   them give the same result, so only the highest of each run is searched
#   (comparing the highest of two runs orders them as their lowest cards do:
#   runs of one hand never interleave, so the index-order tie-break is kept).
# - The transposition table at trick boundaries; an entry holds the exact
#   vector and the best card.
# - Shallow pruning. The points left ``T`` are fixed, so once the mover ``q``
#   of a node is sure of ``L`` points, its parent's mover ``p`` (another seat)
#   gets at most ``T - L`` there (minus what the trick that led here gives the
#   others). When that is less than what ``p`` already has, or equal but losing
#   ``p``'s tie-break for every vector that reaches it, ``p`` never takes this
#   card and the node is left unfinished. Nothing pruned is returned as exact.
#   Only nodes inside a trick are pruned: a trick boundary is always finished
#   and stored (pruning there too saved fewer nodes than the table lost).
# - A node whose mover already has every point left is finished: its vector
#   ``(T for the mover, 0, 0)`` cannot change (only which card reaches it).
# - The root is always searched in full, so the card it picks follows the
#   tie-break; with ``ALL_CARDS`` every card's result at the root is exact.

# the "searching seat" field of ``relative_key``: 3 marks a max^n entry and
# keeps every stored key non-zero (an empty slot is all zeros)
_MAXN_KEY_SEAT = 3

# outcome code (otherwise the kernel returns how many root cards it searched)
MAXN_ABORTED = -1

# option bits (tests turn the speed-ups off to check them)
MAXN_NO_TABLE, MAXN_NO_EQUIVALENCE, MAXN_NO_PRUNING, MAXN_ALL_CARDS = 1, 2, 4, 8
MAXN_PREFER_HIGH = 16  # a helper thread's order of ties

# table entry kinds (an entry is made when a boundary is entered, filled when finished)
ENTRY_NONE, ENTRY_EXACT = 0, 1

# stats slot counting shallow cuts (slots 0-2 as for the paranoid search)
STAT_PRUNED = 3

# the max^n search's own rows of its ``path`` (``new_maxn_path``), after the
# common ones: each node's best vector so far and the card that reaches it,
# and the Coins left
MAXN_PATH_BEST = PATH_COMMON_ROWS
MAXN_PATH_BEST_CARD, MAXN_PATH_TOTAL, MAXN_PATH_ROWS = range(MAXN_PATH_BEST + 3, MAXN_PATH_BEST + 6)


def new_maxn_path():
    """The per-ply arrays of a max^n search (``maxn_search``'s ``path``),
    made once for any number of searches."""
    return np.zeros((MAXN_PATH_ROWS, MAX_PLY), dtype=np.int64)


@njit
def _parent_rejects(seat, lower, p, b0, b1, b2, best_card, card, leader, n_trick, c0, c1, total):
    """Will the parent never take the card ``card`` that led to a node whose
    mover ``seat`` is sure of ``lower`` points from there on? The parent's
    mover is ``p``, its best vector so far (b0, b1, b2) by ``best_card`` (all
    -1: none yet), ``leader``, ``n_trick``, c0 and c1 its trick, ``total``
    the points left there. Scalars only, like ``move_score``."""
    have = b0 if p == 0 else (b1 if p == 1 else b2)
    if p == seat or have < 0:
        return False
    g0 = 0
    g1 = 0
    g2 = 0
    if n_trick == 2:
        winner = (leader + trick_winner(c0, c1, card)) % 3
        points = coin_count(c0) + coin_count(c1) + coin_count(card)
        if winner == 0:
            g0 = points
        elif winner == 1:
            g1 = points
        else:
            g2 = points
    third = 3 - p - seat
    gains_q = g0 if seat == 0 else (g1 if seat == 1 else g2)
    gains_r = g0 if third == 0 else (g1 if third == 1 else g2)
    q_least = lower + gains_q
    r_least = gains_r
    most = total - q_least - r_least  # the most p can get through this card
    if most < have:
        return True
    if most > have:
        return False
    # p would get exactly ``have`` only with q at q_least and r at r_least
    opp = max(q_least, r_least)
    if p == 0:
        have_opp = max(b1, b2)
    elif p == 1:
        have_opp = max(b0, b2)
    else:
        have_opp = max(b0, b1)
    if opp > have_opp:
        return True
    return opp == have_opp and best_card < card


@njit_inline
def _maxn_move_score(card, n_trick, c0, c1, third_hand):
    """How good ``card`` looks for the mover (max^n): the last card of a
    trick by what the trick gives the mover, the second by whether it wins
    the trick whatever the third player holds (or cannot win it, when a Coin
    would go to another), a lead by keeping Coins back."""
    if n_trick == 1:
        winners = possible_winners(c0, card, third_hand)
        if winners == 2:
            return 1 + coin_count(c0) + coin_count(card)
        return 0 if winners & 2 else -coin_count(card)
    if n_trick == 0:
        return -coin_count(card)
    if trick_winner(c0, c1, card) == 2:
        return 1 + coin_count(c0) + coin_count(c1) + coin_count(card)
    return -coin_count(card)


@njit
def _entry(kind, v0, v1, v2, relative_card, worth):
    """A max^n entry's data word: the vector (4 bits a seat), the kind, the
    card + 1 and its worth (the same place as ``_tt_worth`` reads): cards left
    while it is searched, then ``_work``, as in the paranoid table."""
    return v0 | (v1 << 4) | (v2 << 8) | (kind << 12) | ((relative_card + 1) << 16) | (worth << 24)


@njit_inline
def _maxn_tt_probe(
    tt, table_mask, stats, tt_slot, tt_key, entry_nodes, hands, ply, live, lead, use_exact, nodes
):
    """Look up the boundary node at ``ply``: True and the entry's vector when
    the entry is exact and ``use_exact``; else False and the card the entry
    holds (-1: none), the node keeping the entry, or a new one."""
    key_a, key_b = relative_key(hands[ply, 0], hands[ply, 1], live, lead, _MAXN_KEY_SEAT)
    tt_key[ply, 0] = key_a
    tt_key[ply, 1] = key_b
    index = _key_index(key_a, key_b, table_mask)
    slot = _tt_find(tt, key_a, key_b, index, MAXN_BUCKET)
    hint = -1
    if slot < 0:
        slot = _tt_take(
            tt, index, MAXN_BUCKET, key_a, key_b, _entry(ENTRY_NONE, 0, 0, 0, -1, popcount(live))
        )
    else:
        stats[STAT_TT_HITS] += 1
        data = tt[slot, 1]
        if use_exact and (data >> 12) & 3 == ENTRY_EXACT:
            return True, data & 0xF, (data >> 4) & 0xF, (data >> 8) & 0xF, hint
        if (data >> 16) & 0xFF:
            hint = _absolute_card(((data >> 16) & 0xFF) - 1, live)
    tt_slot[ply] = slot
    entry_nodes[ply] = nodes
    return False, 0, 0, 0, hint


@njit_inline
def _maxn_tt_store(tt, stats, tt_slot, tt_key, entry_nodes, hands, ply, v0, v1, v2, card, nodes):
    """The node at ``ply`` is finished with the vector (v0, v1, v2) by
    ``card``: its entry, if still its own, holds them and the work it took."""
    slot = tt_slot[ply]
    if slot >= 0 and _tt_matches(tt, slot, tt[slot, 1], tt_key[ply, 0], tt_key[ply, 1]):
        stats[STAT_TT_STORES] += 1
        live = hands[ply, 0] | hands[ply, 1] | hands[ply, 2]
        _tt_write(
            tt,
            slot,
            tt_key[ply, 0],
            tt_key[ply, 1],
            _entry(
                ENTRY_EXACT, v0, v1, v2, _relative_card(card, live), _work(nodes - entry_nodes[ply])
            ),
        )


@njit_inline
def _maxn_moves(moves, scores, hands, trick_cards, ply, mover, nt, live, hint, options):
    """Write the node's moves to ``moves[ply]``, likely best first, and return
    how many: one card of each run of equivalents, by ``_maxn_move_score``,
    the table's card (``hint``) first, and among equals cheaper cards first
    (``MAXN_PREFER_HIGH``: dearer ones, a helper thread's order). No history
    of cutoffs, as the paranoid search keeps: here it saved nothing."""
    hand = hands[ply, mover]
    n = move_representatives(hand, 0 if options & MAXN_NO_EQUIVALENCE else live, moves[ply])
    if hint >= 0 and hand >> hint & 1 == 0:
        hint = -1
    third_hand = hands[ply, (mover + 1) % 3]
    for i in range(n):
        card = moves[ply, i]
        score = (
            _maxn_move_score(card, nt, trick_cards[ply, 0], trick_cards[ply, 1], third_hand) << 40
        )
        if card == hint:
            score += 1 << 50
        score += card % 12 if options & MAXN_PREFER_HIGH else -(card % 12)
        _insert_move(moves, scores, ply, i, card, score)
    return n


@njit
def maxn_search(
    root, options, tt, stats, path, root_moves, root_results, root_best, stop, max_nodes
):
    """Equilibrium vector of the ``root`` position (``root_array``; at least
    one card to play), searched on the per-ply arrays of ``path``
    (``new_maxn_path``).

    Returns the number of root cards searched (``root_moves[:n]``, one per run
    of equivalent cards) or ``MAXN_ABORTED`` when the node budget
    ``max_nodes`` ran out (0: no limit) or someone set ``stop[0]`` (the
    caller's timer; the kernel runs without the GIL).
    ``root_best`` gets the equilibrium vector and the card the mover takes
    (the highest of its run); ``root_results[i]`` the vector (points from the
    root on) after ``root_moves[i]`` and, in column 3, 1 when that vector is
    exact (always, with ``MAXN_ALL_CARDS``). ``stats`` gains nodes, table hits
    and stores, and pruned nodes. Table entries stay valid across calls.
    """
    tt = borrowed(tt)
    stats = borrowed(stats)
    path = borrowed(path)
    root_moves = borrowed(root_moves)
    root_results = borrowed(root_results)
    root_best = borrowed(root_best)
    stop = borrowed(stop)
    (
        hands,
        trick_cards,
        tt_key,
        moves,
        leaders,
        n_trick,
        n_moves,
        move_index,
        tt_slot,
        entry_nodes,
        scores,
    ) = path_views(path)
    best = path[MAXN_PATH_BEST : MAXN_PATH_BEST + 3].T
    best_card = path[MAXN_PATH_BEST_CARD]
    totals = path[MAXN_PATH_TOTAL]

    use_table = not options & MAXN_NO_TABLE
    pruning = not options & MAXN_NO_PRUNING
    prune_from = 1 if pruning and not options & MAXN_ALL_CARDS else 2

    _set_root(hands, leaders, n_trick, trick_cards, root)

    table_mask = tt.shape[0] - MAXN_BUCKET
    nodes = 0
    ply = 0
    # what the last finished node hands its parent
    r0 = 0
    r1 = 0
    r2 = 0
    exact = True
    entering = True
    while True:
        if entering:
            if max_nodes > 0 and nodes >= max_nodes:
                stats[STAT_NODES] += nodes
                return MAXN_ABORTED
            nodes += 1
            if (nodes & _STOP_MASK) == 0 and stop[0] != 0:
                stats[STAT_NODES] += nodes
                return MAXN_ABORTED
            tt_slot[ply] = -1
            h0 = hands[ply, 0]
            nt = n_trick[ply]
            live = live_cards(hands, trick_cards, ply, nt)
            total = popcount(live & COINS_MASK)
            totals[ply] = total
            lead = leaders[ply]
            mover = (lead + nt) % 3
            if ply > 0:
                if total == 0:
                    r0 = 0
                    r1 = 0
                    r2 = 0
                    exact = True
                    entering = False
                    continue
                if nt == 0 and h0 & (h0 - 1) == 0:  # one card each: the last trick
                    c0, c1, c2 = last_trick(hands, leaders, ply)
                    winner = (lead + trick_winner(c0, c1, c2)) % 3
                    r0 = total if winner == 0 else 0
                    r1 = total if winner == 1 else 0
                    r2 = total if winner == 2 else 0
                    exact = True
                    entering = False
                    continue
            hint = -1
            if nt == 0 and use_table:
                stored, v0, v1, v2, hint = _maxn_tt_probe(
                    tt,
                    table_mask,
                    stats,
                    tt_slot,
                    tt_key,
                    entry_nodes,
                    hands,
                    ply,
                    live,
                    lead,
                    ply > 0,
                    nodes,
                )
                if stored:
                    r0 = v0
                    r1 = v1
                    r2 = v2
                    exact = True
                    entering = False
                    continue
            n = _maxn_moves(moves, scores, hands, trick_cards, ply, mover, nt, live, hint, options)
            n_moves[ply] = n
            move_index[ply] = 0
            best[ply, 0] = -1
            best[ply, 1] = -1
            best[ply, 2] = -1
            best_card[ply] = -1
            if ply == 0:
                for i in range(n):
                    root_moves[i] = moves[0, i]
                    root_results[i, 3] = 0
        else:
            # the node at ``ply`` is finished: (r0, r1, r2), exact or pruned
            if ply == 0:
                stats[STAT_NODES] += nodes
                root_best[0] = best[0, 0]
                root_best[1] = best[0, 1]
                root_best[2] = best[0, 2]
                root_best[3] = best_card[0]
                return n_moves[0]
            ply -= 1
            lead = leaders[ply]
            nt = n_trick[ply]
            mover = (lead + nt) % 3
            i = move_index[ply]
            card = moves[ply, i]
            finished = False
            if exact:
                if nt == 2:
                    winner = leaders[ply + 1]  # the trick's winner leads the child
                    points = totals[ply] - totals[ply + 1]  # the Coins in the trick
                    if winner == 0:
                        r0 += points
                    elif winner == 1:
                        r1 += points
                    else:
                        r2 += points
                if ply == 0:
                    root_results[i, 0] = r0
                    root_results[i, 1] = r1
                    root_results[i, 2] = r2
                    root_results[i, 3] = 1
                if best[ply, mover] < 0 or prefers_points(
                    mover,
                    r0,
                    r1,
                    r2,
                    card,
                    best[ply, 0],
                    best[ply, 1],
                    best[ply, 2],
                    best_card[ply],
                ):
                    best[ply, 0] = r0
                    best[ply, 1] = r1
                    best[ply, 2] = r2
                    best_card[ply] = card
                    if ply > 0 and pruning:
                        own = best[ply, mover]
                        if own == totals[ply]:
                            finished = True  # every point left: the vector is settled
                        elif nt != 0 and ply >= prune_from:  # boundaries: always finished
                            parent = ply - 1
                            parent_mover = (leaders[parent] + n_trick[parent]) % 3
                            # cheap first: the parent's mover has something, and ``own``
                            # leaves it no more (a trick completed on the way only lowers it)
                            if totals[ply] - own <= best[parent, parent_mover] and _parent_rejects(
                                mover,
                                own,
                                parent_mover,
                                best[parent, 0],
                                best[parent, 1],
                                best[parent, 2],
                                best_card[parent],
                                moves[parent, move_index[parent]],
                                leaders[parent],
                                n_trick[parent],
                                trick_cards[parent, 0],
                                trick_cards[parent, 1],
                                totals[parent],
                            ):
                                stats[STAT_PRUNED] += 1
                                exact = False  # the parent never takes this card
                                continue
            if not finished:
                move_index[ply] = i + 1
                if i + 1 < n_moves[ply]:
                    entering = True
            if finished or i + 1 >= n_moves[ply]:
                r0 = best[ply, 0]
                r1 = best[ply, 1]
                r2 = best[ply, 2]
                exact = True
                _maxn_tt_store(
                    tt,
                    stats,
                    tt_slot,
                    tt_key,
                    entry_nodes,
                    hands,
                    ply,
                    r0,
                    r1,
                    r2,
                    best_card[ply],
                    nodes,
                )
                continue
        play_card(hands, leaders, n_trick, trick_cards, ply, moves[ply, move_index[ply]])
        ply += 1
        entering = True


# ----- leaf values: the network's points, and the chances they give ---------------
#
# Where a depth-limited search stops, a trick boundary is valued by a small
# network (``value_net``) trained on exact max^n values (``training/``). It
# sees a position from its leader: each seat's cards with every suit's live
# cards moved up to the top ranks (only their order within the suit decides
# tricks), per-suit and Coins counts, the hand size and the Coins left; it
# outputs each seat's share of the Coins left. In a match, those points turn
# into chances of winning it (``_points_to_chances``), with the next hands read
# from a table (``next_hand_chances``, built by ``solver.next_hands``).

VALUE_FEATURES = 3 * 48 + 3 * 4 + 3 + 2
# the network as the kernels take it: the weights of each layer (members of
# ensembles stacked on the first axis), and which members value which hands
# (``members_for``)
Net = namedtuple("Net", "w1 b1 w2 b2 w3 b3 split small")


@njit
def value_features(h_leader, h_next, h_third, x):
    """Fill ``x`` (VALUE_FEATURES floats) for a trick-boundary position seen from its leader."""
    x[:] = 0.0
    live = h_leader | h_next | h_third
    for suit in range(4):
        top = suit * 12 + 11  # the next rank to give, from the Ace down
        for card in range(suit * 12 + 11, suit * 12 - 1, -1):
            if not live >> card & 1:
                continue
            seat = 0 if h_leader >> card & 1 else (1 if h_next >> card & 1 else 2)
            x[seat * 48 + top] = 1.0
            x[144 + seat * 4 + suit] += 1.0 / 6
            if suit == 1:
                x[156 + seat] += 1.0 / 6
            top -= 1
    x[159] = popcount(h_leader) / 16.0
    x[160] = popcount(live & COINS_MASK) / 12.0


@njit
def value_net(h_leader, h_next, h_third, w1, b1, w2, b2, w3, b3, first, last, x):
    """The network's points for the leader, the next seat and the third, from a
    trick boundary to the end of the hand (they add up to the Coins left). The
    weights stack the members of ensembles on their first axis; the shares of
    the Coins of members ``first`` to ``last - 1`` are averaged."""
    coins = popcount((h_leader | h_next | h_third) & COINS_MASK)
    if coins == 0:
        return 0.0, 0.0, 0.0
    value_features(h_leader, h_next, h_third, x)
    n1, n2 = b1.shape[1], b2.shape[1]
    s0 = s1 = s2 = 0.0
    for m in range(first, last):
        a1 = b1[m].copy()
        for i in range(x.shape[0]):
            if x[i] != 0.0:
                xi = x[i]
                for j in range(n1):
                    a1[j] += xi * w1[m, i, j]
        a2 = b2[m].copy()
        for i in range(n1):
            if a1[i] > 0.0:
                ai = a1[i]
                for j in range(n2):
                    a2[j] += ai * w2[m, i, j]
        z0, z1, z2 = b3[m, 0], b3[m, 1], b3[m, 2]
        for i in range(n2):
            if a2[i] > 0.0:
                z0 += a2[i] * w3[m, i, 0]
                z1 += a2[i] * w3[m, i, 1]
                z2 += a2[i] * w3[m, i, 2]
        top = max(z0, z1, z2)
        e0, e1, e2 = np.exp(z0 - top), np.exp(z1 - top), np.exp(z2 - top)
        total = e0 + e1 + e2
        s0 += e0 / total
        s1 += e1 / total
        s2 += e2 / total
    share = coins / (last - first)
    return s0 * share, s1 * share, s2 * share


@njit
def members_for(hand, split, small, members):
    """The ensemble members (first, last + 1) that value a position whose leader
    holds ``hand``: the first ``small`` up to ``split`` cards, the others beyond."""
    return (0, small) if popcount(hand) <= split else (small, members)


@njit
def _leaf_value(hands, leader, net, x, out):
    """``value_net``'s points at a trick boundary (``hands``: the three seats'),
    written into ``out`` by seat; ``x``: VALUE_FEATURES floats of scratch."""
    w1, b1, w2, b2, w3, b3, split, small = net
    first, last = members_for(hands[leader], split, small, b1.shape[0])
    a, b, c = value_net(
        hands[leader],
        hands[(leader + 1) % 3],
        hands[(leader + 2) % 3],
        w1,
        b1,
        w2,
        b2,
        w3,
        b3,
        first,
        last,
        x,
    )
    out[leader] = a
    out[(leader + 1) % 3] = b
    out[(leader + 2) % 3] = c


@njit
def whole_points(value):
    """Round the network's points ``value`` (by seat) to whole points that
    still add up to the Coins left: each seat's whole part, then the points
    left over to the largest remainders (the lower seat first on equal ones).
    Exact values are whole, and a seat's choice among exactly equal ones
    follows RULES.md's tie rule; leaves in whole points let a search make
    those ties as the exact one does."""
    w0, w1, w2 = np.floor(value[0]), np.floor(value[1]), np.floor(value[2])
    r0, r1, r2 = value[0] - w0, value[1] - w1, value[2] - w2
    left = np.rint(value[0] + value[1] + value[2]) - w0 - w1 - w2
    while left > 0.5:  # at most two points: each remainder is below one
        if r0 >= r1 and r0 >= r2:
            w0 += 1.0
            r0 = -1.0
        elif r1 >= r2:
            w1 += 1.0
            r1 = -1.0
        else:
            w2 += 1.0
            r2 = -1.0
        left -= 1.0
    value[0] = w0
    value[1] = w1
    value[2] = w2
    return value


@njit
def next_hand_chances(n0, n1, n2, leader, table):
    """Seats 0, 1, 2's chances from the start of a hand that ``leader`` leads with
    needs n0, n1, n2 (each at least 1), from ``table[leader's, next's, third's
    need - 1]`` (needs beyond the table read as its largest)."""
    most = table.shape[0]
    m0 = min(n0, most) - 1
    m1 = min(n1, most) - 1
    m2 = min(n2, most) - 1
    if leader == 0:
        return table[m0, m1, m2, 0], table[m0, m1, m2, 1], table[m0, m1, m2, 2]
    if leader == 1:
        return table[m1, m2, m0, 2], table[m1, m2, m0, 0], table[m1, m2, m0, 1]
    return table[m2, m0, m1, 1], table[m2, m0, m1, 2], table[m2, m0, m1, 0]


@njit
def _points_to_chances(e0, e1, e2, n0, n1, n2, coins, table, grid, out):
    """Chances from estimated points for the rest of the hand (e0 + e1 + e2 =
    ``coins``) and the needs: the Coins fall one at a time, each to seat s
    with probability e_s / coins; the first seat to reach its need wins; if
    none does, the next hand is read from the table at the needs left, each
    seat alike likely to lead it. ``grid``: (2, 13, 13) floats of scratch."""
    out[0] = 0.0
    out[1] = 0.0
    out[2] = 0.0
    q0 = max(e0, 0.0)
    q1 = max(e1, 0.0)
    q2 = max(e2, 0.0)
    spread = q0 + q1 + q2
    if spread <= 0.0:
        q0, q1, q2, spread = 1.0, 1.0, 1.0, 3.0
    q0 /= spread
    q1 /= spread
    q2 /= spread
    grid[0, :, :] = 0.0
    grid[0, 0, 0] = 1.0
    now = 0
    for fallen in range(coins):
        nxt = 1 - now
        grid[nxt, :, :] = 0.0
        for x0 in range(fallen + 1):
            for x1 in range(fallen + 1 - x0):
                p = grid[now, x0, x1]
                if p == 0.0:
                    continue
                x2 = fallen - x0 - x1
                if x0 + 1 >= n0:
                    out[0] += p * q0
                else:
                    grid[nxt, x0 + 1, x1] += p * q0
                if x1 + 1 >= n1:
                    out[1] += p * q1
                else:
                    grid[nxt, x0, x1 + 1] += p * q1
                if x2 + 1 >= n2:
                    out[2] += p * q2
                else:
                    grid[nxt, x0, x1] += p * q2
        now = nxt
    for x0 in range(coins + 1):
        for x1 in range(coins + 1 - x0):
            p = grid[now, x0, x1]
            if p == 0.0:
                continue
            x2 = coins - x0 - x1
            for leader in range(3):
                c0, c1, c2 = next_hand_chances(n0 - x0, n1 - x1, n2 - x2, leader, table)
                out[0] += p * c0 / 3
                out[1] += p * c1 / 3
                out[2] += p * c2 / 3


# ----- depth-limited searches: the estimate and the match ---------------------------
#
# Max^n for ``tricks`` tricks (the current one counts), the trick boundaries
# where it stops valued by the network: ``estimate_search`` in points,
# ``match_search`` in each seat's chance of winning the match (RULES.md,
# "Values of a position in a match"). Both run one loop, ``_limited_search``,
# which differs by the kind of value (``POINTS``, ``CHANCES``) in three steps:
#
# - the value of a leaf. Points: the network's points for the rest of the hand
#   where the search stops (or those rounded to whole points). Chances: 1 for the
#   seat whose trick reached its need (the match is over); at the hand's last
#   trick, played out, the next-hands table at the needs left; the network's
#   points turned into chances where the search stops; or a table entry.
# - how a node chooses. Points: where the network's values decide the
#   choice, the cards (a run of equivalents counting once) are averaged with
#   weights exp(own points / softness), since the network's errors make a
#   choice between near-equal cards a guess; elsewhere
#   ``prefers_estimated_points``. Chances: ``prefers_chances``, a strict order,
#   so cards are tried likely best first (``_match_move_score``), with two cuts
#   that change no value: a mover sure to win the match takes no other card,
#   and shallow pruning inside a trick, never below the root's own cards (the
#   chances add up to 1, so a mover sure of L leaves its parent's mover at
#   most 1 - L).
# - nothing else: both keep every trick boundary they value or finish in the
#   boundary table (points from the boundary on, or chances), so a boundary
#   reached again, by another order of cards or in another search, is not
#   valued again.
#
# A node's points count from the node on (a trick's Coins are added on the way
# up), so a boundary's points are the same whichever way it was reached; its
# chances depend on the needs there, which the path keeps as the Coins each
# seat took since the root (``LIMITED_TAKEN``).

POINTS, CHANCES = 0, 1
TO_THE_END = 63  # ``tricks`` of a search to the end of the hand
# what a child the search steps into is: a node to search, or a leaf valued
# exactly or by the network
SEARCHED, EXACT_LEAF, NETWORK_LEAF = 0, 1, 2
# stats slots: nodes, table hits and stores (as the other searches), network leaves
STAT_NETWORK_LEAVES = 3
LIMITED_STATS = 4

# the depth-limited searches' own rows of their ``path`` (``new_limited_path``),
# after the common ones: tricks left to search, the Coins each seat took from
# the root on, the card of the best value so far, and two flags: the node's
# cards read the network (points), the node was cut (chances). The path's
# table slot row is 1 for a boundary to keep in the table when it is finished.
LIMITED_DEPTH = PATH_COMMON_ROWS
LIMITED_TAKEN = LIMITED_DEPTH + 1
LIMITED_BEST_CARD, LIMITED_SOFT, LIMITED_CUT, LIMITED_ROWS = range(
    LIMITED_TAKEN + 3, LIMITED_TAKEN + 7
)
# the rows of its ``values`` (floats): the best vector so far, and for the soft
# choice the top own points, the sum of the weights and the weighted sum
VALUE_BEST, VALUE_TOP, VALUE_WEIGHTS, VALUE_WEIGHTED, VALUE_ROWS = 0, 3, 4, 5, 8
_PRUNE_MARGIN = 2e-9  # one rounding unit of chances, far above a sum's rounding error


# what a depth-limited search searches: the position (``root_array``), how many
# tricks deep, and its cards ``cards[:count]``
SearchRoot = namedtuple("SearchRoot", "position tricks cards count")
# what a match search knows beyond the position: each seat's need at the root
# (1 to 63) and the next-hands table
MatchArgs = namedtuple("MatchArgs", "needs chances")
# the per-ply arrays of a depth-limited search as its steps read them (``_limited_state``)
LimitedState = namedtuple(
    "LimitedState",
    "hands leaders n_trick trick_cards moves n_moves move_index scores tt_key tt_slot "
    "depth taken best_card soft cut best top weights weighted",
)


def new_limited_path():
    """The per-ply arrays of a depth-limited search: ``path`` and ``values``, made
    once for any number of searches."""
    return np.zeros((LIMITED_ROWS, MAX_PLY), dtype=np.int64), np.zeros((VALUE_ROWS, MAX_PLY))


@njit_inline
def _limited_state(path, values):
    """The per-ply arrays of ``path`` and ``values`` (``new_limited_path``): the
    common rows (``path_views``), then the tricks left, the Coins taken
    (``[ply, seat]``), the best cards, the two flags, the best vectors and the
    soft choice's top, weights and weighted sums."""
    hands, trick_cards, tt_key, moves, leaders, n_trick, n_moves, move_index, tt_slot, _, scores = (
        path_views(path)
    )
    return LimitedState(
        hands,
        leaders,
        n_trick,
        trick_cards,
        moves,
        n_moves,
        move_index,
        scores,
        tt_key,
        tt_slot,
        path[LIMITED_DEPTH],
        path[LIMITED_TAKEN : LIMITED_TAKEN + 3].T,
        path[LIMITED_BEST_CARD],
        path[LIMITED_SOFT],
        path[LIMITED_CUT],
        values[VALUE_BEST : VALUE_BEST + 3].T,
        values[VALUE_TOP],
        values[VALUE_WEIGHTS],
        values[VALUE_WEIGHTED : VALUE_WEIGHTED + 3].T,
    )


@njit_inline
def _copy_vector(to, source):
    for s in range(3):
        to[s] = source[s]


@njit_inline
def _sure_win(value, winner):
    """Chances where ``winner`` has won the match."""
    for s in range(3):
        value[s] = 1.0 if s == winner else 0.0


@njit_inline
def _limited_root(state, start):
    """The position of ``start`` (a ``SearchRoot``) in ply 0, to search its cards."""
    _set_root(
        state.hands, state.leaders, state.n_trick, state.trick_cards, borrowed(start.position)
    )
    state.depth[0] = start.tricks
    for s in range(3):
        state.taken[0, s] = 0
    cards = borrowed(start.cards)
    for i in range(start.count):
        state.moves[0, i] = cards[i]
    state.n_moves[0] = start.count
    state.move_index[0] = 0


@njit_inline
def _limited_step(state, ply, card):
    """Play ``card`` into ``ply + 1``: the trick's Coins to its winner, and one
    trick fewer to search after a trick (none fewer ``TO_THE_END``). Returns
    the trick's winner, or -1 within a trick."""
    child = ply + 1
    trick_cards, taken, depth = state.trick_cards, state.taken, state.depth
    winner = play_card(state.hands, state.leaders, state.n_trick, trick_cards, ply, card)
    for s in range(3):
        taken[child, s] = taken[ply, s]
    depth[child] = depth[ply]
    state.tt_slot[child] = -1
    if winner >= 0:
        taken[child, winner] += (
            coin_count(trick_cards[ply, 0]) + coin_count(trick_cards[ply, 1]) + coin_count(card)
        )
        if depth[ply] < TO_THE_END:
            depth[child] = depth[ply] - 1
    return winner


@njit_inline
def _probe_boundary(state, child, table, n0, n1, n2, stats):
    """The table's slot for the boundary ``child`` (needs n0, n1, n2), or -1: then
    the boundary is marked to be kept (``_keep_boundary``), if there is a table."""
    keys, _, word = table
    mask = keys.shape[0] - 1
    if mask < 0:
        return -1
    hands = state.hands
    key_a, key_b = boundary_key(
        hands[child, 0],
        hands[child, 1],
        hands[child, 2],
        state.leaders[child],
        state.depth[child],
        n0,
        n1,
        n2,
    )
    slot = _boundary_find(keys, key_a, key_b, word, mask)
    if slot >= 0:
        stats[STAT_TT_HITS] += 1
        return slot
    state.tt_key[child, 0] = key_a
    state.tt_key[child, 1] = key_b
    state.tt_slot[child] = 1
    return -1


@njit_inline
def _keep_boundary(state, ply, table, value, stats):
    """Keep the boundary at ``ply`` (marked by ``_probe_boundary``) with ``value``."""
    if state.tt_slot[ply] < 0:
        return
    keys, kept, word = table
    stats[STAT_TT_STORES] += 1
    cards = popcount(state.hands[ply, 0])
    slot = _boundary_slot(
        keys, state.tt_key[ply, 0], state.tt_key[ply, 1], word, cards, keys.shape[0] - 1
    )
    for s in range(3):
        kept[slot, s] = value[s]


@njit_inline
def _points_leaf(state, child, net, whole, table, x, value, stats):
    """Points: is ``child`` a leaf? The hand is over, or the table knows the
    boundary, or the search stops there (valued by the network, in whole points
    when ``whole``); ``value`` gets its points from there on. A leaf read from
    the table is of the kind its search was: valued by the network unless that
    reached the end of the hand."""
    hands = state.hands
    if state.n_trick[child] != 0:
        return SEARCHED
    if hands[child, 0] | hands[child, 1] | hands[child, 2] == 0:
        value[:] = 0.0
        return EXACT_LEAF
    slot = _probe_boundary(state, child, table, 0, 0, 0, stats)
    if slot >= 0:
        _copy_vector(value, table.values[slot])
        return NETWORK_LEAF if state.depth[child] < popcount(hands[child, 0]) else EXACT_LEAF
    if state.depth[child] != 0:
        return SEARCHED
    stats[STAT_NETWORK_LEAVES] += 1
    _leaf_value(hands[child], state.leaders[child], net, x, value)
    if whole:
        whole_points(value)
    _keep_boundary(state, child, table, value, stats)
    return NETWORK_LEAF


@njit_inline
def _chances_leaf(state, child, winner, match, net, table, x, grid, value, stats):
    """Chances: is ``child`` (after a trick won by ``winner``) a leaf? The match
    is over, or the hand's last trick is forced, or the table knows the
    boundary, or the search stops there; ``value`` gets the chances."""
    hands, taken = state.hands, state.taken
    needs, chances = match
    if taken[child, winner] >= needs[winner]:  # the match is over
        _sure_win(value, winner)
        return EXACT_LEAF
    n0 = needs[0] - taken[child, 0]
    n1 = needs[1] - taken[child, 1]
    n2 = needs[2] - taken[child, 2]
    h0 = hands[child, 0]
    if h0 & (h0 - 1) == 0:  # one card each, or none: the hand's last trick
        if h0:
            c0, c1, c2 = last_trick(hands, state.leaders, child)
            winner = (winner + trick_winner(c0, c1, c2)) % 3
            points = coin_count(c0) + coin_count(c1) + coin_count(c2)
            n0 -= points if winner == 0 else 0
            n1 -= points if winner == 1 else 0
            n2 -= points if winner == 2 else 0
        if min(n0, n1, n2) <= 0:
            _sure_win(value, winner)
        else:
            value[0], value[1], value[2] = next_hand_chances(n0, n1, n2, winner, chances)
        return EXACT_LEAF
    slot = _probe_boundary(state, child, table, n0, n1, n2, stats)
    if slot >= 0:
        _copy_vector(value, table.values[slot])
        return EXACT_LEAF
    if state.depth[child] != 0:
        return SEARCHED
    stats[STAT_NETWORK_LEAVES] += 1
    _leaf_value(hands[child], winner, net, x, value)
    coins = popcount((h0 | hands[child, 1] | hands[child, 2]) & COINS_MASK)
    _points_to_chances(value[0], value[1], value[2], n0, n1, n2, coins, chances, grid, value)
    _keep_boundary(state, child, table, value, stats)
    return NETWORK_LEAF


@njit
def _match_move_score(card, n_trick, c0, c1, need):
    """How good ``card`` looks for the mover, whose need is ``need``: last to play,
    a trick it wins (and the match, above all) by its Coins, else keeping its
    own Coins back; earlier in the trick, keeping Coins back."""
    if n_trick == 2 and trick_winner(c0, c1, card) == 2:
        coins = coin_count(c0) + coin_count(c1) + coin_count(card)
        return (100 if coins >= need else 2) + coins
    return -coin_count(card)


@njit_inline
def _limited_moves(kind, state, needs, ply):
    """Write the node's moves to ``moves[ply]`` and return how many: one card of
    each run of equivalents, in index order for points, likely best first for
    chances (shallow pruning then cuts more)."""
    hands, trick_cards, moves = state.hands, state.trick_cards, state.moves
    nt = state.n_trick[ply]
    mover = (state.leaders[ply] + nt) % 3
    n = move_representatives(hands[ply, mover], live_cards(hands, trick_cards, ply, nt), moves[ply])
    if kind == CHANCES:
        need = needs[mover] - state.taken[ply, mover]
        for i in range(n):
            card = moves[ply, i]
            score = _match_move_score(card, nt, trick_cards[ply, 0], trick_cards[ply, 1], need)
            _insert_move(moves, state.scores, ply, i, card, score)
    return n


@njit_inline
def _beats_best(kind, state, ply, mover, card, value):
    """Does the mover at ``ply`` take ``value`` (by ``card``) over the node's best so far?"""
    best, best_card = state.best[ply], state.best_card[ply]
    a0, a1, a2, b0, b1, b2 = value[0], value[1], value[2], best[0], best[1], best[2]
    if kind == CHANCES:
        return prefers_chances(mover, a0, a1, a2, card, b0, b1, b2, best_card)
    return prefers_estimated_points(mover, a0, a1, a2, card, b0, b1, b2, best_card)


@njit_inline
def _choose_points(state, ply, mover, card, value, leaf, softness):
    """Points: the node at ``ply`` takes in the value of its card ``card``
    (``leaf``: what the child was). The first card's sets the node's choice;
    where the cards read the network the choice is their average weighted by
    exp(own points / softness) (0: none), else the mover's preference."""
    best, best_card, soft = state.best, state.best_card, state.soft
    top, weights, weighted = state.top, state.weights, state.weighted
    if best_card[ply] < 0:
        _copy_vector(best[ply], value)
        best_card[ply] = card
        soft[ply] = leaf == NETWORK_LEAF
        top[ply] = value[mover]
        weights[ply] = 1.0
        _copy_vector(weighted[ply], value)
    elif soft[ply] and softness > 0:
        if value[mover] > top[ply]:
            rescale = np.exp((top[ply] - value[mover]) / softness)
            weights[ply] *= rescale
            for s in range(3):
                weighted[ply, s] *= rescale
            top[ply] = value[mover]
        weight = np.exp((value[mover] - top[ply]) / softness)
        weights[ply] += weight
        for s in range(3):
            weighted[ply, s] += weight * value[s]
    elif _beats_best(POINTS, state, ply, mover, card, value):
        _copy_vector(best[ply], value)
        best_card[ply] = card


@njit_inline
def _choose_chances(state, ply, mover, card, value):
    """Chances: the node at ``ply`` takes in the value of its card ``card`` if
    the mover prefers it; a sure win ends the node, and so does a value that
    leaves the parent's mover less than it has (the node is cut)."""
    best, best_card, leaders, n_trick = state.best, state.best_card, state.leaders, state.n_trick
    if best_card[ply] >= 0 and not _beats_best(CHANCES, state, ply, mover, card, value):
        return
    _copy_vector(best[ply], value)
    best_card[ply] = card
    own = value[mover]
    if np.rint(own * _CHANCE_SCALE) >= _CHANCE_SCALE:
        state.move_index[ply] = state.n_moves[ply]  # a sure win: no other card is worth more
    elif ply >= 2 and n_trick[ply] > 0:
        parent = ply - 1
        parent_mover = (leaders[parent] + n_trick[parent]) % 3
        if best_card[parent] >= 0 and best[parent, parent_mover] - (1.0 - own) > _PRUNE_MARGIN:
            state.cut[ply] = 1  # the parent's mover has better: it never plays this card
            state.move_index[ply] = state.n_moves[ply]


@njit_inline
def _limited_search(
    kind,
    start,
    net,
    softness,
    whole,
    match,
    table,
    path,
    values,
    max_nodes,
    stop,
    root_results,
    stats,
):
    """The loop of ``estimate_search`` (``kind`` POINTS) and ``match_search``
    (CHANCES): see the section's head. A points search's ``match`` and a
    chances search's ``softness`` and ``whole`` are placeholders of the right
    types."""
    stop = borrowed(stop)
    root_results = borrowed(root_results)
    stats = borrowed(stats)
    state = _limited_state(borrowed(path), borrowed(values))
    _limited_root(state, start)
    moves, n_moves, move_index = state.moves, state.n_moves, state.move_index
    x = np.empty(VALUE_FEATURES)
    grid = np.empty((2, 13, 13))
    value = np.empty(3)
    ply = 0
    nodes = 0
    while True:
        i = move_index[ply]
        if i < n_moves[ply]:
            move_index[ply] = i + 1
            nodes += 1
            if (max_nodes > 0 and nodes > max_nodes) or (
                (nodes & _STOP_MASK) == 0 and stop[0] != 0
            ):
                stats[STAT_NODES] += nodes
                return ABORTED
            child = ply + 1
            winner = _limited_step(state, ply, moves[ply, i])
            if kind == POINTS:
                leaf = _points_leaf(state, child, net, whole, table, x, value, stats)
            elif winner >= 0:
                leaf = _chances_leaf(state, child, winner, match, net, table, x, grid, value, stats)
            else:
                leaf = SEARCHED
            if leaf == SEARCHED:
                n_moves[child] = _limited_moves(kind, state, match.needs, child)
                move_index[child] = 0
                state.best_card[child] = -1
                state.cut[child] = 0
                ply = child
                continue
        elif ply == 0:
            break
        else:
            # the node at ``ply`` is finished: its value goes to its parent
            leaf = NETWORK_LEAF if state.soft[ply] else EXACT_LEAF
            if kind == POINTS and state.soft[ply] and softness > 0:
                for s in range(3):
                    value[s] = state.weighted[ply, s] / state.weights[ply]
            else:
                _copy_vector(value, state.best[ply])
            _keep_boundary(state, ply, table, value, stats)
            ply -= 1
            if state.cut[ply + 1]:
                continue  # the parent never takes this card
        # ``value``: the result of the card just tried at ``ply``
        card = moves[ply, move_index[ply] - 1]
        if kind == POINTS and state.n_trick[ply] == 2:  # from here on: the trick's Coins too
            winner = state.leaders[ply + 1]
            value[winner] += state.taken[ply + 1, winner] - state.taken[ply, winner]
        if ply == 0:
            for s in range(3):
                root_results[move_index[0] - 1, s] = value[s]
            continue
        mover = (state.leaders[ply] + state.n_trick[ply]) % 3
        if kind == POINTS:
            _choose_points(state, ply, mover, card, value, leaf, softness)
        else:
            _choose_chances(state, ply, mover, card, value)
    stats[STAT_NODES] += nodes
    return start.count


@njit
def estimate_search(
    start, net, softness, whole, table, path, values, max_nodes, stop, root_results, stats
):
    """Estimated max^n points after each card of ``start`` (a ``SearchRoot``),
    from the root on, into ``root_results[i]``: searched ``start.tricks``
    tricks deep, the network ``net`` (``Net``) valuing the trick boundaries
    where that stops (in whole points when ``whole``: ``whole_points``); a
    choice the network decides is soft by ``softness`` points (0: the hard
    max^n choice everywhere). ``table``: a
    ``BoundaryTable`` (with no slots: none); ``path`` and ``values``:
    ``new_limited_path()``.

    Returns the number of cards searched, or ABORTED when ``max_nodes`` (0: no
    limit) ran out or ``stop[0]`` was set. ``stats`` (``LIMITED_STATS`` slots)
    gains nodes, table hits and stores, and network leaves."""
    no_match = MatchArgs(np.zeros(3, dtype=np.int64), np.zeros((1, 1, 1, 3)))
    return _limited_search(
        POINTS,
        start,
        net,
        softness,
        whole,
        no_match,
        table,
        path,
        values,
        max_nodes,
        stop,
        root_results,
        stats,
    )


@njit
def match_search(start, net, match, table, path, values, max_nodes, stop, root_results, stats):
    """Each seat's chance of winning the match after each card of ``start`` (a
    ``SearchRoot``), all seats playing for the match, into ``root_results[i]``:
    searched ``start.tricks`` tricks deep (``TO_THE_END``: exact), the network
    ``net`` (``Net``) valuing the trick boundaries where that stops.
    ``match``: ``MatchArgs``; ``table``: a ``BoundaryTable`` (with no slots:
    none); ``path`` and ``values``: ``new_limited_path()``.

    Returns the number of cards searched, or ABORTED when ``max_nodes`` (0: no
    limit) ran out or ``stop[0]`` was set. ``stats`` (``LIMITED_STATS`` slots)
    gains nodes, table hits and stores, and network leaves."""
    return _limited_search(
        CHANCES,
        start,
        net,
        0.0,
        False,
        match,
        table,
        path,
        values,
        max_nodes,
        stop,
        root_results,
        stats,
    )


# ----- greedy playouts --------------------------------------------------------------
#
# ``analysis.hint`` plays a greedy playout for every card of every sampled
# deal before its exact solve: compiled, and without the GIL, the playouts of
# two threads run at once. Each seat plays by a policy of its own: a random
# card with probability ``epsilons[seat]``, else the card at place i of
# greedy's order of preference (its card, then its card from the rest, ...)
# with weight exp(-i / ``temperatures[seat]``), temperature 0 being greedy's
# card. Random draws come from a 64-bit LCG seeded by the caller, so a
# playout depends only on its arguments, whichever thread runs it.
# ``solver.playouts`` is the documented face; ``greedy_places`` gives the
# places that ``analysis.opponents`` reads its models' likelihoods from.

# cards from the lowest rank up, index order within a rank
RANK_FIRST = np.array(sorted(range(48), key=lambda c: (c % RANKS_PER_SUIT, c)), dtype=np.int64)
_LCG_MUL = 6364136223846793005
_LCG_ADD = 1442695040888963407


def lcg_next(state):
    """The next state of the playouts' 64-bit LCG. Compiled, int64
    arithmetic wraps; as plain Python the state is cut to 64 bits (held
    unsigned: the bits the playouts read, 33 to 63, are the same)."""
    return (state * _LCG_MUL + _LCG_ADD) & 0xFFFFFFFFFFFFFFFF


@overload(lcg_next, jit_options=JIT_OPTIONS)
def _lcg_next_compiled(state):
    return lambda state: state * _LCG_MUL + _LCG_ADD


@njit
def _lowest_rank_card(mask):
    """The card of ``mask`` of the lowest rank (index order among equals); -1 for none."""
    for card in RANK_FIRST:
        if mask >> card & 1:
            return card
    return -1


@njit
def greedy_card(hand, t0, t1, n):
    """The greedy heuristic's card (``solver.playouts``) with ``n`` cards
    ``t0, t1`` on the table."""
    if n == 2:
        pot = coin_count(t0) + coin_count(t1)
        best, best_value, best_rank = -1, -99, 99
        for card in RANK_FIRST:
            if not hand >> card & 1:
                continue
            coin = coin_count(card)
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
    return _lowest_rank_card(others if others else hand)


@njit
def _random_card(hand, state):
    """(a card of ``hand`` chosen by the LCG, the next state)."""
    state = lcg_next(state)
    pick = (state >> 33) & 0x7FFFFFFF
    k = pick % popcount(hand)
    for card in range(48):
        if hand >> card & 1:
            if k == 0:
                return card, state
            k -= 1
    return -1, state


@njit
def greedy_place(hand, t0, t1, n, card):
    """How many cards of ``hand`` greedy's order puts before ``card`` (-1: not held)."""
    place = 0
    while hand:
        first = greedy_card(hand, t0, t1, n)
        if first == card:
            return place
        hand &= ~(1 << first)
        place += 1
    return -1


@njit
def greedy_places(hands, turns, places):
    """For every deal ``d`` (``hands[d]``: the three hands at the record's
    start) and every card of the record (``turns[i]``: the seat, the trick's
    cards ``t0, t1`` and their count ``n``, the card), the card's place in
    greedy's order from the seat's hand then, into ``places[d, i]``."""
    for d in range(hands.shape[0]):
        h = hands[d].copy()
        for i in range(turns.shape[0]):
            seat, t0, t1, n, card = turns[i, 0], turns[i, 1], turns[i, 2], turns[i, 3], turns[i, 4]
            places[d, i] = greedy_place(h[seat], t0, t1, n, card)
            h[seat] &= ~(1 << card)


@njit
def _softmax_greedy_card(hand, t0, t1, n, temperature, state):
    """(the card at place i of greedy's order, drawn with weight
    exp(-i / ``temperature``) by inverting the truncated geometric law, the
    next state)."""
    state = lcg_next(state)
    u = ((state >> 33) & 0x7FFFFFFF) / 2147483648.0
    ratio = np.exp(-1.0 / temperature)
    size = popcount(hand)
    place = int(np.log(1.0 - u * (1.0 - ratio**size)) / np.log(ratio)) if ratio > 0 else 0
    for _ in range(min(place, size - 1)):
        hand &= ~(1 << greedy_card(hand, t0, t1, n))
    return greedy_card(hand, t0, t1, n), state


@njit
def play_until(h0, h1, h2, leader, t0, t1, n, epsilons, temperatures, cards_left, seed):
    """Play by each seat's policy (a random card with probability
    ``epsilons[seat]``, else greedy's order at ``temperatures[seat]``) until
    no hand holds more than ``cards_left`` cards; returns the hands, leader,
    trick cards and count reached, and each seat's points on the way."""
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
        if epsilons[seat] > 0:
            state = lcg_next(state)
            if ((state >> 33) & 0x7FFFFFFF) < epsilons[seat] * 2147483648.0:
                card, state = _random_card(hand, state)
        if card < 0 and temperatures[seat] > 0:
            card, state = _softmax_greedy_card(
                hand, trick[0], trick[1], n, temperatures[seat], state
            )
        if card < 0:
            card = greedy_card(hand, trick[0], trick[1], n)
        hands[seat] = hand & ~(1 << card)
        trick[n] = card
        n += 1
        check = n == 3
        if check:
            leader = (leader + trick_winner(trick[0], trick[1], trick[2])) % 3
            points[leader] += coin_count(trick[0]) + coin_count(trick[1]) + coin_count(trick[2])
            n = 0
            trick[0] = -1
            trick[1] = -1
    return (
        hands[0],
        hands[1],
        hands[2],
        leader,
        trick[0],
        trick[1],
        n,
        points[0],
        points[1],
        points[2],
    )


@njit
def greedy_step(h0, h1, h2, leader, t0, t1, n, card, mover):
    """Play ``card`` for the seat to move; returns the hands, leader, trick
    cards and count after it, and the Coins ``mover`` took if it ended the trick."""
    seat = (leader + n) % 3
    if seat == 0:
        h0 &= ~(1 << card)
    elif seat == 1:
        h1 &= ~(1 << card)
    else:
        h2 &= ~(1 << card)
    if n < 2:
        if n == 0:
            return h0, h1, h2, leader, card, t1, 1, 0
        return h0, h1, h2, leader, t0, card, 2, 0
    winner = (leader + trick_winner(t0, t1, card)) % 3
    won = coin_count(t0) + coin_count(t1) + coin_count(card) if winner == mover else 0
    return h0, h1, h2, winner, -1, -1, 0, won


@njit
def greedy_reply(h0, h1, h2, leader, t0, t1, n, mover):
    """The most Coins ``mover`` can still take when both other seats play
    greedy's card (every hand open): its best reply to greedy, by trying every
    order of its own cards."""
    taken = 0
    while True:
        seat = (leader + n) % 3
        hand = h0 if seat == 0 else (h1 if seat == 1 else h2)
        if hand == 0:
            return taken
        if seat == mover:
            break
        card = greedy_card(hand, t0, t1, n)
        h0, h1, h2, leader, t0, t1, n, won = greedy_step(h0, h1, h2, leader, t0, t1, n, card, mover)
        taken += won
    best = 0
    rest = hand
    while rest:
        bit = rest & -rest
        rest ^= bit
        a0, a1, a2, lead, c0, c1, m, won = greedy_step(
            h0, h1, h2, leader, t0, t1, n, bit_index(bit), mover
        )
        best = max(best, won + greedy_reply(a0, a1, a2, lead, c0, c1, m, mover))
    return taken + best
