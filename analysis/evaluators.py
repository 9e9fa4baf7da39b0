"""How a hint values the cards of one sampled deal, every hand visible: the
evaluator objects ``hint`` is given (as OpenSpiel's searches are given theirs).

An evaluator is called as ``evaluator(position, cards, rng, kinds)``: the
mover's value of each of ``cards`` (None: every card) in the full deal
``position``, as ``DealValues``; ``kinds`` (None, or a ``solver.playouts.Policy``
for some of the other seats) says how those seats play in its playouts. It says what it values (``mode``, ``match``) and how beyond
exact reach (``evaluation``), which the hint reports. Each holds its own
``exact_cards``: the deal is solved exactly when the mover holds at most that
many cards (by default ``analysis.reach.EXACT_REACH``'s threshold for it).

- ``PlayoutEvaluator``: points (``mode`` maxn: own max^n points; paranoid:
  the guaranteed value); beyond exact reach greedy play
  (``solver.playouts``) to ``horizon`` cards a hand, then exactly, averaged
  over ``rollouts`` playouts with random cards at rate ``epsilon`` (the
  seats in ``kinds`` by their own policies). It models
  opponents that play by heuristics, and beat the search evaluation in play
  against the bots (docs/experiments.md). When ``kinds`` plays both other
  seats by greedy's card (``_plays_greedy``), "exactly" means the mover's
  best reply to greedy's cards (``solver.playouts.greedy_reply``), not
  max^n: opponents known to play by a rule are not assumed to play the
  equilibrium.
- ``PolicyEvaluator``: points as ``PlayoutEvaluator``'s, every seat playing
  the card policy learned by self-play (``solver.card_policy``) to
  ``horizon`` cards a hand, then exactly: one playout, as the policy is
  deterministic.
- ``SearchEvaluator``: own max^n points; beyond exact reach the estimate of
  ``solver.evaluator``, max^n searched for ``SEARCH_TRICKS`` tricks and a
  network trained on exact values beyond: the closer estimate of the
  open-hand values.
- ``MatchEvaluator``: the mover's chance of winning a ``match``
  (``solver.MatchState``; RULES.md, "Values of a position in a match"),
  exact by ``solver.match_values`` when small, else the match-aware search of
  ``SEARCH_TRICKS`` tricks with the network's points turned into chances
  beyond. With ``points`` (a points evaluator) each card's points are valued
  too, and shown beside.

Evaluators run on one search thread each: a hint shares its deals out over
threads instead.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar, NamedTuple, Protocol

from solver import CoinsError, MatchState, Position, checks, solve
from solver.card_policy import default_policy
from solver.cards import HAND_SIZE, Card
from solver.errors import OptionError
from solver.evaluator import search_card_results
from solver.match import check_match
from solver.match_values import card_chances
from solver.maxn import solve_maxn
from solver.playouts import Policy, greedy_reply, greedy_reply_values, play_until

from .reach import EXACT_REACH

MODES = ("maxn", "paranoid")
DEFAULT_HORIZON = 5
DEFAULT_ROLLOUTS = 3
DEFAULT_EPSILON = 0.1
# The most random cards a seat may play and still be replied to as greedy.
GREEDY_AT_MOST = 0.05
# Tricks the search evaluation plays before the network: one keeps a deal to
# milliseconds at any size, so a second of hint holds a hundred deals or more.
SEARCH_TRICKS = 1
Kinds = dict[int, Policy] | None  # how some other seats play in the playouts (None: greedy)


class DealValues(NamedTuple):
    """One deal's values: the mover's value of each card, whether they are exact,
    and (from a ``MatchEvaluator`` with ``points``) each card's points beside."""

    values: dict[Card, float]
    exact: bool
    points: dict[Card, float] | None = None


class DealEvaluator(Protocol):
    """What ``hint`` calls to value the cards of one deal."""

    mode: str  # "maxn" or "paranoid": which points (maxn for a match)
    evaluation: str  # how the cards are valued beyond exact reach: "playout", "policy" or "search"
    match: MatchState | None  # the match whose chances are the values, or None for points

    def __call__(
        self, position: Position, cards, rng: random.Random, kinds: Kinds = None
    ) -> DealValues: ...


def _exact_cards(value: int | None, default: int) -> int:
    """An evaluator's ``exact_cards``: ``default`` for None, else 0 to 16."""
    if value is None:
        return default
    return checks.whole_number(value, "exact_cards", 0, HAND_SIZE)


@dataclass(frozen=True)
class _PointsEvaluator:
    """The mover's points, exactly up to ``exact_cards`` cards a hand; beyond,
    by the subclass's estimate."""

    mode: str = "maxn"
    exact_cards: int | None = None
    match: ClassVar[None] = None

    def __post_init__(self):
        if self.mode not in MODES:
            raise CoinsError(f'mode "{self.mode}" is not a hint mode: use maxn or paranoid')
        default = EXACT_REACH.hint_points if self.mode == "maxn" else EXACT_REACH.hint_guaranteed
        object.__setattr__(self, "exact_cards", _exact_cards(self.exact_cards, default))

    def __call__(
        self, position: Position, cards, rng: random.Random, kinds: Kinds = None
    ) -> DealValues:
        if position.cards_per_hand <= self.exact_cards:
            if self.mode == "maxn" and _plays_greedy(kinds, position.to_move):
                return DealValues(_only(_greedy_reply_values(position), cards), True)
            return DealValues(_only(_exact_card_values(position, self.mode), cards), True)
        cards = position.legal_cards() if cards is None else cards
        return DealValues(self._estimate(position, cards, rng, kinds), False)

    def _estimate(
        self, position: Position, cards, rng: random.Random, kinds: Kinds
    ) -> dict[Card, float]:
        raise NotImplementedError


@dataclass(frozen=True)
class PlayoutEvaluator(_PointsEvaluator):
    """Points by greedy playouts to ``horizon`` cards a hand, then exactly (see
    the module docstring); exact up to ``exact_cards`` cards a hand."""

    horizon: int = DEFAULT_HORIZON
    rollouts: int = DEFAULT_ROLLOUTS
    epsilon: float = DEFAULT_EPSILON
    evaluation: ClassVar[str] = "playout"

    def __post_init__(self):
        super().__post_init__()
        if not isinstance(self.rollouts, int) or self.rollouts < 1:
            raise OptionError(f"rollouts must be a positive whole number, not {self.rollouts!r}")
        if isinstance(self.horizon, bool) or not isinstance(self.horizon, int) or self.horizon < 0:
            raise OptionError(f"horizon must be a whole number of cards, not {self.horizon!r}")
        object.__setattr__(self, "epsilon", checks.share(self.epsilon, "epsilon"))

    def _estimate(
        self, position: Position, cards, rng: random.Random, kinds: Kinds
    ) -> dict[Card, float]:
        policies = None
        if kinds:
            policies = [kinds.get(seat, Policy(self.epsilon)) for seat in range(3)]
            policies[position.to_move] = Policy(self.epsilon)
        reply = self.mode == "maxn" and _plays_greedy(kinds, position.to_move)
        return {card: self._playouts(position, card, rng, policies, reply) for card in cards}

    def _playouts(
        self, position: Position, card: Card, rng: random.Random, policies, reply: bool
    ) -> float:
        """Mean points for the mover after ``card``: play to the horizon (greedy,
        or each seat by its policy), then exact."""
        mover = position.to_move
        after = position.play(card)
        stream = random.Random(rng.getrandbits(64))
        total = 0
        for _ in range(self.rollouts):
            hands, leader, trick, points = play_until(
                after.hands, after.leader, after.trick, stream, self.epsilon, self.horizon, policies
            )
            if reply:  # on the playout's bare ints: no Position to build and check
                end = greedy_reply(hands, leader, trick, mover)
            else:
                end = _exact_value(Position(tuple(hands), leader, tuple(trick)), mover, self.mode)
            total += points[mover] + end
        # points of a trick the card completed are in after.taken, not in the playout
        return total / self.rollouts + (after.taken[mover] - position.taken[mover])


@dataclass(frozen=True)
class PolicyEvaluator(_PointsEvaluator):
    """Points by one playout of the learned card policy to ``horizon`` cards a
    hand, then exactly (see the module docstring); exact up to ``exact_cards``
    cards a hand. The policy plays every seat: ``kinds`` (the opponent model's
    draw) is not read, so the model only weights the deals here."""

    horizon: int = DEFAULT_HORIZON
    evaluation: ClassVar[str] = "policy"

    def __post_init__(self):
        super().__post_init__()
        if isinstance(self.horizon, bool) or not isinstance(self.horizon, int) or self.horizon < 0:
            raise OptionError(f"horizon must be a whole number of cards, not {self.horizon!r}")

    def _estimate(
        self, position: Position, cards, rng: random.Random, kinds: Kinds
    ) -> dict[Card, float]:
        policy = default_policy()
        mover = position.to_move
        values = {}
        for card in cards:
            after = position.play(card)
            rest, points = policy.play_until(after, self.horizon)
            # points of a trick the card completed are in after.taken, not in the playout
            won = after.taken[mover] - position.taken[mover] + points[mover]
            values[card] = float(won + _exact_value(rest, mover, self.mode))
        return values


@dataclass(frozen=True)
class SearchEvaluator(_PointsEvaluator):
    """Own max^n points by the learned estimate (see the module docstring);
    exact up to ``exact_cards`` cards a hand."""

    evaluation: ClassVar[str] = "search"

    def __post_init__(self):
        if self.mode != "maxn":
            raise CoinsError("the search evaluation values max^n points: mode must be maxn")
        super().__post_init__()

    def _estimate(
        self, position: Position, cards, rng: random.Random, kinds: Kinds
    ) -> dict[Card, float]:
        found, _ = search_card_results(position, SEARCH_TRICKS, threads=1)
        return {card: found[card][position.to_move] for card in cards}


@dataclass(frozen=True)
class MatchEvaluator:
    """The mover's chance of winning ``match`` (see the module docstring): exact
    up to ``exact_cards`` cards a hand; with ``points``, a points evaluator
    whose values are given beside."""

    match: MatchState
    exact_cards: int | None = None
    points: PlayoutEvaluator | PolicyEvaluator | SearchEvaluator | None = None
    mode: ClassVar[str] = "maxn"

    def __post_init__(self):
        check_match(self.match)
        exact = _exact_cards(self.exact_cards, EXACT_REACH.hint_chances)
        object.__setattr__(self, "exact_cards", exact)
        if self.points is not None and self.points.mode != "maxn":
            raise CoinsError("a hint for a match plays for the match: mode must be maxn")

    @property
    def evaluation(self) -> str:
        """How points are valued beyond exact reach when they are; the chances
        are always the match-aware search's."""
        return "search" if self.points is None else self.points.evaluation

    def __call__(
        self, position: Position, cards, rng: random.Random, kinds: Kinds = None
    ) -> DealValues:
        mover = position.to_move
        exact = position.cards_per_hand <= self.exact_cards
        found, _ = card_chances(position, self.match, None if exact else SEARCH_TRICKS)
        chances = _only({card: values[mover] for card, values in found.items()}, cards)
        points = None if self.points is None else self.points(position, cards, rng, kinds).values
        return DealValues(chances, exact, points)


def _only(values: dict[Card, float], cards) -> dict[Card, float]:
    return values if cards is None else {c: values[c] for c in cards}


def _exact_card_values(position: Position, mode: str) -> dict[Card, float]:
    """Every card's exact points for the mover (max^n or guaranteed), on one thread."""
    mover = position.to_move
    if mode == "maxn":
        result = solve_maxn(position, line=False, threads=1)
        return {c: float(r[mover]) for c, r in result.card_results.items()}
    result = solve(position, (mover,), line=False, threads=1)
    return {c: float(v) for c, v in result.card_values.items()}


def _plays_greedy(kinds: Kinds, mover: int) -> bool:
    """Whether ``kinds`` plays both other seats by greedy's card, bar at most
    ``GREEDY_AT_MOST`` random cards: the exact parts then reply best to greedy
    instead of assuming max^n opponents."""
    if not kinds:
        return False
    others = (kinds.get(seat) for seat in range(3) if seat != mover)
    return all(p is not None and p.temperature == 0 and p.epsilon <= GREEDY_AT_MOST for p in others)


def _greedy_reply_values(position: Position) -> dict[Card, float]:
    """Every card's points for the mover, replying best to two greedy seats."""
    values = greedy_reply_values(position.hands, position.leader, [int(c) for c in position.trick])
    return {Card(c): float(v) for c, v in values.items()}


def _exact_value(position: Position, seat: int, mode: str) -> int:
    """Seat's points from ``position`` on (max^n or guaranteed), on one thread."""
    if position.is_terminal or position.coins_left == 0:
        return 0
    if mode == "maxn":
        return solve_maxn(position, card_results=False, line=False, threads=1).equilibrium[seat]
    return solve(position, (seat,), card_values=False, line=False, threads=1).guaranteed[seat]
