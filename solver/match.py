"""Whole hands and whole matches of Coins, played by any card-choosing players.

A *player* chooses a card for its seat: a function ``choose(position, seat,
rng) -> card`` or an object with such a ``choose`` method. It is shown the
whole position (every hand visible; the toolkit's players are open-handed
solvers and random bots) and is given its own seeded ``random.Random``. The
card may be a ``Card``, an index or its text (``"AO"``). A player object
that also has ``choose_record(record, seat, rng)`` is called that way
instead, with the record of the hand so far (its start and every card
played), for players that read who played what (``analysis.bots.PimcBot``).
In a hand played to a target, a player with ``choose_for_match(record,
seat, rng, match)`` is called that way, ``match`` a ``MatchState`` (the
target and the scores when the hand began), for players that play for the
match.

Rules (RULES.md): the first dealer is the seat the users name (the oldest
player); the whole deck is dealt one card at a time clockwise from the
dealer's left (``rules.deal``); the player to the dealer's left leads; the
next hand's dealer is the seat to the right of the winner of the last trick
(``rules.next_dealer``), so that winner leads; scores carry over; the match
ends the moment a total reaches the target, at the end of the trick that got
it there, even mid-hand.

A ``MatchObserver`` passed to ``Hand`` or ``Match`` is told of each hand's
start and of every card as it is played (``coins play`` shows the game so).

Everything random comes from the seed: a match's seed gives each hand a seed,
and a hand's seed gives its deal (``rules.deal(dealer, random.Random(seed))``)
and then one stream per seat. The same seed and players give the same match::

    >>> result = Match([random_player] * 3, target=15, seed=7).play()
    >>> result == Match([random_player] * 3, target=15, seed=7).play()
    True
    >>> max(result.scores) >= 15 and result.scores[result.winner] == max(result.scores)
    True
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from . import checks
from .cards import SEATS, Card
from .errors import CoinsError, IllegalMoveError, NotationError
from .position import Position
from .record import Record
from .rules import deal, first_leader, next_dealer, trick_points

DEFAULT_TARGET = 15
# The highest target: a match to it lasts some 2,500 hands, and one without a bound
# never ends (a target of 10^23 points).
MAX_TARGET = 10_000


class MatchError(CoinsError):
    """Bad settings for a hand or a match (players, dealer, scores); a bad target or
    seed is an ``OptionError``."""


class PlayerError(IllegalMoveError):
    """A player chose a card its seat cannot play; ``seat`` and ``move`` say where."""

    def __init__(self, message: str, seat: int, move: int):
        super().__init__(message)
        self.seat = seat
        self.move = move


class Chooser(Protocol):
    def choose(self, position: Position, seat: int, rng: random.Random) -> Card | str | int: ...


Player = Callable[[Position, int, random.Random], "Card | str | int"] | Chooser


# ----- where a match stands ---------------------------------------------------------------


@dataclass(frozen=True)
class MatchState:
    """Where a match stands as a hand is played (RULES.md, "Values of a position
    in a match"): the ``target`` and each seat's ``scores`` when the hand
    began. A position's ``taken`` adds to them: a seat's total is its score
    plus its taken, and its need is the target minus that."""

    target: int
    scores: tuple[int, int, int] = (0, 0, 0)

    def __post_init__(self):
        object.__setattr__(self, "target", check_target(self.target))
        object.__setattr__(self, "scores", _check_scores(self.scores))
        self.needs()

    def needs(self, taken: Sequence[int] = (0, 0, 0)) -> tuple[int, int, int]:
        """The points each seat still needs after ``taken`` this hand (each at least 1)."""
        totals = [score + t for score, t in zip(self.scores, taken)]
        for seat, total in enumerate(totals):
            if total >= self.target:
                raise MatchError(
                    f"the match is over: seat {seat} has {total} points, "
                    f"the target is {self.target}"
                )
        return tuple(self.target - total for total in totals)

    def to_json(self) -> dict:
        return {"target": self.target, "scores": list(self.scores)}


def check_match(match, taken: Sequence[int] = (0, 0, 0)) -> MatchState | None:
    """``match`` if it is None or a ``MatchState`` that a hand with ``taken`` so
    far has not ended; ``MatchError`` otherwise."""
    if match is None:
        return None
    if not isinstance(match, MatchState):
        raise MatchError(f"match must be a MatchState, not {type(match).__name__}")
    match.needs(taken)
    return match


# ----- simple players ---------------------------------------------------------------------


def random_player(position: Position, seat: int, rng: random.Random) -> Card:
    """Any card the seat holds, uniformly at random (from the player's own stream)."""
    return rng.choice(position.legal_cards())


def lowest_card_player(position: Position, seat: int, rng: random.Random) -> Card:
    """The first card in index order (C, O, S, B; 2 up to Ace): deterministic."""
    return position.legal_cards()[0]


class RandomPlayer:
    """``random_player`` as an object with a ``choose`` method."""

    def choose(self, position: Position, seat: int, rng: random.Random) -> Card:
        return random_player(position, seat, rng)


# ----- results ----------------------------------------------------------------------------


@dataclass(frozen=True)
class HandResult:
    """One hand as played.

    ``record`` starts at the deal (``taken`` 0,0,0) and holds every card played;
    ``points`` are the Coins won in this hand, ``scores`` the match totals
    after it (scores before plus points). ``complete`` is False when the match
    ended mid-hand. ``last_winner`` won the last trick played (None if no trick
    was completed).
    """

    number: int
    dealer: int
    seed: int | None
    record: Record
    points: tuple[int, int, int]
    scores: tuple[int, int, int]
    last_winner: int | None
    complete: bool

    @property
    def leader(self) -> int:
        """The seat that led the first trick (left of the dealer)."""
        return self.record.leader


@dataclass(frozen=True)
class MatchResult:
    """A whole match: its hands in order, the final scores and the winner (and the
    scores it started from)."""

    hands: tuple[HandResult, ...]
    scores: tuple[int, int, int]
    winner: int
    target: int
    first_dealer: int
    seed: int | None
    start_scores: tuple[int, int, int] = (0, 0, 0)

    @property
    def records(self) -> list[Record]:
        return [hand.record for hand in self.hands]

    @property
    def number_of_hands(self) -> int:
        return len(self.hands)

    @property
    def dealers(self) -> list[int]:
        return [hand.dealer for hand in self.hands]


# ----- watching a match -------------------------------------------------------------------


@dataclass(frozen=True)
class CardPlayed:
    """One card as it is played, for a ``MatchObserver``.

    ``hand`` and ``move`` (1-based within the hand) say where; ``before`` and
    ``after`` are the positions around the card. When the card completed a
    trick, ``winner`` won it and took ``points``; ``scores`` are the match
    totals after the card.
    """

    hand: int
    move: int
    seat: int
    card: Card
    before: Position
    after: Position
    winner: int | None
    points: int
    scores: tuple[int, int, int]


class MatchObserver:
    """Told of every hand and card as they happen (a terminal game shows them).

    Subclasses override what they need; both methods do nothing here.
    """

    def hand_started(
        self, number: int, dealer: int, position: Position, scores: tuple[int, int, int]
    ) -> None:
        """Hand ``number`` is dealt by ``dealer``: ``position`` before its first card."""

    def card_played(self, played: CardPlayed) -> None:
        """A card was played (and maybe completed a trick)."""


# ----- a hand -----------------------------------------------------------------------------


class Hand:
    """One hand: deal (or start from ``start``), then play to the end of the hand,
    or until a seat's total (``scores`` plus its points in this hand) reaches
    ``target`` at the end of a trick.

    ``seed`` (an int or a ``random.Random``) drives the deal and the players'
    streams; ``start`` replaces the deal with a given position (``dealer`` then
    only labels the hand). ``observer`` (a ``MatchObserver``) is told of the
    start and of every card.
    """

    def __init__(
        self,
        players: Sequence[Player],
        dealer: int = 0,
        *,
        seed: int | random.Random | None = None,
        start: Position | str | None = None,
        scores: Sequence[int] = (0, 0, 0),
        target: int | None = None,
        number: int = 1,
        observer: MatchObserver | None = None,
    ):
        self.choosers = _choosers(players)
        self.observer = observer
        self.record_choosers = [getattr(p, "choose_record", None) for p in players]
        self.dealer = _check_seat(dealer, "dealer")
        self.scores = _check_scores(scores)
        self.target = None if target is None else check_target(target)
        if self.target is not None and max(self.scores) >= self.target:
            raise MatchError(f"scores {self.scores} already reach the target {self.target}")
        self.match = None if target is None else MatchState(self.target, self.scores)
        self.match_choosers = [
            getattr(p, "choose_for_match", None) if self.match else None for p in players
        ]
        self.number = number
        self.seed, self.rng = _seed_and_rng(seed)
        if isinstance(start, str):
            start = Position.parse(start)
        if start is not None and not isinstance(start, Position):
            raise MatchError(f"start must be a Position or its text, not {type(start).__name__}")
        self.start = start

    def play(self) -> HandResult:
        if self.start is None:
            hands = deal(self.dealer, self.rng)
            position = Position(hands, first_leader(self.dealer))
        else:
            position = self.start
        start = position
        if self.observer is not None:
            self.observer.hand_started(self.number, self.dealer, start, self.scores)
        seat_rngs = [random.Random(self.rng.getrandbits(64)) for _ in range(SEATS)]
        moves: list[Card] = []
        points = [0, 0, 0]
        last_winner = None
        reached = False
        while not position.is_terminal and not reached:
            seat = position.to_move
            card = self._choose(
                position, seat, seat_rngs[seat], len(moves) + 1, lambda: Record.of(start, moves)
            )
            before = position
            position = position.play(card)
            moves.append(card)
            winner, won = None, 0
            if not position.trick:  # the card completed a trick
                winner = last_winner = position.leader
                won = trick_points(before.trick + (card,))
                points[last_winner] += won
                total = self.scores[last_winner] + points[last_winner]
                reached = self.target is not None and total >= self.target
            if self.observer is not None:
                totals = tuple(s + p for s, p in zip(self.scores, points))
                self.observer.card_played(
                    CardPlayed(
                        self.number, len(moves), seat, card, before, position, winner, won, totals
                    )
                )
        scores = tuple(s + p for s, p in zip(self.scores, points))
        return HandResult(
            number=self.number,
            dealer=self.dealer,
            seed=self.seed,
            record=Record.of(start, moves),
            points=tuple(points),
            scores=scores,
            last_winner=last_winner,
            complete=position.is_terminal,
        )

    def _choose(
        self,
        position: Position,
        seat: int,
        rng: random.Random,
        move: int,
        record: Callable[[], Record],
    ) -> Card:
        """The seat's card, checked; ``record()`` makes the record so far, built
        only for ``choose_record`` and ``choose_for_match`` players."""
        where = f"hand {self.number}, move {move}: seat {seat}'s player"
        by_record = self.record_choosers[seat]
        if self.match_choosers[seat] is not None:
            choice = self.match_choosers[seat](record(), seat, rng, self.match)
        elif by_record is not None:
            choice = by_record(record(), seat, rng)
        else:
            choice = self.choosers[seat](position, seat, rng)
        try:
            card = Card.parse(choice) if isinstance(choice, str) else Card(choice)
        except (NotationError, TypeError, ValueError):
            raise PlayerError(f"{where} returned {choice!r}, not a card", seat, move) from None
        if not position.hands[seat] >> card & 1:
            raise PlayerError(f"{where} chose {card}, which seat {seat} does not hold", seat, move)
        return card


# ----- a match ----------------------------------------------------------------------------


class Match:
    """Hands until a seat's total reaches ``target`` (RULES.md).

    ``players``: three players, seat 0 first. ``first_dealer``: the seat that
    deals the first hand (the oldest player). ``seed``: an int or a
    ``random.Random`` (default: a fresh random seed, kept in the result so the
    match can be replayed). ``start_scores``: the seats' scores before the
    first hand (default 0,0,0; each below the target), to study the end of
    a match. ``max_hands`` is a safety stop (a match always ends:
    every hand gives out 12 points). ``observer`` (a ``MatchObserver``) is told
    of every hand and card as they are played.

    There are no ties: only a trick's winner scores, so the first seat to reach
    the target is the only one there, and it wins.
    """

    def __init__(
        self,
        players: Sequence[Player],
        target: int = DEFAULT_TARGET,
        first_dealer: int = 0,
        *,
        seed: int | random.Random | None = None,
        max_hands: int | None = None,
        observer: MatchObserver | None = None,
        start_scores: Sequence[int] = (0, 0, 0),
    ):
        self.players = players
        self.observer = observer
        _choosers(players)
        self.target = check_target(target)
        self.start_scores = MatchState(self.target, start_scores).scores
        self.first_dealer = _check_seat(first_dealer, "first_dealer")
        self.seed, self.rng = _seed_and_rng(seed)
        self.max_hands = max_hands

    def hands(self) -> Iterator[HandResult]:
        """Play hand after hand, yielding each as it ends (the last one ends the match)."""
        scores = self.start_scores
        dealer = self.first_dealer
        number = 0
        while True:
            number += 1
            if self.max_hands is not None and number > self.max_hands:
                raise MatchError(f"no seat reached {self.target} in {self.max_hands} hands")
            hand_seed = self.rng.getrandbits(64)
            hand = Hand(
                self.players,
                dealer,
                seed=hand_seed,
                scores=scores,
                target=self.target,
                number=number,
                observer=self.observer,
            ).play()
            yield hand
            scores = hand.scores
            if max(scores) >= self.target:
                return
            dealer = next_dealer(hand.last_winner)

    def play(self) -> MatchResult:
        """Play the whole match."""
        hands = tuple(self.hands())
        scores = hands[-1].scores
        winner = max(range(SEATS), key=lambda s: scores[s])
        return MatchResult(
            hands, scores, winner, self.target, self.first_dealer, self.seed, self.start_scores
        )


# ----- checks -----------------------------------------------------------------------------


def _choosers(players) -> list[Callable]:
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise MatchError("players must be a sequence of three players, seat 0 first")
    if len(players) != SEATS:
        raise MatchError(f"a game of Coins has three players, not {len(players)}")
    choosers = []
    for seat, player in enumerate(players):
        choose = getattr(player, "choose", None)
        if callable(choose):
            choosers.append(choose)
        elif callable(player):
            choosers.append(player)
        else:
            raise MatchError(
                f"player {seat} is neither a function choose(position, seat, rng) "
                f"nor an object with such a choose method: {player!r}"
            )
    return choosers


def _check_seat(seat, name: str) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in range(SEATS):
        raise MatchError(f"{name} must be a seat (0, 1 or 2), not {seat!r}")
    return seat


def check_target(target) -> int:
    """``target`` if it is a valid target score: a whole number from 1 to ``MAX_TARGET``."""
    return checks.whole_number(target, "the target", 1, MAX_TARGET)


def _check_scores(scores) -> tuple[int, int, int]:
    scores = tuple(scores)
    if len(scores) != SEATS or any(
        isinstance(s, bool) or not isinstance(s, int) or s < 0 for s in scores
    ):
        raise MatchError(f"scores must be three whole numbers, not {scores!r}")
    return scores


def _seed_and_rng(seed) -> tuple[int | None, random.Random]:
    if isinstance(seed, random.Random):
        return None, seed
    seed = secrets.randbits(64) if seed is None else checks.seed(seed)
    return seed, random.Random(seed)
