"""Match-aware values: each seat's chance of winning the match (RULES.md, "Values
of a position in a match").

``solve_match(position, target, scores)`` finds them exactly, with every
card's three chances for the seat to move and the line every seat plays for
the match, by the compiled ``_kernels.match_search`` searched to the end of
the hand (the next-hands table, ``next_hands``, beyond it). ``card_chances``
is the search itself; with ``tricks`` it stops after that many tricks and
turns the value network's points (``evaluator``) into chances at the trick
boundaries where it stops: the match-aware twin of
``evaluator.search_card_results``, an estimate for positions beyond exact
reach (``analysis.estimate`` and ``analysis.hint`` use it).

Each thread keeps one table of trick boundaries across its searches: its
entries are keyed by the position (ranks renumbered), the needs and the
tricks left to search, so the searches along a line, or for a hint's many
deals, reuse them. How far exact searches reach: ``benchmarks/for_the_match.py``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from . import _kernels as k
from . import checks
from .cards import Card
from .errors import CoinsError
from .evaluator import (
    ValueNet,
    boundary_table,
    default_net,
    limited_path,
    table_bits,
    table_word,
)
from .match import MatchState, check_match
from .next_hands import NextHands, default_table
from .position import Position
from .threads import BudgetExhausted, run_searches


@dataclass
class MatchValues:
    """What ``solve_match`` found. ``chances[s]``: seat s's chance of winning the
    match when every seat plays for it; ``card_chances``: for each card the
    mover holds, the three seats' chances after it; ``line``: the cards every
    seat plays for the match, to the end of the hand or to the trick that
    ends the match. When a budget cut the search short, ``exact`` is False
    and what was not finished is None or empty (never a guess)."""

    position: Position
    state: MatchState
    chances: list[float] | None = None
    card_chances: dict[Card, list[float]] = field(default_factory=dict)
    line: list[Card] = field(default_factory=list)
    exact: bool = True
    nodes: int = 0
    seconds: float = 0.0

    @property
    def to_move(self) -> int:
        return self.position.to_move

    @property
    def best(self) -> Card | None:
        """The card the mover plays for the match (None: not found, or the hand is over)."""
        return preferred(self.card_chances, self.to_move) if self.card_chances else None

    def to_json(self) -> dict:
        def rounded(values):
            return [round(v, 6) for v in values]

        return {
            **self.state.to_json(),
            "chances": None if self.chances is None else rounded(self.chances),
            "card_chances": {str(c): rounded(v) for c, v in self.card_chances.items()},
            "best": None if self.best is None else str(self.best),
            "line": [str(c) for c in self.line],
            "exact": self.exact,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


def preferred(card_chances: dict[Card, list[float]], mover: int) -> Card:
    """The card RULES.md's mover plays from each card's chances: the largest own
    chance, then the smallest larger opponent's chance (both rounded to
    ``CHANCE_DECIMALS`` decimals), then the first in index order."""
    best = None
    for card in card_chances:
        if best is None or k.prefers_chances(
            mover, *card_chances[card], card, *card_chances[best], best
        ):
            best = card
    return best


def card_chances(
    position: Position,
    state: MatchState,
    tricks: int | None = None,
    max_nodes: int | None = None,
    *,
    deadline: float | None = None,
    net: ValueNet | None = None,
    next_hands: NextHands | None = None,
) -> tuple[dict[Card, list[float]], int]:
    """Every card of the mover with the three seats' chances of winning the match
    after it, and the nodes searched: exact with ``tricks`` None, else searched
    for ``tricks`` tricks (the current one counts) with the network's points
    turned into chances beyond (see ``_kernels._points_to_chances``).

    ``max_nodes`` and ``deadline`` (a ``time.perf_counter()`` value) bound
    the search: when either runs out it raises BudgetExhausted. Ctrl-C
    stops it as it stops ``solve``.
    """
    if not isinstance(position, Position):
        raise CoinsError(f"expected a Position, not {type(position).__name__}")
    if state is None:
        raise CoinsError("card_chances needs the match: a MatchState")
    check_match(state, position.taken)
    if position.is_terminal:
        raise CoinsError("the hand is over: there is no card to value")
    if tricks is not None:
        tricks = checks.whole_number(tricks, "tricks", 1, k.TO_THE_END - 1)
    max_nodes = checks.node_limit(max_nodes)
    next_hands = next_hands or default_table()
    net = net or default_net()
    most = next_hands.most + 12  # beyond this a need changes nothing the search reads
    needs = np.array([min(n, most) for n in state.needs(position.taken)], dtype=np.int64)
    root = k.root_array(position.hands, position.leader, position.trick)
    hand = position.hands[position.to_move]
    live = position.hands[0] | position.hands[1] | position.hands[2] | position.trick_mask
    roots = np.empty(16, dtype=np.int64)
    count = k.move_representatives(hand, live, roots)
    depth = k.TO_THE_END if tricks is None else tricks
    results = np.zeros((count, 3))
    stats = np.zeros(k.LIMITED_STATS, dtype=np.int64)
    word = table_word(next_hands, net)
    bits = table_bits(min(position.cards_per_hand, depth + 3)) if depth > 1 else None

    def search(thread: int, budget: int, stop: np.ndarray) -> int:
        return k.match_search(
            k.SearchRoot(root, depth, roots, count),
            net.kernel_net,
            k.MatchArgs(needs, next_hands.chances),
            boundary_table(bits, word),
            *limited_path(),
            budget,
            stop,
            results,
            stats,
        )

    (found,) = run_searches(search, 1, max_nodes, deadline)
    if found == k.ABORTED:
        raise BudgetExhausted
    by_root = {int(card): [float(v) for v in row] for card, row in zip(roots[:count], results)}
    chances = {
        card: list(by_root[int(k.representative_of(card, hand, live))])
        for card in position.legal_cards()
    }
    return chances, int(stats[k.STAT_NODES])


def solve_match(
    position: Position | str,
    target: int,
    scores=(0, 0, 0),
    max_nodes: int | None = None,
    time_limit: float | None = None,
    card_chances: bool = True,
    line: bool = True,
    *,
    next_hands: NextHands | None = None,
) -> MatchValues:
    """Each seat's chance of winning the match to ``target`` from ``position``,
    ``scores`` being the match scores when the hand began (the position's
    ``taken`` adds to them), exactly (RULES.md, "Values of a position in a
    match"); with every card's three chances for the mover (``card_chances``)
    and the line every seat plays for the match (``line``).

    ``max_nodes`` and ``time_limit`` (seconds) bound the work; when either
    runs out the result is not exact and holds only what was finished.
    ``next_hands`` lends another table of the next hands.
    """
    if isinstance(position, str):
        position = Position.parse(position)
    elif not isinstance(position, Position):
        raise CoinsError(
            f"solve_match() takes a Position or its text, not {type(position).__name__}"
        )
    state = MatchState(target, tuple(scores))
    state.needs(position.taken)  # refused at once if the match is over
    max_nodes, time_limit = checks.node_limit(max_nodes), checks.time_limit(time_limit)
    next_hands = next_hands or default_table()
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    result = MatchValues(position, state)
    if position.is_terminal:
        result.chances = list(next_hands.chances_of(state.needs(position.taken), position.leader))
        return result
    try:
        found, nodes = _card_chances(position, state, max_nodes, deadline, next_hands)
        result.nodes += nodes
        mover = position.to_move
        result.chances = list(found[preferred(found, mover)])
        if card_chances:
            result.card_chances = found
        if line:
            result.line = _line(position, state, found, result, max_nodes, deadline, next_hands)
    except BudgetExhausted:
        result.exact = False
    result.seconds = time.perf_counter() - start
    return result


def _card_chances(position, state, max_nodes, deadline, next_hands, spent=0):
    left = None if max_nodes is None else max_nodes - spent
    if left is not None and left <= 0:
        raise BudgetExhausted
    return card_chances(position, state, None, left, deadline=deadline, next_hands=next_hands)


def _line(position, state, found, result, max_nodes, deadline, next_hands) -> list[Card]:
    """The cards every seat plays for the match from ``position`` (whose cards'
    chances are ``found``), until the hand or the match ends."""
    played = []
    while True:
        card = preferred(found, position.to_move)
        played.append(card)
        position = position.play(card)
        if (
            position.is_terminal
            or max(s + t for s, t in zip(state.scores, position.taken)) >= state.target
        ):
            return played
        found, nodes = _card_chances(position, state, max_nodes, deadline, next_hands, result.nodes)
        result.nodes += nodes
