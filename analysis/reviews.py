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
"""

from __future__ import annotations

from dataclasses import dataclass, field

from solver import Position
from solver.cards import SEATS, Card
from solver.record import Record

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

    @property
    def paranoid_cost(self) -> int:
        return self.guaranteed - self.value

    @property
    def maxn_cost(self) -> int:
        return self.best_own - self.result[self.seat]

    def to_json(self) -> dict:
        return {
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
        return {
            "record": self.record,
            "moves": [m.to_json() for m in self.moves],
            "summary": [s.to_json() for s in self.summary],
            "taken": list(final.taken),
            "hand_over": final.is_terminal,
            "exact": self.exact,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


def review(record: Record | str, max_nodes: int | None = None, time_limit: float | None = None) -> Review:
    """Review a record of play (its RULES.md text ``POSITION | c1 c2 ...`` or a
    Record): every card's cost to its player in both modes, the running score,
    and a summary per seat (see the module docs).

    A bad record raises a ``CoinsError`` naming the move number. ``max_nodes``
    and ``time_limit`` bound the whole review.

    >>> r = review("7...2 K.3.. J.6.. 0 - 0,1,0 | 2B 3O JC")
    >>> [(m.card, m.paranoid_cost, m.maxn_cost) for m in r.moves]
    [(Card('2B'), 0, 0), (Card('3O'), 0, 0), (Card('JC'), 2, 2)]
    """
    record = read_record(record)
    budget = Budget(max_nodes, time_limit)
    result = Review(record.start, list(record.moves))
    result.summary = [SeatSummary(seat) for seat in range(SEATS)]
    try:
        for number, trick, position, card in moves_along(record.start, record.moves):
            move = _review_move(budget, position, number, trick, card)
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


__all__ = ["MoveReview", "Review", "SeatSummary", "review"]
