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

Decisions with more than ``exact_cards`` cards a hand (by default
``EXACT_REACH.analyze_points``: a full deal's first tricks) are beyond exact reach: there the max^n values are estimated
(``analysis.estimate``), marked so, and the main line follows the
estimate's card; the guaranteed values are left out.

With a ``match`` (``solver.MatchState``) every card also gets the three
seats' chances of winning the match (RULES.md, "Values of a position in a
match"; exact up to ``EXACT_REACH.decision_chances`` cards a hand, estimated beyond),
and the main line is the match line instead: every seat plays to win the
match, until the hand or the match ends.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from solver import CoinsError, MatchState, Position
from solver.cards import Card
from solver.match import check_match
from solver.match_values import preferred

from ._common import Budget, BudgetSpent, as_position, card_list, points_won, preferred_card
from .estimate import estimate
from .reach import EXACT_REACH

ESTIMATE_SECONDS = 1.0  # an estimated decision's time when there is no time limit

MAIN_LINE = (
    "max^n equilibrium line: every seat plays for its own points, knowing the others do the same"
)
MATCH_LINE = "match line: every seat plays to win the match, knowing the others do the same"


@dataclass
class CardReport:
    """One card the mover could play, valued in both modes (``paranoid`` None and
    ``maxn`` real numbers where the decision is estimated)."""

    card: Card
    paranoid: int | None  # the mover's guaranteed value after playing it
    maxn: list  # every seat's points (from the decision on) after playing it
    paranoid_optimal: bool
    maxn_best: bool  # gives the mover the most own points
    maxn_choice: bool  # the card the equilibrium plays
    chances: list | None = None  # with a match: every seat's chance of winning it after the card
    match_choice: bool = False  # the card played for the match

    def to_json(self) -> dict:
        out = {
            "card": str(self.card),
            "paranoid": self.paranoid,
            "maxn": [v if isinstance(v, int) else round(v, 3) for v in self.maxn],
            "paranoid_optimal": self.paranoid_optimal,
            "maxn_best": self.maxn_best,
            "maxn_choice": self.maxn_choice,
        }
        if self.chances is not None:
            out |= {
                "chances": [round(c, 6) for c in self.chances],
                "match_choice": self.match_choice,
            }
        return out


@dataclass
class Decision:
    """One card of the main line: the position before it and every choice the mover had.

    ``number`` counts cards from the analysed position (1 = its first card),
    ``trick`` counts tricks from it (1 = the trick on the table or led next).
    Values count points from this decision on; ``taken`` is the score after
    the card (as in the position's ``taken`` field). ``estimated``: the max^n
    values are estimates (and ``guaranteed`` is None). With a match,
    ``chances`` are the seats' chances of winning it after the card played
    (``chances_estimated``: estimates), and ``played`` is the match card.
    """

    number: int
    trick: int
    position: Position
    seat: int
    guaranteed: int | None  # the mover's guaranteed value here
    equilibrium: list  # the three seats' equilibrium points from here
    cards: list[CardReport]
    played: Card  # the max^n choice, the card the main line plays
    taken: list[int]
    trick_winner: int | None = None  # set when ``played`` closes a trick
    trick_points: int = 0
    estimated: bool = False
    chances: list | None = None
    chances_estimated: bool = False

    @property
    def paranoid_optimal(self) -> list[Card]:
        return [c.card for c in self.cards if c.paranoid_optimal]

    @property
    def maxn_best(self) -> list[Card]:
        return [c.card for c in self.cards if c.maxn_best]

    @property
    def disagree(self) -> bool:
        """The max^n choice is not paranoid-optimal: the modes part ways here."""
        return self.guaranteed is not None and self.played not in self.paranoid_optimal

    @property
    def paranoid_cost(self) -> int | None:
        """What the max^n choice costs the mover in guaranteed points (0 if none)."""
        if self.guaranteed is None:
            return None
        return self.guaranteed - next(c.paranoid for c in self.cards if c.card == self.played)

    @property
    def points_cost(self) -> float:
        """What the card played costs the mover in own max^n points against the
        most any card gives (0 when it is a points card: always, without a match)."""
        played = next(c for c in self.cards if c.card == self.played)
        return max(c.maxn[self.seat] for c in self.cards) - played.maxn[self.seat]

    def to_json(self) -> dict:
        match = (
            {}
            if self.chances is None
            else {
                "chances": [round(c, 6) for c in self.chances],
                "chances_estimated": self.chances_estimated,
                "points_cost": round(self.points_cost, 3),
            }
        )
        return match | {
            "number": self.number,
            "trick": self.trick,
            "position": str(self.position),
            "seat": self.seat,
            "estimated": self.estimated,
            "guaranteed": self.guaranteed,
            "equilibrium": [v if isinstance(v, int) else round(v, 3) for v in self.equilibrium],
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
    of the main line. ``exact``: every decision's values are proven and the line
    reaches the end of the hand. ``complete`` is False when the budget ran
    out (or Ctrl-C: ``interrupted``); ``decisions`` then stops at the last one
    finished. ``guaranteed`` is None beyond exact reach; ``equilibrium`` is
    then the first decision's estimate. With a ``match``, ``chances`` are the
    seats' chances of winning it at the position, and the main line is the
    match line."""

    position: Position
    guaranteed: list[int] | None = None
    equilibrium: list | None = None
    decisions: list[Decision] = field(default_factory=list)
    complete: bool = True
    interrupted: bool = False
    nodes: int = 0
    seconds: float = 0.0
    main_line: str = MAIN_LINE
    match: MatchState | None = None
    chances: list | None = None

    @property
    def exact(self) -> bool:
        return self.complete and not any(d.estimated or d.chances_estimated for d in self.decisions)

    @property
    def line(self) -> list[Card]:
        return [d.played for d in self.decisions]

    @property
    def disagreements(self) -> list[Decision]:
        return [d for d in self.decisions if d.disagree]

    @property
    def compared(self) -> list[Decision]:
        """The decisions whose paranoid values were computed: the only ones where
        the modes can be said to agree or disagree."""
        return [d for d in self.decisions if d.guaranteed is not None]

    def to_json(self) -> dict:
        first = self.decisions[0] if self.decisions else None
        match = (
            {}
            if self.match is None
            else {**self.match.to_json(), "chances": first.to_json()["chances"] if first else None}
        )
        return match | {
            "position": str(self.position),
            "main_line": self.main_line,
            "guaranteed": self.guaranteed,
            "equilibrium": first.to_json()["equilibrium"] if first else self.equilibrium,
            "line": card_list(self.line),
            "decisions": [d.to_json() for d in self.decisions],
            "estimated": [d.number for d in self.decisions if d.estimated],
            "disagreements": [d.number for d in self.disagreements],
            "compared": [d.number for d in self.compared],
            "exact": self.exact,
            "complete": self.complete,
            "interrupted": self.interrupted,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


class AnalysisInterrupted(CoinsError):
    """Ctrl-C stopped ``analyze``; ``analysis`` holds the decisions finished."""

    def __init__(self, analysis: Analysis):
        super().__init__("the analysis was stopped (Ctrl-C)")
        self.analysis = analysis


def analyze(
    position: Position | str,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    *,
    exact_cards: int = EXACT_REACH.analyze_points,
    progress: Callable[[str], None] | None = None,
    match: MatchState | None = None,
) -> Analysis:
    """Walk the max^n line from ``position`` to the end of the hand, valuing every
    card at every decision in both modes (see the module docs); with a
    ``match``, walk the match line, valuing the cards by their chances of
    winning it too.

    ``max_nodes`` and ``time_limit`` bound the whole analysis: each decision
    gets a share of what is left; when the exact search does not finish in
    its share the decision is estimated, and when nothing is left the result
    holds the decisions finished so far. ``progress`` is called with a line
    of text at each decision; Ctrl-C raises ``AnalysisInterrupted`` with what
    was finished.

    >>> report = analyze("7...2 K.3.. J.6.. 0 - 0,1,0")
    >>> report.guaranteed, report.equilibrium, [str(c) for c in report.line][:3]
    ([0, 0, 2], [0, 0, 2], ['7C', 'KC', 'JC'])
    """
    position = as_position(position)
    if isinstance(exact_cards, bool) or not isinstance(exact_cards, int) or exact_cards < 0:
        raise CoinsError(f"exact_cards must be a whole number of cards, not {exact_cards!r}")
    check_match(match, position.taken)
    budget = Budget(max_nodes, time_limit)
    report = Analysis(position, match=match)
    if match is not None:
        report.main_line = MATCH_LINE
    current, number, trick = position, 1, 1
    try:
        if position.cards_per_hand <= exact_cards:
            root = budget.paranoid(position, (0, 1, 2), card_values=False, line=False)
            report.guaranteed = list(root.guaranteed)
        while not current.is_terminal and not _over(current, match):
            if progress is not None:
                progress(f"move {number}, seat {current.to_move} to play")
            decision = _decision(budget, current, number, trick, exact_cards, match)
            report.decisions.append(decision)
            if number == 1:
                report.equilibrium = list(decision.equilibrium)
                report.chances = decision.chances
            current = current.play(decision.played)
            number += 1
            trick += not current.trick
    except BudgetSpent:
        report.complete = False
    except KeyboardInterrupt:
        report.complete = False
        report.interrupted = True
        raise AnalysisInterrupted(_finish(report, budget)) from None
    return _finish(report, budget)


def _finish(report: Analysis, budget: Budget) -> Analysis:
    report.nodes = budget.nodes
    report.seconds = budget.seconds
    return report


def _over(position: Position, match: MatchState | None) -> bool:
    """Has a seat reached the match's target?"""
    return match is not None and any(
        s + t >= match.target for s, t in zip(match.scores, position.taken)
    )


def _chances(budget: Budget, position: Position, match: MatchState, decisions_left: int):
    """Every card's chances of winning the match, and whether they are estimated."""
    if position.cards_per_hand <= EXACT_REACH.decision_chances:
        share = budget.share(decisions_left)
        try:
            return share.match(position, match).card_chances, False
        except BudgetSpent:
            pass  # out of this decision's share: estimate them instead
        finally:
            budget.nodes += share.nodes
    guess = estimate(
        position, budget.estimate_seconds(ESTIMATE_SECONDS, decisions_left), match=match
    )
    budget.nodes += guess.nodes
    return guess.card_results, not guess.exact


def _decision(
    budget: Budget,
    position: Position,
    number: int,
    trick: int,
    exact_cards: int,
    match: MatchState | None,
):
    mover = position.to_move
    decisions_left = sum(len(position.hand(s)) for s in range(3))
    guaranteed, paranoid, results = None, {}, None
    if position.cards_per_hand <= exact_cards:
        share = budget.share(decisions_left)
        try:
            found, maxn, guaranteed, _ = share.both_modes(position)
            paranoid, results = found.card_values, maxn.card_results
        except BudgetSpent:
            pass  # out of this decision's share: estimate it instead
        budget.nodes += share.nodes
    estimated = results is None
    if estimated:
        guess = estimate(position, budget.estimate_seconds(ESTIMATE_SECONDS, decisions_left))
        budget.nodes += guess.nodes
        results, estimated = guess.card_results, not guess.exact
    points_choice = preferred_card(results, mover)
    chances, chances_estimated, played = None, False, points_choice
    if match is not None:
        chances, chances_estimated = _chances(budget, position, match, decisions_left)
        played = preferred(chances, mover)
    best_own = max(r[mover] for r in results.values())
    cards = [
        CardReport(
            card,
            paranoid.get(card),
            list(results[card]),
            card in paranoid and paranoid[card] == guaranteed,
            results[card][mover] == best_own,
            card == points_choice,
            None if chances is None else list(chances[card]),
            chances is not None and card == played,
        )
        for card in sorted(position.legal_cards(), key=lambda c: (c.suit, -c.rank))
    ]
    after = position.play(played)
    winner, points = points_won(position, after)
    return Decision(
        number,
        trick,
        position,
        mover,
        guaranteed,
        list(results[played]),
        cards,
        played,
        list(after.taken),
        winner,
        points,
        estimated,
        None if chances is None else list(chances[played]),
        chances_estimated,
    )


__all__ = [
    "MAIN_LINE",
    "MATCH_LINE",
    "Analysis",
    "AnalysisInterrupted",
    "CardReport",
    "Decision",
    "analyze",
]
