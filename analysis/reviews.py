"""``review``: what every card of a record of play cost its player, in both modes.

For each card played, with every hand visible (RULES.md "Values the solver
reports"):

- paranoid cost: the mover's guaranteed value (that of its best card) minus
  the guaranteed value after the card it played;
- max^n cost: the most own points any card gives the mover when everyone
  then plays for themselves, minus the own points after the card it played.

Both are 0 for a best card and never negative. The costs count points from
that decision to the end of the hand, so a seat's costs can add up to more
than the points it actually lost: later mistakes are measured from the
position the earlier ones left.

With a ``match`` (``solver.MatchState``), a third cost: the mover's best
chance of winning the match minus its chance after the card it played
(RULES.md, "Values of a position in a match"), for every card until a seat
reaches the target.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from solver import MatchState, Position
from solver.cards import SEATS, Card
from solver.match import check_match
from solver.record import Record
from solver.winning import preferred

from ._common import (
    Budget,
    BudgetSpent,
    card_list,
    moves_along,
    points_won,
    read_record,
)


@dataclass
class MoveReview:
    """One card of the record and what it cost. ``number`` is its move number
    (1 = the first card after ``|``); ``taken`` is the running score after it."""

    number: int
    trick: int
    seat: int
    position: Position  # before the card
    card: Card
    guaranteed: int  # the mover's guaranteed value before the card
    value: int  # its guaranteed value after the card
    paranoid_optimal: list[Card]
    result: list[int]  # max^n: the three seats' points after the card
    best_own: int  # the most own points any card gives the mover (max^n)
    maxn_best: list[Card]
    taken: list[int]
    trick_winner: int | None = None
    trick_points: int = 0
    chances: list[float] | None = None  # with a match: the seats' chances after the card
    best_chance: float | None = None  # the mover's best chance of winning the match
    match_best: list[Card] = field(default_factory=list)

    @property
    def paranoid_cost(self) -> int:
        return self.guaranteed - self.value

    @property
    def maxn_cost(self) -> int:
        return self.best_own - self.result[self.seat]

    @property
    def match_cost(self) -> float | None:
        """The chance of winning the match the card gave up (None: no match values)."""
        return None if self.chances is None else self.best_chance - self.chances[self.seat]

    def to_json(self) -> dict:
        match = {} if self.chances is None else {"match": {
            "best_chance": round(self.best_chance, 6),
            "chances": [round(c, 6) for c in self.chances],
            "cost": round(self.match_cost, 6),
            "best": card_list(self.match_best),
        }}  # fmt: skip
        return match | {
            "number": self.number,
            "trick": self.trick,
            "seat": self.seat,
            "position": str(self.position),
            "card": str(self.card),
            "paranoid": {
                "guaranteed": self.guaranteed,
                "value": self.value,
                "cost": self.paranoid_cost,
                "optimal": card_list(self.paranoid_optimal),
            },
            "maxn": {
                "best_own": self.best_own,
                "own": self.result[self.seat],
                "result": list(self.result),
                "cost": self.maxn_cost,
                "best": card_list(self.maxn_best),
            },
            "taken": list(self.taken),
            "trick_winner": self.trick_winner,
            "trick_points": self.trick_points,
        }


@dataclass
class SeatSummary:
    """One seat's mistakes over the record: points lost in each mode (the sum
    of its costs) and its biggest mistake in each (the move number; the
    first of equals), None when it made none."""

    seat: int
    moves: int = 0
    paranoid_lost: int = 0
    maxn_lost: int = 0
    paranoid_mistakes: int = 0
    maxn_mistakes: int = 0
    biggest_paranoid: MoveReview | None = None
    biggest_maxn: MoveReview | None = None
    match_lost: float = 0.0  # with a match: the chances of winning it given up
    biggest_match: MoveReview | None = None

    def add(self, move: MoveReview) -> None:
        self.moves += 1
        self.paranoid_lost += move.paranoid_cost
        self.maxn_lost += move.maxn_cost
        self.paranoid_mistakes += move.paranoid_cost > 0
        self.maxn_mistakes += move.maxn_cost > 0
        if move.paranoid_cost > 0 and (
            self.biggest_paranoid is None
            or move.paranoid_cost > self.biggest_paranoid.paranoid_cost
        ):
            self.biggest_paranoid = move
        if move.maxn_cost > 0 and (
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
            return None if move is None else {
                "number": move.number, "card": str(move.card), "cost": cost(move)
            }

        return {
            "seat": self.seat,
            "moves": self.moves,
            "paranoid_lost": self.paranoid_lost,
            "maxn_lost": self.maxn_lost,
            "paranoid_mistakes": self.paranoid_mistakes,
            "maxn_mistakes": self.maxn_mistakes,
            "biggest_paranoid": biggest(self.biggest_paranoid, lambda m: m.paranoid_cost),
            "biggest_maxn": biggest(self.biggest_maxn, lambda m: m.maxn_cost),
            "match_lost": round(self.match_lost, 6),
            "biggest_match": biggest(self.biggest_match, lambda m: round(m.match_cost, 6)),
        }


@dataclass
class Review:
    """What ``review`` found: one ``MoveReview`` per card, a summary per seat, the
    final score. ``exact`` is False when the budget ran out: ``moves`` then
    stops at the last card reviewed."""

    position: Position
    cards: list[Card]
    moves: list[MoveReview] = field(default_factory=list)
    summary: list[SeatSummary] = field(default_factory=list)
    exact: bool = True
    nodes: int = 0
    seconds: float = 0.0
    match: MatchState | None = None

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
            "moves": [m.to_json() for m in self.moves],
            "summary": [s.to_json() for s in self.summary],
            "taken": list(final.taken),
            "hand_over": final.is_terminal,
            "exact": self.exact,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


def review(record: Record | str, max_nodes: int | None = None, time_limit: float | None = None,
           *, match: MatchState | None = None) -> Review:  # fmt: skip
    """Review a record of play (its RULES.md text ``POSITION | c1 c2 ...`` or a
    Record): every card's cost to its player in both modes, the running score,
    and a summary per seat (see the module docs); with a ``match`` (the
    target, and the scores when the record's hand began), the chances of
    winning it each card gave up too.

    A bad record raises a ``CoinsError`` naming the move number. ``max_nodes``
    and ``time_limit`` bound the whole review.

    >>> r = review("7...2 K.3.. J.6.. 0 - 0,1,0 | 2B 3O JC")
    >>> [(m.card, m.paranoid_cost, m.maxn_cost) for m in r.moves]
    [(Card('2B'), 0, 0), (Card('3O'), 0, 0), (Card('JC'), 2, 2)]
    """
    record = read_record(record)
    check_match(match, record.start.taken)
    budget = Budget(max_nodes, time_limit)
    result = Review(record.start, list(record.moves), match=match)
    result.summary = [SeatSummary(seat) for seat in range(SEATS)]
    try:
        for number, trick, position, card in moves_along(record.start, record.moves):
            move = _review_move(budget, position, number, trick, card)
            if match is not None and min(match.target - s - t
                                         for s, t in zip(match.scores, position.taken)) > 0:
                _review_for_match(budget, move, match)
            result.moves.append(move)
            result.summary[move.seat].add(move)
    except BudgetSpent:
        result.exact = False
    result.nodes = budget.nodes
    result.seconds = budget.seconds
    return result


def _review_move(budget: Budget, position: Position, number: int, trick: int, card: Card):
    mover = position.to_move
    paranoid, maxn, guaranteed, best_own = budget.both_modes(position)
    after = position.play(card)
    winner, points = points_won(position, after)
    return MoveReview(
        number, trick, mover, position, card, guaranteed, paranoid.card_values[card],
        paranoid.optimal, list(maxn.card_results[card]), best_own,
        [c for c, r in maxn.card_results.items() if r[mover] == best_own],
        list(after.taken), winner, points,
    )


def _review_for_match(budget: Budget, move: MoveReview, match: MatchState) -> None:
    chances = budget.match(move.position, match).card_chances
    move.chances = chances[move.card]
    move.best_chance = chances[preferred(chances, move.seat)][move.seat]
    move.match_best = [c for c, v in chances.items()
                       if round(v[move.seat], 9) == round(move.best_chance, 9)]  # fmt: skip


__all__ = ["MoveReview", "Review", "SeatSummary", "review"]
