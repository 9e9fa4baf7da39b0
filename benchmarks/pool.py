"""The gauntlet's pool of opponents, and the players only the gauntlet needs.

``POOL`` is the table of members: a name, what it is, and how to make it
from the hint budget of the run (the incumbent plays with the candidate's
budget; the others have budgets of their own, fixed here). Adding a member is
one entry; a member whose package may be missing names the module it
``requires`` and is left out, with a note, where that does not import.

- ``NoisyGreedyBot``: greedy with noise: a softmax over greedy's own order of
  preference (its card, then its card from the rest, ...), so that its
  mistakes are the plausible ones.
- ``OmniscientBot``: sees every hand and plays max^n (``analysis.estimate``:
  exact where the search finishes in its time, the estimate beyond). It
  cheats: a strong reference, not a rival.
- ``BestResponder``: determinised search against a known bot: in its
  playouts the other seats play that bot's own policy, so it finds the
  bot's weaknesses. How far it scores above the fair share is the probe of
  how exploitable the bot is.
"""

from __future__ import annotations

import importlib.util
import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from analysis.bots import PimcBot, greedy_bot, make_bot, policy_bot, random_bot
from analysis.estimate import estimate
from solver import Position, Record
from solver.cards import Card, popcount
from solver.match import Hand
from solver.playouts import greedy_card
from solver.sampling import resample_position

from .incumbent import IncumbentBot


@dataclass(frozen=True)
class HintBudget:
    """Deals and seconds a decision for the hint-driven players of a run."""

    samples: int
    time_limit: float

    def to_json(self) -> dict:
        return {"samples": self.samples, "time_limit": self.time_limit}


def greedy_preference(hand: int, trick) -> list[int]:
    """The cards of ``hand`` in greedy's order: its card, then its card from the
    rest, and so on."""
    order = []
    while hand:
        card = greedy_card(hand, trick)
        order.append(card)
        hand &= ~(1 << card)
    return order


@dataclass(frozen=True)
class NoisyGreedyBot:
    """Greedy with noise: the card in place i of greedy's order is played with
    weight exp(-i / ``temperature``) (low: almost greedy; high: almost random)."""

    temperature: float

    def __call__(self, position: Position, seat: int, rng: random.Random) -> Card:
        order = greedy_preference(position.hands[seat], position.trick)
        weights = [math.exp(-place / self.temperature) for place in range(len(order))]
        return Card(rng.choices(order, weights)[0])


@dataclass(frozen=True)
class OmniscientBot:
    """Sees every hand: the estimate's max^n card in ``time_limit`` seconds (exact
    where the search finishes, as ``analysis.estimate`` decides)."""

    time_limit: float

    def __call__(self, position: Position, seat: int, rng: random.Random) -> Card:
        cards = position.legal_cards()
        if len(cards) == 1:
            return cards[0]
        return estimate(position, self.time_limit).best


class _ModelThenGreedy:
    """A playout's other seat: ``model`` while the seat holds more than ``cut``
    cards, greedy after (``cut`` None: the model to the end). It reads the
    record only when the model does: making it at every card is slow."""

    def __init__(self, model, cut: int | None):
        self.model_choose = getattr(model, "choose", model)
        self.model_record = getattr(model, "choose_record", None)
        self.cut = cut
        if self.model_record is not None:
            self.choose_record = self._choose_record

    def _modelled(self, position: Position, seat: int) -> bool:
        return self.cut is None or popcount(position.hands[seat]) > self.cut

    def choose(self, position: Position, seat: int, rng: random.Random) -> Card:
        if self._modelled(position, seat):
            return self.model_choose(position, seat, rng)
        return greedy_bot(position, seat, rng)

    def _choose_record(self, record: Record, seat: int, rng: random.Random) -> Card:
        position = record.final
        if self._modelled(position, seat):
            return self.model_record(record, seat, rng)
        return greedy_bot(position, seat, rng)


@dataclass
class BestResponder:
    """Plays the card with the most own points over ``samples`` deals of what it
    sees, each card played out on the same deals with the other two seats
    playing ``model`` (the bot it responds to) and its own later cards greedy.
    ``model_tricks``: the model plays the current trick and this many more,
    greedy after (None: to the end of the hand; a slow bot needs a bound)."""

    model: object
    samples: int
    model_tricks: int | None = None

    def choose(self, position: Position, seat: int, rng: random.Random) -> Card:
        cards = position.legal_cards()
        if len(cards) == 1:
            return cards[0]
        cut = None if self.model_tricks is None else position.cards_per_hand - 1 - self.model_tricks
        others = _ModelThenGreedy(self.model, cut)
        players = [greedy_bot if s == seat else others for s in range(3)]
        totals = dict.fromkeys(cards, 0)
        for _ in range(self.samples):
            deal = resample_position(position, seat, rng)
            playout_seed = rng.getrandbits(64)
            for card in cards:
                after = deal.play(card)
                rest = Hand(players, start=after, seed=playout_seed).play()
                totals[card] += after.taken[seat] - deal.taken[seat] + rest.points[seat]
        return max(cards, key=lambda card: totals[card])

    def __call__(self, position: Position, seat: int, rng: random.Random) -> Card:
        return self.choose(position, seat, rng)


@dataclass(frozen=True)
class Member:
    """A pool member: its ``name``, what it is (``about``), ``make(budget)``: a
    new player, given the run's hint budget; ``requires``: a module it needs."""

    name: str
    about: str
    make: Callable[[HintBudget], object]
    requires: str | None = None

    @property
    def available(self) -> bool:
        return self.requires is None or importlib.util.find_spec(self.requires) is not None


PIMC_SMALL = HintBudget(10, 0.0)  # no time limit: a pimc whose play depends on the seeds only
ESTIMATE_BOT = HintBudget(10, 0.0)
OMNISCIENT_TIME_LIMIT = 0.1
ISMCTS_SHARE = 8  # ISMCTS simulations a decision: the hint's deals over this (25 of 200)


def _ismcts(budget: HintBudget):
    from coins.openspiel_game import IsmctsBot

    return IsmctsBot(max(5, budget.samples // ISMCTS_SHARE))


@cache
def _incumbent(budget: HintBudget) -> IncumbentBot:
    """One incumbent process for each budget, shared by every seat and line-up."""
    return IncumbentBot(budget.samples, budget.time_limit)


POOL = (
    Member("random", "a card at random", lambda budget: random_bot),
    Member("greedy", "the greedy heuristic (solver.playouts)", lambda budget: greedy_bot),
    Member(
        "greedy-t0.5",
        "greedy's order, softmax at temperature 0.5 (its card ~86% of the time)",
        lambda budget: NoisyGreedyBot(0.5),
    ),
    Member(
        "greedy-t2",
        "greedy's order, softmax at temperature 2 (its card ~39% of the time)",
        lambda budget: NoisyGreedyBot(2.0),
    ),
    Member(
        "policy",
        "the card values of a network learned by self-play (solver.card_policy)",
        lambda budget: policy_bot,
    ),
    Member(
        "pimc-small",
        f"pimc with {PIMC_SMALL.samples} deals a decision, uniform deals, greedy playouts",
        lambda budget: PimcBot(
            PIMC_SMALL.samples,
            PIMC_SMALL.time_limit,
            sampler="uniform",
            opponents="greedy",
            policy_weight=0.0,
        ),
    ),
    Member(
        "pimc-points",
        f"the estimate-driven bot: {ESTIMATE_BOT.samples} deals valued by the learned estimate",
        lambda budget: make_bot(
            "pimc-points", samples=ESTIMATE_BOT.samples, time_limit=ESTIMATE_BOT.time_limit
        ),
    ),
    Member(
        "omniscient",
        f"sees every hand, max^n by analysis.estimate in {OMNISCIENT_TIME_LIMIT} s (cheats)",
        lambda budget: OmniscientBot(OMNISCIENT_TIME_LIMIT),
    ),
    Member(
        "incumbent",
        "the hint of the fixed commit, in its own environment, at the candidate's budget",
        _incumbent,
    ),
    Member(
        "ismcts",
        f"OpenSpiel's ISMCTS, random rollouts, 1/{ISMCTS_SHARE} of the hint's deals as "
        "simulations a decision (at least 5)",
        _ismcts,
        requires="pyspiel",
    ),
)


def members(names: list[str] | None = None) -> list[Member]:
    """The pool's members (those ``names``, in the pool's order), available ones only."""
    chosen = [m for m in POOL if names is None or m.name in names]
    unknown = set(names or ()) - {m.name for m in POOL}
    if unknown:
        raise ValueError(
            f"not in the pool: {', '.join(sorted(unknown))} "
            f"(the pool: {', '.join(m.name for m in POOL)})"
        )
    return [m for m in chosen if m.available]
