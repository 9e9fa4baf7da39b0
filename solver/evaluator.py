"""Estimated max^n values beyond exact reach: a learned leaf value and a shallow search.

The exact max^n search answers every card of an ending of up to about nine
cards a hand within a second; a full deal is out of its reach. Here the
equilibrium is searched for the first ``tricks`` tricks only
(``_kernels.estimate_search``: choices the network decides are soft), and
the trick boundaries where it stops are valued by ``ValueNet``, a small
network trained on exact max^n values of endings (``training/`` rebuilds
it; the weights ship in ``value_net.npz``).
The values are estimates: real numbers of points, not proofs.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources

import numpy as np

from . import _kernels as k
from . import checks
from .cards import Card
from .errors import CoinsError
from .position import Position
from .threads import BudgetExhausted, run_searches

WEIGHTS_FILE = "value_net.npz"
# The networks that vote with the shipped one (``default_committee``): each file
# holds exact-label members only, trained from other labels or seeds.
COMMITTEE_DIR = "committee"
LAYERS = ("w1", "b1", "w2", "b2", "w3", "b3")
# Points of softness in a choice the network decides (``_kernels.estimate_search``):
# the network's errors (about a quarter of a point a seat at 8 cards) make the
# choice between near-equal cards a guess, so such cards are averaged
# (docs/experiments.md: 0.05 picked better cards than the hard choice).
SOFTNESS = 0.05


@dataclass(frozen=True, eq=False)
class ValueNet:
    """The leaf evaluation: two hidden ReLU layers, then each seat's share of the
    Coins left (a softmax), from a trick boundary seen by its leader. Each
    array stacks the members of ensembles on its first axis (networks of the
    same sizes, trained from different seeds), whose shares are averaged: the
    first ``small`` members value positions of up to ``split`` cards a hand
    (trained on exact values), the others larger ones (trained on to full
    deals). Within exact labels' reach the first kind picked cards better,
    though the second's errors were smaller (docs/experiments.md)."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    w3: np.ndarray
    b3: np.ndarray
    split: int = 16
    small: int | None = None

    def __post_init__(self):
        if self.small is None:
            object.__setattr__(self, "small", self.members)

    @classmethod
    def load(cls, path=None) -> ValueNet:
        """The weights in ``path`` (an ``.npz`` with w1 b1 w2 b2 w3 b3), by default
        the ones shipped with the package."""
        weights = checks.weight_arrays(
            path, __package__, WEIGHTS_FILE, LAYERS, "value network", ("split", "small")
        )
        return cls.of(weights)

    @classmethod
    def of(cls, weights: dict) -> ValueNet:
        """The network of these arrays (w1 ... b3, optionally split and small),
        checked."""
        arrays = {
            name: np.ascontiguousarray(stacked(weights[name], name), dtype=np.float64)
            for name in LAYERS
        }
        sizes = {name: int(weights[name]) for name in ("split", "small") if name in weights}
        net = cls(**arrays, **sizes)
        net._check()
        return net

    @property
    def members(self) -> int:
        return self.b1.shape[0]

    def _check(self) -> None:
        m, n1, n2 = self.b1.shape[0], self.b1.shape[1], self.b2.shape[1]
        shapes = {
            "w1": (m, k.VALUE_FEATURES, n1),
            "w2": (m, n1, n2),
            "b2": (m, n2),
            "w3": (m, n2, 3),
            "b3": (m, 3),
        }
        if not 0 < self.small <= m or (self.small < m) != (self.split < 16):
            raise CoinsError(
                f"value network: {self.small} small members of {m} for hands of up "
                f"to {self.split} cards do not fit"
            )
        checks.array_shapes(self, shapes, "value network")

    @cached_property
    def kernel_net(self) -> k.Net:
        """What the kernels take: the weights, ``split`` and ``small``."""
        return k.Net(self.w1, self.b1, self.w2, self.b2, self.w3, self.b3, self.split, self.small)

    def value(self, position: Position) -> tuple[float, float, float]:
        """The network's points for seats 0, 1, 2 from a trick boundary (no card on
        the table) to the end of the hand."""
        if position.trick:
            raise CoinsError("the value network reads positions at a trick boundary only")
        out = np.empty(3)
        k._leaf_value(
            np.array(position.hands, dtype=np.int64),
            position.leader,
            self.kernel_net,
            np.empty(k.VALUE_FEATURES),
            out,
        )
        return tuple(float(v) for v in out)


def stack_members(smalls: list[dict], large: dict, split: int) -> dict[str, np.ndarray]:
    """The arrays of one network whose members for up to ``split`` cards a hand are
    every member of ``smalls`` and whose others are ``large``'s members beyond
    its own ``small`` ones (all of them when it has none), zero-padded to the
    small ones' widths, which leaves what they compute unchanged."""
    first_large = int(large["small"]) if "small" in large else 0
    arrays = {}
    for name in LAYERS:
        parts = [stacked(small[name], name) for small in smalls]
        beyond = stacked(large[name], name)[first_large:]
        pad = [(0, 0)] + [(0, a - b) for a, b in zip(parts[0].shape[1:], beyond.shape[1:])]
        arrays[name] = np.concatenate([*parts, np.pad(beyond, pad)])
    members = sum(stacked(small["b1"], "b1").shape[0] for small in smalls)
    return arrays | {"split": np.int64(split), "small": np.int64(members)}


def stacked(array: np.ndarray, name: str) -> np.ndarray:
    """``array`` with a leading ensemble axis (a single network's arrays get one)."""
    single = 1 if name.startswith("b") else 2
    if array.ndim == single:
        return array[None]
    if array.ndim != single + 1:
        raise CoinsError(f"value network: {name} has {array.ndim} dimensions, not {single + 1}")
    return array


# Each thread keeps one path and one table of trick boundaries for the
# depth-limited searches across its searches: entries are keyed by the position
# (ranks renumbered), the needs and the tricks left, and marked with a word for
# what made them, so the searches along a line, or for a hint's many deals,
# reuse them. A thread's table keeps enough boundaries for a search of that many
# cards a hand (7: 2^20 slots, 64 MiB; with 2^18 the 7-card match searches took
# three times the nodes), the largest asked so far.
MOST_TABLE_BITS = 20
_thread = threading.local()
_tables_since = 0
_words: dict[tuple, tuple[int, tuple]] = {}
_words_lock = threading.Lock()
_NO_KEYS = np.zeros((0, k.BOUNDARY_KEY_WORDS), dtype=np.int64)  # a table of no slots
_NO_VALUES = np.zeros((0, 3))


def table_bits(cards_per_hand: int) -> int:
    return max(12, min(MOST_TABLE_BITS, 2 * cards_per_hand + 6))


def limited_path() -> tuple[np.ndarray, np.ndarray]:
    """This thread's per-ply arrays for the depth-limited searches
    (``_kernels.new_limited_path``), made once: every search starts them afresh."""
    path = getattr(_thread, "limited_path", None)
    if path is None:
        path = _thread.limited_path = k.new_limited_path()
    return path


def boundary_table(bits: int | None, word: int) -> k.BoundaryTable:
    """This thread's table of trick boundaries, of at least 2^``bits`` slots (made
    anew, empty, when it was smaller or ``forget_tables`` was called), its
    entries marked ``word`` (``table_word``); ``bits`` None: no table."""
    if bits is None:
        return k.BoundaryTable(_NO_KEYS, _NO_VALUES, word)
    table = getattr(_thread, "table", None)
    if table is None or len(table[0]) < 2**bits or _thread.since != _tables_since:
        table = _thread.table = (
            np.zeros((2**bits, k.BOUNDARY_KEY_WORDS), dtype=np.int64),
            np.zeros((2**bits, 3)),
        )
        _thread.since = _tables_since
    return k.BoundaryTable(*table, word)


def forget_tables() -> None:
    """Start every thread's table of trick boundaries afresh at its next search:
    for measurements whose node counts must not depend on which thread
    searched what before."""
    global _tables_since
    _tables_since += 1


def table_word(*makers) -> int:
    """The word that marks table entries made with these objects and values (a
    network, a softness, a table of chances ...): entries made with others
    never match."""
    key = tuple(m if isinstance(m, (int, float)) else id(m) for m in makers)
    with _words_lock:
        if key not in _words:
            _words[key] = (len(_words) + 1, makers)  # keeps them alive: ids stay unique
        return _words[key][0]


@cache
def default_net() -> ValueNet:
    """The shipped network, loaded once."""
    return ValueNet.load()


@cache
def default_committee() -> tuple[ValueNet, ...]:
    """The shipped network, then the networks that vote with it
    (``analysis.estimate``): each of the files in ``committee/`` values hands
    of up to the shipped network's ``split`` cards with its own members, larger
    ones with the shipped members."""
    shipped = default_net()
    large = {name: getattr(shipped, name) for name in LAYERS} | {"small": shipped.small}
    files = sorted(
        file.name
        for file in resources.files(__package__).joinpath(COMMITTEE_DIR).iterdir()
        if file.name.endswith(".npz")
    )
    voters = []
    for name in files:
        small = checks.weight_arrays(
            None, __package__, f"{COMMITTEE_DIR}/{name}", LAYERS, "value network"
        )
        voters.append(ValueNet.of(stack_members([small], large, shipped.split)))
    return (shipped, *voters)


def search_card_results(
    position: Position,
    tricks: int,
    max_nodes: int | None = None,
    *,
    cards: list[Card] | None = None,
    net: ValueNet | None = None,
    threads: int = 1,
    deadline: float | None = None,
    softness: float = SOFTNESS,
    whole_points: bool = False,
) -> tuple[dict[Card, list[float]], int]:
    """Every card of the mover (or only ``cards``, and the cards equivalent to
    them) with the three seats' estimated points after it (from the position
    on), searching ``tricks`` tricks (the current one counts) and valuing the
    rest with the network; and the nodes searched. Below the root, a choice
    the network decides is soft by ``softness`` points (0: the hard max^n
    choice). ``whole_points`` rounds the network's points to whole ones
    (``_kernels.whole_points``), so that a hard choice meets ties as the exact
    search does.

    Cards of a run of equivalents share one search. ``threads`` shares the
    root cards out; ``max_nodes`` (each thread its share) and ``deadline`` (a
    ``time.perf_counter()`` value) bound the search: when either runs out it
    raises BudgetExhausted. Ctrl-C stops it as it stops ``solve``.
    """
    if position.is_terminal:
        raise CoinsError("the hand is over: there is no card to value")
    if isinstance(tricks, bool) or not isinstance(tricks, int) or tricks < 1:
        raise CoinsError(f"tricks must be a whole number of tricks from 1, not {tricks!r}")
    softness = checks.points(softness, "softness")
    if not isinstance(whole_points, bool):
        raise CoinsError(f"whole_points must be True or False, not {whole_points!r}")
    net = net or default_net()
    root = k.root_array(position.hands, position.leader, position.trick)
    hand = position.hands[position.to_move]
    live = position.hands[0] | position.hands[1] | position.hands[2] | position.trick_mask
    representatives = np.empty(16, dtype=np.int64)
    count = k.move_representatives(hand, live, representatives)
    representatives = representatives[:count]
    if cards is not None:
        if any(not hand >> int(card) & 1 for card in cards):
            raise CoinsError(f"cards {' '.join(map(str, cards))}: not all held by the seat to move")
        wanted = {k.representative_of(int(card), hand, live) for card in cards}
        representatives = np.array([r for r in representatives if r in wanted], dtype=np.int64)
        count = len(representatives)
    threads = max(1, min(threads, count))
    stats = np.zeros((threads, k.LIMITED_STATS), dtype=np.int64)
    word = table_word(net, softness, whole_points)
    bits = table_bits(min(position.cards_per_hand, tricks + 3)) if tricks > 1 else None
    shares = [np.ascontiguousarray(representatives[t::threads]) for t in range(threads)]
    parts = [np.zeros((len(share), 3)) for share in shares]

    def search(t: int, budget: int, stop: np.ndarray) -> int:
        found = k.estimate_search(
            k.SearchRoot(root, tricks, shares[t], len(shares[t])),
            net.kernel_net,
            softness,
            whole_points,
            boundary_table(bits, word),
            *limited_path(),
            budget,
            stop,
            parts[t],
            stats[t],
        )
        if found == k.ABORTED:
            stop[0] = 1  # the others' results would be of no use
        return found

    answers = run_searches(search, threads, max_nodes, deadline)
    nodes = int(stats[:, k.STAT_NODES].sum())
    if k.ABORTED in answers:
        raise BudgetExhausted
    by_representative = {}
    for share, part in zip(shares, parts):
        for card, result in zip(share, part):
            by_representative[int(card)] = [float(v) for v in result]
    results = {}
    for card in position.legal_cards():
        representative = int(k.representative_of(card, hand, live))
        if representative in by_representative:
            results[card] = list(by_representative[representative])
    return results, nodes
