"""Computer players that see only their own hand: ``random``, ``greedy``, ``policy``, ``pimc``.

Every bot is a player of ``solver.match``: ``choose(position, seat, rng) ->
Card``. ``Hand`` and ``Match`` show players the whole position, but these bots
use only what ``seat`` sees there: its own hand, the trick on the table, the
cards gone and the Coins taken (for ``pimc``, the other two hands only as
their union: the unseen cards, dealt again at random in every sample). So the
same bot, given the same rng state, chooses the same card whatever the other
hands hold; the tests check it.

- ``random_bot``: any card it holds, uniformly.
- ``greedy_bot``: the heuristic of ``solver.playouts.greedy_card``: last to
  play, take the most Coins it can win and never give away its own Coins when
  it can avoid it; second after a Coin lead, win for sure with the lowest
  higher Coin; otherwise shed its lowest non-Coin.
- ``policy_bot``: the card of the highest value by the network learned by
  self-play (``solver.card_policy``), a few milliseconds a move.
- ``PimcBot(samples, time_limit, ...)``: the best card of ``hint`` (perfect
  information Monte Carlo: determinised deals, open-hand values). In a hand
  played to a target (``choose_for_match``) it plays for the match: its
  hint ranks the cards by the chance of winning it, valuing each deal with
  the learned evaluation. The bot ``pimc-points`` is the same, valuing the
  deals by the learned evaluation too (``evaluation="search"``), but playing
  for points whatever the score, for comparison. In a
  ``solver.match.Hand`` it is shown the record so far (``choose_record``), of
  which it reads only its own seat's view; with ``sampler="weighted"`` or
  ``"model"`` it weights its deals by how likely they make the other seats'
  plays, and with ``opponents="model"`` it plays them in its playouts by
  what their plays say of them (``analysis.opponents``).

``choose_from_view(bot, view, rng)`` runs any of them on a view (a record with
hidden hands): it fills the hidden hands with one sampled deal (the bots look
only at what the view shows) and asks the bot for the seat to move.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from solver import CoinsError, MatchState, Position, Record
from solver.card_policy import default_policy
from solver.cards import Card
from solver.playouts import greedy_card
from solver.sampling import sample_deal

from .evaluators import DEFAULT_HORIZON, DEFAULT_ROLLOUTS
from .hint import (
    DEFAULT_EVALUATION,
    DEFAULT_OPPONENTS,
    DEFAULT_POLICY_WEIGHT,
    DEFAULT_SAMPLER,
    DEFAULT_THREADS,
    check_budget,
    hint,
)

PIMC_SAMPLES = 60
PIMC_TIME_LIMIT = 0.25


def random_bot(position: Position, seat: int, rng: random.Random) -> Card:
    """Any card the seat holds, uniformly at random from ``rng``."""
    return rng.choice(position.hand(seat))


def greedy_bot(position: Position, seat: int, rng: random.Random) -> Card:
    """The greedy heuristic (deterministic; ``rng`` is not used)."""
    return Card(greedy_card(position.hands[seat], position.trick))


def policy_bot(position: Position, seat: int, rng: random.Random) -> Card:
    """The learned policy's card (deterministic; ``rng`` is not used)."""
    if position.to_move != seat:
        raise CoinsError(f"seat {seat} is not to move: seat {position.to_move} is")
    return default_policy().card(position)


@dataclass(frozen=True)
class PimcBot:
    """Plays the best card of ``hint`` with this budget per decision.

    ``time_limit=0`` drops the time limit, so a game depends only on the seeds
    (useful for tests and duplicate matches); with a time limit the number of
    samples may vary with the machine's load. ``for_match``: in a hand played
    to a target, rank the cards by the chance of winning the match (False:
    by points, whatever the score).
    """

    samples: int = PIMC_SAMPLES
    time_limit: float = PIMC_TIME_LIMIT
    mode: str = "maxn"
    rollouts: int = DEFAULT_ROLLOUTS
    exact_cards: int | None = None
    sampler: str = DEFAULT_SAMPLER
    horizon: int = DEFAULT_HORIZON
    evaluation: str = DEFAULT_EVALUATION
    for_match: bool = True
    opponents: str = DEFAULT_OPPONENTS
    threads: int = DEFAULT_THREADS
    policy_weight: float = DEFAULT_POLICY_WEIGHT

    @property
    def reads_record(self) -> bool:
        """Whether its hints read the other seats' plays (else the position is enough)."""
        return self.sampler != "uniform" or self.opponents == "model"

    def __post_init__(self):
        check_budget(self.samples, self.time_limit)  # refused when made, not at its first move

    def choose(self, position: Position, seat: int, rng: random.Random) -> Card:
        """The card from the position alone (no record: deals are not weighted)."""
        return self._best(position, seat, position, rng)

    def choose_record(self, record: Record, seat: int, rng: random.Random) -> Card:
        """The card from ``seat``'s view of the record so far. Uniform sampling
        with greedy opponents needs no record, so it plays exactly as ``choose``
        does."""
        if not self.reads_record:
            return self.choose(record.final, seat, rng)
        return self._best(record.final, seat, record.view(seat), rng)

    def choose_for_match(
        self, record: Record, seat: int, rng: random.Random, match: MatchState
    ) -> Card:
        """The card for a hand of a match (``solver.match.Hand`` calls this):
        played for the match unless the bot plays for points."""
        if not self.for_match:
            return self.choose_record(record, seat, rng)
        view = record.view(seat) if self.reads_record else record.final
        return self._best(record.final, seat, view, rng, match)

    def _best(
        self,
        position: Position,
        seat: int,
        view,
        rng: random.Random,
        match: MatchState | None = None,
    ) -> Card:
        if position.to_move != seat:
            raise CoinsError(f"seat {seat} is not to move: seat {position.to_move} is")
        cards = position.legal_cards()
        if len(cards) == 1:
            return cards[0]
        result = hint(
            view,
            self.samples,
            self.time_limit,
            mode=self.mode,
            rng=rng,
            rollouts=self.rollouts,
            exact_cards=self.exact_cards,
            sampler=self.sampler,
            horizon=self.horizon,
            evaluation=self.evaluation,
            match=match,
            opponents=self.opponents,
            threads=self.threads,
            policy_weight=self.policy_weight,
        )
        return result[0].card

    def __call__(self, position: Position, seat: int, rng: random.Random) -> Card:
        return self.choose(position, seat, rng)


BOTS = ("random", "greedy", "policy", "pimc", "pimc-points")


def make_bot(name: str, **options):
    """The bot called ``name`` (``random``, ``greedy``, ``policy``, ``pimc`` or ``pimc-points``);
    ``options`` go to ``PimcBot`` (``samples``,
    ``time_limit``, ``mode``, ...)."""
    if name == "random":
        return random_bot
    if name == "greedy":
        return greedy_bot
    if name == "policy":
        return policy_bot
    if name == "pimc":
        return PimcBot(**options)
    if name == "pimc-points":
        # the learned estimate alone: the card policy's blend was measured with playouts
        return PimcBot(**{"policy_weight": 0.0, **options}, evaluation="search", for_match=False)
    raise CoinsError(f'bot "{name}" is not a bot: choose from {", ".join(BOTS)}')


def choose_from_view(bot, view: Record | str, rng: random.Random) -> Card:
    """The card ``bot`` plays for the seat to move in ``view`` (a record with
    hidden hands, or its text)."""
    if isinstance(view, str):
        view = Record.parse(view)
    seat = view.to_move
    if view.hands[seat] is None:
        raise CoinsError(f"the view hides the hand of seat {seat}, the seat to move")
    deal = sample_deal(view, rng=rng)
    if deal.position.is_terminal:
        raise CoinsError("the hand is over: there is no card to play")
    if hasattr(bot, "choose_record"):
        return Card(bot.choose_record(deal.record, seat, rng))
    choose = getattr(bot, "choose", bot)
    return Card(choose(deal.position, seat, rng))
