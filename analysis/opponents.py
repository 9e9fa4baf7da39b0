"""Models of how the other seats play, and what their cards so far say about them.

Each other seat plays by one ``Kind`` of a small library, which nobody
tells us, from a hand we do not see. Every kind reads greedy's order of
preference (``solver.playouts``: greedy's card, then its card from the rest,
...): a card at place i of that order, from a hand of n cards, has
probability

    P(card) = tremble / n + (1 - tremble) * q(i, n)

where q is 1 for greedy's own card (temperature 0) or the softmax
exp(-i / temperature) over the n places. So one compiled pass
(``solver.playouts.greedy_places``) gives every kind's likelihood of every play in
every sampled deal, and the same kinds play the seats in the playouts
(``Kind.policy``). The library: greedy with a small tremble, greedy's order
at the gauntlet's temperatures 0.5 and 2 (``benchmarks.pool.NoisyGreedyBot``)
and a random player. Left out: a max^n-like kind (its likelihood needs a
search per observed play per sampled deal, thousands a decision), and a
learned policy (the project trains a value network, not a policy).

The prior is not greedy alone, so a seat that plays otherwise is not read
as greedy with trembles (which misread random players: docs/experiments.md).
For a view, ``OpponentModel.evidence`` scores a pool of deals drawn
uniformly from those consistent with it. With the kind hidden as well as the
hand, a deal weighs its marginal likelihood, the product over the hidden
seats of the prior mean of the kinds' likelihoods; a seat's posterior over
kinds is the same sums over the deals with that seat's kind held fixed; and
given a deal, each seat's kind is drawn from its posterior in that deal.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from solver import CoinsError
from solver.cards import SEATS, Cards
from solver.errors import OptionError
from solver.playouts import Policy, check_policy, greedy_places
from solver.record import Record

from .inference import _turns


@dataclass(frozen=True)
class Kind:
    """One way of playing: a random card with probability ``tremble``, else the
    card at place i of greedy's order with weight exp(-i / ``temperature``)
    (0: greedy's own card)."""

    name: str
    tremble: float = 0.0
    temperature: float = 0.0

    def __post_init__(self):
        check_policy(self.policy)

    @property
    def policy(self) -> Policy:
        """How the playouts play a seat of this kind."""
        return Policy(self.tremble, self.temperature)

    def probabilities(self, places: np.ndarray, sizes: np.ndarray) -> np.ndarray:
        """The probability of each card at ``places`` of greedy's order from a
        hand of ``sizes`` cards (arrays of the same shape)."""
        if self.temperature == 0:
            ordered = (places == 0).astype(np.float64)
        else:
            ratio = math.exp(-1.0 / self.temperature)
            ordered = ratio**places * (1 - ratio) / (1 - ratio**sizes)
        return self.tremble / sizes + (1 - self.tremble) * ordered


GREEDY_TREMBLE = 0.02  # the greedy bot never trembles; a little keeps a misread seat alive
KINDS = (
    Kind("greedy", tremble=GREEDY_TREMBLE),
    Kind("greedy-t0.5", temperature=0.5),
    Kind("greedy-t2", temperature=2.0),
    Kind("random", tremble=1.0),
)
PRIOR = (0.4, 0.2, 0.2, 0.2)


@dataclass(frozen=True)
class SeatBelief:
    """What ``plays`` cards of ``seat`` say of its kind: ``posterior[name]``."""

    seat: int
    plays: int
    posterior: dict[str, float]

    @property
    def likeliest(self) -> tuple[str, float]:
        name = max(self.posterior, key=self.posterior.get)
        return name, self.posterior[name]

    def __str__(self) -> str:
        name, p = self.likeliest
        if not self.plays:
            return f"seat {self.seat}: no card seen yet, {name} ({p:.0%}) by the prior"
        seen = f"{self.plays} card{'s' if self.plays > 1 else ''} seen"
        return f"seat {self.seat} plays like {name} ({p:.0%}, {seen})"

    def to_json(self) -> dict:
        return {
            "seat": self.seat,
            "plays": self.plays,
            "likeliest": self.likeliest[0],
            "posterior": {name: round(p, 4) for name, p in self.posterior.items()},
        }


@dataclass(frozen=True)
class OpponentModel:
    """A library of ``kinds`` and their ``prior`` probabilities (positive, sum 1)."""

    kinds: tuple[Kind, ...] = KINDS
    prior: tuple[float, ...] = PRIOR

    def __post_init__(self):
        if not self.kinds or len(self.kinds) != len(self.prior):
            raise OptionError("an opponent model needs one prior probability for each kind")
        if len({kind.name for kind in self.kinds}) != len(self.kinds):
            raise OptionError("the kinds of an opponent model need different names")
        if any(isinstance(p, bool) or not p > 0 for p in self.prior):
            raise OptionError(f"the prior probabilities must be above 0, not {self.prior}")
        if abs(sum(self.prior) - 1) > 1e-9:
            raise OptionError(f"the prior probabilities must sum to 1, not {sum(self.prior)}")

    def evidence(self, view: Record, deals: Sequence[tuple[Cards, Cards, Cards]]) -> Evidence:
        """The likelihood of the hidden seats' plays in ``view.moves`` under every
        kind, in each of ``deals`` (full hands at the record's start)."""
        turns = _turns(view)
        hidden = list(view.hidden)
        logs = np.zeros((len(deals), SEATS, len(self.kinds)))
        plays = dict.fromkeys(hidden, 0)
        if deals and any(seat in plays for seat, _, _ in turns):
            places = greedy_places(deals, turns)
            sizes = list(view.hand_sizes)
            for i, (seat, _, _) in enumerate(turns):
                if seat in plays:
                    plays[seat] += 1
                    for k, kind in enumerate(self.kinds):
                        p = kind.probabilities(places[:, i], np.float64(sizes[seat]))
                        logs[:, seat, k] += np.log(p)
                sizes[seat] -= 1
        return Evidence(self, hidden, plays, logs)

    def without_evidence(self, seats: Sequence[int]) -> Evidence:
        """The prior alone for ``seats``: no card of theirs seen, one deal's worth."""
        seats = list(seats)
        return Evidence(self, seats, dict.fromkeys(seats, 0), np.zeros((1, SEATS, len(self.kinds))))


class Evidence:
    """The log-likelihoods ``logs[deal, seat, kind]`` of the ``seats``' plays
    (``plays[seat]`` cards each) under ``model``'s kinds, deal by deal."""

    def __init__(self, model: OpponentModel, seats, plays: dict[int, int], logs: np.ndarray):
        self.model, self.seats, self.plays = model, list(seats), plays
        self.log_prior = np.log(np.array(model.prior))
        joint = logs[:, self.seats, :] + self.log_prior  # log(prior * likelihood)
        self._joint = joint
        self._marginal = np.logaddexp.reduce(joint, axis=2)  # [deal, seat] over the kinds

    def deal_weights(self) -> np.ndarray:
        """Each deal's marginal likelihood (the kinds summed out), the largest 1."""
        total = self._marginal.sum(axis=1)
        return np.exp(total - total.max())

    def beliefs(self) -> list[SeatBelief]:
        """Each seat's posterior over the kinds, from every deal: the deal's
        marginal likelihood with the seat's own kind held fixed, summed."""
        total = self._marginal.sum(axis=1)
        found = []
        for j, seat in enumerate(self.seats):
            others = (total - self._marginal[:, j])[:, None]
            logs = np.logaddexp.reduce(self._joint[:, j, :] + others, axis=0)
            posterior = np.exp(logs - logs.max())
            posterior /= posterior.sum()
            names = [kind.name for kind in self.model.kinds]
            found.append(SeatBelief(seat, self.plays[seat], dict(zip(names, posterior.tolist()))))
        return found

    def draw(self, deal: int, rng: random.Random) -> dict[int, Kind]:
        """A kind for each seat, drawn from its posterior given deal ``deal``."""
        drawn = {}
        for j, seat in enumerate(self.seats):
            weights = np.exp(self._joint[deal, j] - self._marginal[deal, j])
            drawn[seat] = rng.choices(self.model.kinds, weights.tolist())[0]
        return drawn


def check_model(model) -> OpponentModel:
    if not isinstance(model, OpponentModel):
        raise CoinsError(f"an opponent model is an OpponentModel, not {type(model).__name__}")
    return model
