"""``review``: what every card of a record of play cost its player.

With every hand visible (RULES.md "Values the solver reports"), for each card:

- max^n cost: the most own points any card gives the mover when everyone
  then plays for themselves, minus the own points after the card it played;
- paranoid cost (where proven): the mover's guaranteed value (that of its
  best card) minus the guaranteed value after the card it played.

Both are 0 for a best card and never negative. The costs count points from
that decision to the end of the hand, so a seat's costs can add up to more
than the points it actually lost: later mistakes are measured from the
position the earlier ones left.

A whole hand is reviewed from its last card backward: the last tricks are
solved exactly in milliseconds, and the exact searches go on toward the
start while each finishes within its share of the budget. Decisions beyond
that are estimated (``analysis.estimate``), marked so, and have no paranoid
cost. A budget that runs out leaves the first cards unreviewed and says
which (``missing``).

With ``seat``: at each of that seat's decisions, also the cost with what
the player knew (``KnownCost``): the hint from its view at that moment (its
own hand and the cards played so far) says how far, on the deals it could
not rule out, its card fell behind the best one. A card that was right on
what the player knew but unlucky in the real deal is not a mistake, so
that seat's labels come from this cost.

Labels (``LABELS``): a cost of at least 0.3 points is an inaccuracy, 0.7 a
mistake and 1.5 a blunder. With every hand open costs are whole points (0:
none, 1: a mistake, 2 or more: a blunder), so an estimated one is read as
the whole number nearest it (``ESTIMATE_TIE``); a cost with what the player
knew is an expectation over deals, and a hint's tie is no label. A seat's
accuracy is the share of its choices (decisions where its cards did not all
give the same) in which its card earned no label.

With a ``match`` (``solver.MatchState``), a further cost: the mover's best
chance of winning the match minus its chance after the card it played
(RULES.md, "Values of a position in a match"), for every card until a seat
reaches the target.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from solver import CoinsError, MatchState, Position, checks
from solver.cards import HAND_SIZE, SEATS, Card
from solver.match import check_match
from solver.match_values import preferred
from solver.record import Record

from ._common import (
    Budget,
    BudgetSpent,
    Interrupted,
    card_list,
    moves_along,
    points_won,
    preferred_card,
    read_record,
)
from .drawing import pyplot, writing
from .estimate import ESTIMATE_TIE, estimate, tied_cards
from .hint import MAX_SAMPLES, hint
from .reach import EXACT_REACH

# The least cost (points from the decision on) of each label, largest first.
LABELS = (("blunder", 1.5), ("mistake", 0.7), ("inaccuracy", 0.3))
# With no time limit: the most one decision's exact search may take before the
# review estimates it and every decision before it, and the time of each estimate
# and of each hint of the reviewed seat.
EXACT_SECONDS = 3.0
ESTIMATE_SECONDS = 0.5
HINT_SECONDS = 0.5


def label_of(cost: float) -> str | None:
    """The label a cost earns, or None below the inaccuracy threshold."""
    return next((name for name, least in LABELS if cost >= least - 1e-9), None)


@dataclass
class KnownCost:
    """A card's cost with what its player knew, from the hint at that moment:
    ``cost`` is the best card's mean lead over it on the same sampled deals
    (points from the decision on), with its ``stderr``; ``tied`` when that
    lead is within the noise; ``best`` the hint's best card and those tied
    with it; ``choice`` False when every card was tied (nothing to choose)."""

    cost: float
    stderr: float | None
    tied: bool
    best: list[Card]
    samples: int
    choice: bool

    @property
    def label(self) -> str | None:
        return None if self.tied else label_of(self.cost)

    def to_json(self) -> dict:
        return {
            "cost": round(self.cost, 3),
            "stderr": None if self.stderr is None else round(self.stderr, 3),
            "tied": self.tied,
            "best": card_list(self.best),
            "samples": self.samples,
            "label": self.label,
        }


@dataclass
class MoveReview:
    """One card of the record and what it cost. ``number`` is its move number
    (1 = the first card after ``|``); ``taken`` is the running score after it.

    ``card_results``: every card the mover held with the three seats' max^n
    points after it, exact (whole numbers) or, when ``estimated``, estimates.
    ``card_values``: every card's guaranteed value for the mover, None where
    not proven. ``known``: the cost with what the player knew (reviewed seat only).
    """

    number: int
    trick: int
    seat: int
    position: Position  # before the card
    card: Card
    card_results: dict[Card, tuple]
    estimated: bool
    taken: list[int]
    trick_winner: int | None = None
    trick_points: int = 0
    card_values: dict[Card, int] | None = None
    guaranteed: int | None = None  # the mover's guaranteed value before the card
    chances: list[float] | None = None  # with a match: the seats' chances after the card
    best_chance: float | None = None  # the mover's best chance of winning the match
    match_best: list[Card] = field(default_factory=list)
    chances_estimated: bool = False
    known: KnownCost | None = None

    @property
    def result(self) -> tuple:
        """max^n: the three seats' points after the card played."""
        return self.card_results[self.card]

    @property
    def best_own(self) -> float:
        """The most own points any card gives the mover (max^n)."""
        return max(r[self.seat] for r in self.card_results.values())

    @property
    def maxn_best(self) -> list[Card]:
        """The cards that give the most own points (for an estimate, those less than
        ``ESTIMATE_TIE`` behind it: they round to no cost)."""
        return tied_cards(self.card_results, self.seat, self.estimated)

    @property
    def maxn_cost(self) -> float:
        return self.best_own - self.result[self.seat]

    @property
    def value(self) -> int | None:
        """The mover's guaranteed value after the card (None: not proven)."""
        return None if self.card_values is None else self.card_values[self.card]

    @property
    def paranoid_cost(self) -> int | None:
        return None if self.card_values is None else self.guaranteed - self.value

    @property
    def paranoid_optimal(self) -> list[Card]:
        if self.card_values is None:
            return []
        return [c for c, v in self.card_values.items() if v == self.guaranteed]

    @property
    def match_cost(self) -> float | None:
        """The chance of winning the match the card gave up (None: no match values)."""
        return None if self.chances is None else self.best_chance - self.chances[self.seat]

    @property
    def open_label(self) -> str | None:
        """The label of the max^n cost with every hand visible (an estimate's read as
        the whole number of points nearest it)."""
        return label_of(math.floor(self.maxn_cost + 0.5) if self.estimated else self.maxn_cost)

    @property
    def label(self) -> str | None:
        """The decision's label: by what the player knew where that was reviewed,
        else by the max^n cost with every hand visible."""
        return self.known.label if self.known is not None else self.open_label

    @property
    def choice(self) -> bool:
        """Did the mover's cards not all give the same (to within the noise)?"""
        if self.known is not None:
            return self.known.choice
        own = [r[self.seat] for r in self.card_results.values()]
        return max(own) - min(own) >= (ESTIMATE_TIE if self.estimated else 1) - 1e-9

    @property
    def expected(self) -> list[float]:
        """Each seat's points for the hand as the equilibrium plays on from before
        the card: the points taken so far plus the best card's max^n result."""
        before = self.position.taken
        best = self.card_results[preferred_card(self.card_results, self.seat)]
        return [t + v for t, v in zip(before, best)]

    def to_json(self) -> dict:
        def number(v):
            return v if isinstance(v, int) else round(v, 3)

        match = (
            {}
            if self.chances is None
            else {
                "match": {
                    "best_chance": round(self.best_chance, 6),
                    "chances": [round(c, 6) for c in self.chances],
                    "cost": round(self.match_cost, 6),
                    "best": card_list(self.match_best),
                    "estimated": self.chances_estimated,
                }
            }
        )
        paranoid = (
            None
            if self.card_values is None
            else {
                "guaranteed": self.guaranteed,
                "value": self.value,
                "cost": self.paranoid_cost,
                "optimal": card_list(self.paranoid_optimal),
                "cards": {str(c): v for c, v in self.card_values.items()},
            }
        )
        return match | {
            "number": self.number,
            "trick": self.trick,
            "seat": self.seat,
            "position": str(self.position),
            "card": str(self.card),
            "estimated": self.estimated,
            "paranoid": paranoid,
            "maxn": {
                "best_own": number(self.best_own),
                "own": number(self.result[self.seat]),
                "result": [number(v) for v in self.result],
                "cost": number(self.maxn_cost),
                "best": card_list(self.maxn_best),
                "cards": {str(c): [number(v) for v in r] for c, r in self.card_results.items()},
            },
            "known": None if self.known is None else self.known.to_json(),
            "label": self.label,
            "choice": self.choice,
            "expected": [number(v) for v in self.expected],
            "taken": list(self.taken),
            "trick_winner": self.trick_winner,
            "trick_points": self.trick_points,
        }


@dataclass
class SeatSummary:
    """One seat's cards over the record: points lost in each mode (the sum of
    its costs; the paranoid sum over the proven ones only), how many of its
    max^n costs were estimated, its labels, its accuracy and its biggest
    mistake in each mode (None when it made none)."""

    seat: int
    moves: int = 0
    paranoid_lost: int = 0
    maxn_lost: float = 0
    estimated: int = 0
    known_lost: float = 0.0  # the reviewed seat: the sum of its costs with what it knew
    paranoid_mistakes: int = 0
    maxn_mistakes: int = 0
    choices: int = 0
    labels: dict[str, int] = field(default_factory=lambda: {name: 0 for name, _ in LABELS})
    biggest_paranoid: MoveReview | None = None
    biggest_maxn: MoveReview | None = None
    match_lost: float = 0.0  # with a match: the chances of winning it given up
    biggest_match: MoveReview | None = None

    @property
    def accuracy(self) -> float | None:
        """Percent of the seat's choices that earned no label (None: no choices)."""
        if not self.choices:
            return None
        return 100 * (self.choices - sum(self.labels.values())) / self.choices

    def add(self, move: MoveReview) -> None:
        self.moves += 1
        self.maxn_lost += move.maxn_cost
        self.estimated += move.estimated
        self.maxn_mistakes += move.maxn_cost >= (ESTIMATE_TIE if move.estimated else 1) - 1e-9
        if move.known is not None:
            self.known_lost += move.known.cost
        if move.choice:
            self.choices += 1
            if move.label is not None:
                self.labels[move.label] += 1
        if move.paranoid_cost is not None:
            self.paranoid_lost += move.paranoid_cost
            self.paranoid_mistakes += move.paranoid_cost > 0
            if move.paranoid_cost > 0 and (
                self.biggest_paranoid is None
                or move.paranoid_cost > self.biggest_paranoid.paranoid_cost
            ):
                self.biggest_paranoid = move
        if move.open_label is not None and (
            self.biggest_maxn is None or move.maxn_cost > self.biggest_maxn.maxn_cost
        ):
            self.biggest_maxn = move
        cost = move.match_cost
        if cost is not None and round(cost, 9) > 0:
            self.match_lost += cost
            if self.biggest_match is None or cost > self.biggest_match.match_cost:
                self.biggest_match = move

    def to_json(self) -> dict:
        def biggest(move, cost):
            return (
                None
                if move is None
                else {"number": move.number, "card": str(move.card), "cost": cost(move)}
            )

        def number(v):
            return v if isinstance(v, int) else round(v, 3)

        return {
            "seat": self.seat,
            "moves": self.moves,
            "paranoid_lost": self.paranoid_lost,
            "maxn_lost": number(self.maxn_lost),
            "estimated": self.estimated,
            "known_lost": round(self.known_lost, 3),
            "paranoid_mistakes": self.paranoid_mistakes,
            "maxn_mistakes": self.maxn_mistakes,
            "choices": self.choices,
            "labels": dict(self.labels),
            "accuracy": None if self.accuracy is None else round(self.accuracy, 1),
            "biggest_paranoid": biggest(self.biggest_paranoid, lambda m: m.paranoid_cost),
            "biggest_maxn": biggest(self.biggest_maxn, lambda m: number(m.maxn_cost)),
            "match_lost": round(self.match_lost, 6),
            "biggest_match": biggest(self.biggest_match, lambda m: round(m.match_cost, 6)),
        }


@dataclass
class Review:
    """What ``review`` found: one ``MoveReview`` per card reviewed (in the order
    played), a summary per seat, the final score. ``missing``: the numbers of
    the cards the budget left unreviewed (the first ones: the review works
    backward); ``exact``: every card reviewed and every max^n cost proven;
    ``interrupted``: Ctrl-C or a cancel stopped it; ``seat``: the seat
    reviewed with what it knew, or None."""

    position: Position
    cards: list[Card]
    moves: list[MoveReview] = field(default_factory=list)
    summary: list[SeatSummary] = field(default_factory=list)
    missing: list[int] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    match: MatchState | None = None
    seat: int | None = None
    interrupted: bool = False

    @property
    def complete(self) -> bool:
        return not self.missing

    @property
    def exact(self) -> bool:
        return self.complete and not any(m.estimated for m in self.moves)

    @property
    def record(self) -> str:
        return f"{self.position} | {' '.join(card_list(self.cards))}".rstrip()

    @property
    def final(self) -> Position:
        position = self.position
        for card in self.cards:
            position = position.play(card)
        return position

    def to_json(self) -> dict:
        final = self.final
        return ({"match": self.match.to_json()} if self.match else {}) | {
            "record": self.record,
            "seat": self.seat,
            "labels": {name: least for name, least in LABELS},
            "moves": [m.to_json() for m in self.moves],
            "summary": [s.to_json() for s in self.summary],
            "missing": list(self.missing),
            "taken": list(final.taken),
            "hand_over": final.is_terminal,
            "complete": self.complete,
            "exact": self.exact,
            "estimated": sum(m.estimated for m in self.moves),
            "interrupted": self.interrupted,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


def review(
    record: Record | str,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    *,
    match: MatchState | None = None,
    seat: int | None = None,
    exact_cards: int = HAND_SIZE,
    samples: int | None = None,
    seed: int = 0,
    progress: Callable[[str], None] | None = None,
    reviewed: Callable[[MoveReview], None] | None = None,
) -> Review:
    """Review a record of play (its RULES.md text ``POSITION | c1 c2 ...`` or a
    Record): every card's cost to its player (see the module docs), the
    running score, and a summary per seat; with ``seat``, that seat's
    decisions also with what it knew (hints drawn from ``seed``, each of
    ``samples`` deals when given, with no time limit: reproducible);
    ``exact_cards``: estimate every decision with more cards a hand; with a
    ``match`` (the target, and the scores when the record's hand began), the
    chances of winning it each card gave up too.

    A bad record raises a ``CoinsError`` naming the move number.
    ``max_nodes`` and ``time_limit`` bound the whole review (with neither, a
    full hand takes some 20-40 s on two cores). ``progress`` is told what is
    being reviewed, ``reviewed`` gets each card's review as it is finished
    (last card first). Ctrl-C raises ``Interrupted`` with what was done.

    >>> r = review("7...2 K.3.. J.6.. 0 - 0,1,0 | 2B 3O JC")
    >>> [(m.card, m.paranoid_cost, m.maxn_cost) for m in r.moves]
    [(Card('2B'), 0, 0), (Card('3O'), 0, 0), (Card('JC'), 2, 2)]
    """
    record = read_record(record)
    check_match(match, record.start.taken)
    if seat is not None and (isinstance(seat, bool) or seat not in range(SEATS)):
        raise CoinsError(f"seat must be 0, 1 or 2, not {seat!r}")
    exact_cards = checks.whole_number(exact_cards, "exact_cards", 0, HAND_SIZE)
    if samples is not None:
        samples = checks.whole_number(samples, "samples", 1, MAX_SAMPLES)
    reviewer = _Reviewer(
        Budget(max_nodes, time_limit), record, match, seat, exact_cards, samples, seed
    )
    result = Review(record.start, list(record.moves), match=match, seat=seat)
    steps = list(moves_along(record.start, record.moves))
    done: dict[int, MoveReview] = {}
    try:
        for index in range(len(steps) - 1, -1, -1):
            number, trick, position, card = steps[index]
            if progress is not None:
                progress(
                    f"move {number} of {len(steps)}, seat {position.to_move} ({len(done)} reviewed)"
                )
            units = index + 1 + sum(p.to_move == seat for _, _, p, _ in steps[: index + 1])
            done[number] = reviewer.move(number, trick, position, card, units)
            if reviewed is not None:
                reviewed(done[number])
    except BudgetSpent:
        pass
    except KeyboardInterrupt:
        result.interrupted = True
    result.moves = [done[n] for n in sorted(done)]
    result.missing = [number for number, *_ in steps if number not in done]
    result.summary = [SeatSummary(s) for s in range(SEATS)]
    for move in result.moves:
        result.summary[move.seat].add(move)
    result.nodes = reviewer.budget.nodes
    result.seconds = reviewer.budget.seconds
    if result.interrupted:
        raise Interrupted(result)
    return result


class _Reviewer:
    """One review's budget and which exact searches still fit in it: going
    backward the positions only grow, so a search that did not fit is not
    tried again."""

    def __init__(
        self,
        budget: Budget,
        record: Record,
        match: MatchState | None,
        seat: int | None,
        exact_cards: int,
        samples: int | None,
        seed: int,
    ):
        self.budget = budget
        self.exact_cards = exact_cards
        self.record = record
        self.match = match
        self.seat = seat
        self.samples = samples
        self.seed = seed
        self.exact = {"maxn": True, "paranoid": True, "match": True}

    def move(self, number: int, trick: int, position: Position, card: Card, units: int):
        """Review the card played at ``number``; ``units`` is the work left, this
        one's included (a decision, and a hint for the reviewed seat's)."""
        self.budget.check()
        results, estimated, values = self._open_values(position, units)
        after = position.play(card)
        winner, points = points_won(position, after)
        move = MoveReview(
            number,
            trick,
            position.to_move,
            position,
            card,
            results,
            estimated,
            list(after.taken),
            winner,
            points,
        )
        if values is not None:
            move.card_values = values.card_values
            move.guaranteed = values.guaranteed[move.seat]
        if (
            self.match is not None
            and min(self.match.target - s - t for s, t in zip(self.match.scores, position.taken))
            > 0
        ):
            self._chances(move, units)
        if move.seat == self.seat:
            move.known = self._known(number, card, units)
        return move

    def _exact(self, kind: str, position: Position, search, units: int):
        """``search(budget)`` within a share of the budget, or None when it did not
        fit (and the kind is not tried again)."""
        if not self.exact[kind] or position.cards_per_hand > self.exact_cards:
            return None
        share = self.budget.share(units, EXACT_SECONDS)
        try:
            return search(share)
        except BudgetSpent:
            self.exact[kind] = False
            return None
        finally:
            self.budget.nodes += share.nodes

    def _open_values(self, position: Position, units: int):
        """Every card's max^n results (exact, else estimated), whether estimated,
        and the paranoid result for the mover where it is proven."""
        maxn = self._exact("maxn", position, lambda b: b.maxn(position, line=False), units)
        if maxn is None:
            guess = estimate(position, self.budget.estimate_seconds(ESTIMATE_SECONDS, units))
            self.budget.nodes += guess.nodes
            return guess.card_results, not guess.exact, None
        mover = position.to_move
        values = self._exact(
            "paranoid", position, lambda b: b.paranoid(position, (mover,), line=False), units
        )
        results = {c: tuple(r) for c, r in maxn.card_results.items()}
        return results, False, values

    def _chances(self, move: MoveReview, units: int) -> None:
        position, match = move.position, self.match
        found = None
        if position.cards_per_hand <= EXACT_REACH.decision_chances:
            found = self._exact("match", position, lambda b: b.match(position, match), units)
        if found is not None:
            chances = found.card_chances
        else:
            guess = estimate(
                position, self.budget.estimate_seconds(ESTIMATE_SECONDS, units), match=match
            )
            self.budget.nodes += guess.nodes
            chances, move.chances_estimated = guess.card_results, not guess.exact
        move.chances = list(chances[move.card])
        move.best_chance = chances[preferred(chances, move.seat)][move.seat]
        move.match_best = [
            c for c, v in chances.items() if round(v[move.seat], 9) == round(move.best_chance, 9)
        ]

    def _known(self, number: int, card: Card, units: int) -> KnownCost:
        """The hint from the mover's view before card ``number``: how far its card
        fell behind the best on the deals the seat could not rule out."""
        view = Record.of(self.record.start, self.record.moves[: number - 1]).view(self.seat)
        seconds = self.budget.estimate_seconds(HINT_SECONDS, units)
        if self.samples is None:
            found = hint(view, time_limit=seconds, seed=self.seed + number)
        else:
            found = hint(view, self.samples, time_limit=0, seed=self.seed + number)
        played = next(entry for entry in found if entry.card == card)
        tied = found.tied
        return KnownCost(
            played.behind,
            played.behind_stderr,
            played.tied,
            [entry.card for entry in tied],
            found.samples,
            len(tied) < len(found),
        )


def plot_review(result: Review, path: str) -> str:
    """Draw the hand's evaluation curve to ``path`` (PNG, SVG or PDF by its
    extension): each seat's expected points for the hand before every card
    reviewed (``MoveReview.expected``), the stretch whose values are
    estimated shaded, and every marked card on its seat's curve (the
    reviewed seat's larger). Needs matplotlib (``pip install ".[plots]"``)."""
    plt = pyplot()
    figure, axis = plt.subplots(figsize=(10, 4))
    numbers = [m.number for m in result.moves]
    for seat in range(SEATS):
        axis.plot(
            numbers,
            [m.expected[seat] for m in result.moves],
            marker=".",
            label=f"seat {seat}" + (" (reviewed)" if seat == result.seat else ""),
        )
    colours = [line.get_color() for line in axis.get_lines()]
    for move in result.moves:
        if move.label is not None:
            size = 12 if move.seat == result.seat else 8
            axis.plot(
                move.number,
                move.expected[move.seat],
                MARKERS[move.label],
                markersize=size,
                color=colours[move.seat],
                markeredgecolor="black",
            )
            axis.annotate(
                f"{move.card}{MARKS[move.label]}",
                (move.number, move.expected[move.seat]),
                textcoords="offset points",
                xytext=(0, 8),
                ha="center",
                fontsize=8,
            )
    estimated = [m.number for m in result.moves if m.estimated]
    if estimated:
        axis.axvspan(
            min(estimated) - 0.5, max(estimated) + 0.5, color="0.9", zorder=0, label="estimated"
        )
    if result.missing:
        axis.axvspan(
            min(result.missing) - 0.5,
            max(result.missing) + 0.5,
            color="0.75",
            hatch="//",
            fill=False,
            zorder=0,
            label="not reviewed",
        )
    axis.set_xlim(0.5, len(result.cards) + 0.5)
    axis.set_xlabel("card played (move number)")
    axis.set_ylabel("expected points of the hand")
    axis.set_title(
        "Each seat's points as the equilibrium plays on from each card "
        "(marks: ?! inaccuracy, ? mistake, ?? blunder)"
    )
    axis.legend(loc="upper left", fontsize=8)
    figure.tight_layout()
    with writing():
        figure.savefig(path, dpi=100)
    plt.close(figure)
    return path


MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}  # as chess annotates moves
MARKERS = {"inaccuracy": "o", "mistake": "s", "blunder": "X"}


__all__ = [
    "LABELS",
    "MARKS",
    "KnownCost",
    "MoveReview",
    "Review",
    "SeatSummary",
    "label_of",
    "plot_review",
    "review",
]
