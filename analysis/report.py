"""``analyze``: a position played out trick by trick, every decision valued in both modes.

The main line is the max^n equilibrium line (RULES.md "Values the solver
reports"): how the deal plays when every seat plays for its own points and
knows the others do too. At each card of that line the report gives every
card the mover holds its value in both modes:

- paranoid: the mover's guaranteed value after the card (the other two
  play together against it); the optimal cards keep the guaranteed value;
- max^n: the three seats' points after the card when everyone then plays
  for themselves; the best cards give the mover the most own points, and
  the max^n choice is the one of them the RULES.md tie-break takes.

The modes disagree at a decision when the max^n choice is not one of the
paranoid-optimal cards: playing for points against two selfish opponents
then costs something against two who gang up.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from solver import Position
from solver.cards import Card

from ._common import Budget, BudgetSpent, as_position, card_list, moves_along, points_won

MAIN_LINE = (
    "max^n equilibrium line: every seat plays for its own points, "
    "knowing the others do the same"
)


@dataclass
class CardReport:
    """One card the mover could play, valued in both modes."""

    card: Card
    paranoid: int  # the mover's guaranteed value after playing it
    maxn: list[int]  # every seat's points (from the decision on) after playing it
    paranoid_optimal: bool
    maxn_best: bool  # gives the mover the most own points
    maxn_choice: bool  # the card the equilibrium plays

    def to_json(self) -> dict:
        return {
            "card": str(self.card),
            "paranoid": self.paranoid,
            "maxn": list(self.maxn),
            "paranoid_optimal": self.paranoid_optimal,
            "maxn_best": self.maxn_best,
            "maxn_choice": self.maxn_choice,
        }


@dataclass
class Decision:
    """One card of the main line: the position before it and every choice the mover had.

    ``number`` counts cards from the analysed position (1 = its first card),
    ``trick`` counts tricks from it (1 = the trick on the table or led next).
    Values count points from this decision on; ``taken`` is the score after
    the card (as in the position's ``taken`` field).
    """

    number: int
    trick: int
    position: Position
    seat: int
    guaranteed: int  # the mover's guaranteed value here
    equilibrium: list[int]  # the three seats' equilibrium points from here
    cards: list[CardReport]
    played: Card  # the max^n choice, the card the main line plays
    taken: list[int]
    trick_winner: int | None = None  # set when ``played`` closes a trick
    trick_points: int = 0

    @property
    def paranoid_optimal(self) -> list[Card]:
        return [c.card for c in self.cards if c.paranoid_optimal]

    @property
    def maxn_best(self) -> list[Card]:
        return [c.card for c in self.cards if c.maxn_best]

    @property
    def disagree(self) -> bool:
        """The max^n choice is not paranoid-optimal: the modes part ways here."""
        return self.played not in self.paranoid_optimal

    @property
    def paranoid_cost(self) -> int:
        """What the max^n choice costs the mover in guaranteed points (0 if none)."""
        return self.guaranteed - next(c.paranoid for c in self.cards if c.card == self.played)

    def to_json(self) -> dict:
        return {
            "number": self.number,
            "trick": self.trick,
            "position": str(self.position),
            "seat": self.seat,
            "guaranteed": self.guaranteed,
            "equilibrium": list(self.equilibrium),
            "played": str(self.played),
            "cards": [c.to_json() for c in self.cards],
            "paranoid_optimal": card_list(self.paranoid_optimal),
            "maxn_best": card_list(self.maxn_best),
            "disagree": self.disagree,
            "paranoid_cost": self.paranoid_cost,
            "taken": list(self.taken),
            "trick_winner": self.trick_winner,
            "trick_points": self.trick_points,
        }


@dataclass
class Analysis:
    """What ``analyze`` found: root values in both modes and one ``Decision`` per card
    of the main line. ``exact`` is False when the budget ran out; ``decisions``
    then stops at the last decision finished (``guaranteed``/``equilibrium``
    may be None)."""

    position: Position
    guaranteed: list[int] | None = None
    equilibrium: list[int] | None = None
    decisions: list[Decision] = field(default_factory=list)
    exact: bool = True
    nodes: int = 0
    seconds: float = 0.0
    main_line: str = MAIN_LINE

    @property
    def line(self) -> list[Card]:
        return [d.played for d in self.decisions]

    @property
    def disagreements(self) -> list[Decision]:
        return [d for d in self.decisions if d.disagree]

    def to_json(self) -> dict:
        return {
            "position": str(self.position),
            "main_line": self.main_line,
            "guaranteed": self.guaranteed,
            "equilibrium": self.equilibrium,
            "line": card_list(self.line),
            "decisions": [d.to_json() for d in self.decisions],
            "disagreements": [d.number for d in self.disagreements],
            "exact": self.exact,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


def analyze(
    position: Position | str,
    max_nodes: int | None = None,
    time_limit: float | None = None,
) -> Analysis:
    """Walk the max^n equilibrium line from ``position`` to the end of the hand,
    valuing every card at every decision in both modes (see the module docs).

    ``max_nodes`` and ``time_limit`` bound the whole analysis; when either runs
    out the result is not exact and holds the decisions finished so far.

    >>> report = analyze("7...2 K.3.. J.6.. 0 - 0,1,0")
    >>> report.guaranteed, report.equilibrium, [str(c) for c in report.line][:3]
    ([0, 0, 2], [0, 0, 2], ['7C', 'KC', 'JC'])
    """
    position = as_position(position)
    budget = Budget(max_nodes, time_limit)
    report = Analysis(position)
    try:
        root = budget.paranoid(position, (0, 1, 2), card_values=False, line=False)
        report.guaranteed = list(root.guaranteed)
        first = budget.maxn(position, card_results=False, line=True)
        report.equilibrium = list(first.equilibrium)
        for number, trick, current, card in moves_along(position, first.line):
            report.decisions.append(_decision(budget, current, number, trick, card))
    except BudgetSpent:
        report.exact = False
    report.nodes = budget.nodes
    report.seconds = budget.seconds
    return report


def _decision(budget: Budget, position: Position, number: int, trick: int, played: Card):
    mover = position.to_move
    paranoid, maxn, guaranteed, best_own = budget.both_modes(position)
    cards = [
        CardReport(
            card,
            paranoid.card_values[card],
            list(maxn.card_results[card]),
            paranoid.card_values[card] == guaranteed,
            maxn.card_results[card][mover] == best_own,
            card == played,
        )
        for card in sorted(position.legal_cards(), key=lambda c: (c.suit, -c.rank))
    ]
    after = position.play(played)
    winner, points = points_won(position, after)
    return Decision(
        number, trick, position, mover, guaranteed, list(maxn.equilibrium), cards, played,
        list(after.taken), winner, points,
    )


__all__ = ["MAIN_LINE", "Analysis", "CardReport", "Decision", "analyze"]
