"""Coins as an OpenSpiel game (``pyspiel.load_game("coins")``), for OpenSpiel's algorithms.

Importing this module registers the game; it needs the ``open_spiel`` package
(the ``[openspiel]`` extra). One game is one hand of RULES.md: three players,
a chance node for each of the 48 cards dealt (one at a time, clockwise from
the leader, uniformly from the cards left), then 48 cards played. An action
is a card's index (``12 * suit + rank``, RULES.md), for the deal and for the
play alike. The play is the project's own: the state holds a
``solver.Position`` and plays each card through ``Position.play``, which
decides the tricks and counts their Coins (``solver.rules``). The returns
are the Coins each seat won in the hand (they add up to 12). The parameter
``dealer`` (default 2) names the dealer; the seat on its left leads.

Imperfect information: a seat sees its own hand, the cards played and by
whom, the tricks' winners and the Coins taken. Its information state string
is its view of the record in RULES.md notation (the other hands written
``?``); the tensors hold the same, as one-hot blocks (``CoinsObserver``).
``CoinsState.resample_from_infostate`` deals the unseen cards again at
random (``solver.sampling``), as information-set searches such as
OpenSpiel's ISMCTS need; ``IsmctsBot`` plays OpenSpiel's (Python) ISMCTS
as a player of ``solver.match``, so it can sit at a table with the
project's bots.
"""

from __future__ import annotations

import random

import numpy as np
import pyspiel

from solver import Position, Record
from solver.cards import DECK_SIZE, SEATS, Card, format_hand
from solver.rules import first_leader, right_of
from solver.sampling import resample_position

GAME_NAME = "coins"
TRICKS = DECK_SIZE // SEATS
DEFAULT_DEALER = 2  # so that seat 0 leads

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Coins (Mark Steere): one hand",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=SEATS,
    min_num_players=SEATS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"dealer": DEFAULT_DEALER},
)
_GAME_INFO = pyspiel.GameInfo(
    num_distinct_actions=DECK_SIZE,
    max_chance_outcomes=DECK_SIZE,
    num_players=SEATS,
    min_utility=0.0,
    max_utility=12.0,
    utility_sum=12.0,
    max_game_length=2 * DECK_SIZE,
)


class CoinsGame(pyspiel.Game):
    """One hand of Coins."""

    def __init__(self, params=None):
        super().__init__(_GAME_TYPE, _GAME_INFO, params or {})
        self.leader = first_leader(self.get_parameters()["dealer"])

    def new_initial_state(self) -> CoinsState:
        return CoinsState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> CoinsObserver:
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return CoinsObserver(perfect_recall, params)


class CoinsState(pyspiel.State):
    """The deal so far, then the play as a ``solver.Position`` and the cards played."""

    def __init__(self, game: CoinsGame):
        super().__init__(game)
        self.leader = game.leader
        self.dealt = [0, 0, 0]
        self.cards_dealt = 0
        self.start: Position | None = None  # the deal, once complete
        self.position: Position | None = None
        self.plays: list[tuple[int, Card]] = []  # (seat, card) of every card played
        self.winners: list[int] = []  # the seat that won each trick so far

    def current_player(self) -> int:
        if self.position is None:
            return pyspiel.PlayerId.CHANCE
        if self.position.is_terminal:
            return pyspiel.PlayerId.TERMINAL
        return self.position.to_move

    def _legal_actions(self, player: int) -> list[int]:
        return [int(card) for card in self.position.legal_cards()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = [c for c in range(DECK_SIZE) if not (self.dealt_mask() >> c & 1)]
        return [(c, 1.0 / len(left)) for c in left]

    def dealt_mask(self) -> int:
        return self.dealt[0] | self.dealt[1] | self.dealt[2]

    def _apply_action(self, action: int) -> None:
        if self.position is None:
            self.dealt[(self.leader + self.cards_dealt) % SEATS] |= 1 << action
            self.cards_dealt += 1
            if self.cards_dealt == DECK_SIZE:
                self.start = self.position = Position(tuple(self.dealt), self.leader)
            return
        self.plays.append((self.position.to_move, Card(action)))
        self.position = self.position.play(action)
        if not self.position.trick:  # the card ended a trick: its winner leads the next
            self.winners.append(self.position.leader)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {Card(action)}"
        return str(Card(action))

    def is_terminal(self) -> bool:
        return self.position is not None and self.position.is_terminal

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * SEATS
        return [float(points) for points in self.position.taken]

    def record(self) -> Record:
        """The hand so far in RULES.md notation: the deal and the cards played."""
        return Record.of(self.start, [card for _, card in self.plays])

    def view(self, player: int) -> str:
        """What ``player`` sees, in RULES.md notation (its hand so far during the deal)."""
        if self.start is None:
            return f"seat {player} dealt {format_hand(self.dealt[player])}"
        return str(self.record().view(player))

    def resample_from_infostate(self, player: int, probability_sampler=None) -> CoinsState:
        """A state ``player`` cannot tell from this one: the unseen cards dealt again,
        the same cards played. ``probability_sampler`` (OpenSpiel's, a callable
        giving numbers in [0, 1)) seeds the shuffle when given."""
        seed = None if probability_sampler is None else int(probability_sampler() * 2**53)
        rng = random.Random(seed)
        if self.start is None:
            raise pyspiel.SpielError("resample_from_infostate during the deal is not supported")
        hands = list(resample_position(self.position, player, rng).hands)
        for seat, card in self.plays:
            hands[seat] |= 1 << card
        deal = Position(tuple(hands), self.leader)
        return state_of(self.get_game(), Record.of(deal, [card for _, card in self.plays]))

    def __str__(self) -> str:
        if self.start is None:
            return " ".join(format_hand(hand) for hand in self.dealt)
        return str(self.record())


def state_of(game: CoinsGame, record: Record) -> CoinsState:
    """The state of ``record`` (a full record from a deal whose leader is the game's):
    the deal applied card by card, then the moves."""
    start = record.start
    if start.leader != game.leader or not start.is_full_deal or start.trick:
        raise pyspiel.SpielError(f"not a deal that seat {game.leader} leads: {start}")
    state = game.new_initial_state()
    hands = [sorted(Card(c) for c in start.hand(seat)) for seat in range(SEATS)]
    for k in range(DECK_SIZE):
        state.apply_action(int(hands[(game.leader + k) % SEATS][k // SEATS]))
    for card in record.moves:
        state.apply_action(int(card))
    return state


class CoinsObserver:
    """A seat's view as a tensor (OpenSpiel's PyObserver): its player (3), its hand
    (48), who played each card (48 x 3), the cards on the table in order (2 x 48),
    each trick's winner (16 x 3), the Coins taken (3), the current leader (3);
    with ``perfect_recall`` (the information state) also the trick each card
    was played in (48 x 16), which gives the order of the whole play."""

    def __init__(self, perfect_recall: bool, params=None):
        if params:
            raise ValueError(f"the Coins observer takes no parameters, not {params}")
        pieces = [
            ("player", (SEATS,)),
            ("hand", (DECK_SIZE,)),
            ("played_by", (DECK_SIZE, SEATS)),
            ("table", (2, DECK_SIZE)),
            ("trick_winners", (TRICKS, SEATS)),
            ("taken", (SEATS,)),
            ("leader", (SEATS,)),
        ]
        if perfect_recall:
            pieces.append(("played_in_trick", (DECK_SIZE, TRICKS)))
        self.perfect_recall = perfect_recall
        sizes = [int(np.prod(shape)) for _, shape in pieces]
        self.tensor = np.zeros(sum(sizes), np.float32)
        self.dict = {}
        offset = 0
        for (name, shape), size in zip(pieces, sizes):
            self.dict[name] = self.tensor[offset : offset + size].reshape(shape)
            offset += size

    def set_from(self, state: CoinsState, player: int) -> None:
        self.tensor.fill(0)
        self.dict["player"][player] = 1
        if state.position is None:
            _set_cards(self.dict["hand"], state.dealt[player])
            return
        position = state.position
        _set_cards(self.dict["hand"], position.hands[player])
        for number, (seat, card) in enumerate(state.plays):
            self.dict["played_by"][card, seat] = 1
            if self.perfect_recall:
                self.dict["played_in_trick"][card, number // SEATS] = 1
        for place, card in enumerate(position.trick):
            self.dict["table"][place, card] = 1
        for trick, winner in enumerate(state.winners):
            self.dict["trick_winners"][trick, winner] = 1
        self.dict["taken"][:] = position.taken
        self.dict["leader"][position.leader] = 1

    def string_from(self, state: CoinsState, player: int) -> str:
        if self.perfect_recall or state.position is None:
            return state.view(player)
        return str(Record.of(state.position).view(player))


def _set_cards(row: np.ndarray, mask: int) -> None:
    for card in range(DECK_SIZE):
        if mask >> card & 1:
            row[card] = 1


class IsmctsBot:
    """OpenSpiel's ISMCTS (``open_spiel.python.algorithms.ismcts``) with random
    rollouts, ``simulations`` a decision, as a player of ``solver.match``. It
    is handed the true state, but searches only deals drawn from its seat's
    information state (``resample_from_infostate``)."""

    def __init__(self, simulations: int, uct_c: float = 2.0):
        self.simulations = simulations
        self.uct_c = uct_c

    def choose_record(self, record: Record, seat: int, rng: random.Random) -> Card:
        from open_spiel.python.algorithms import ismcts, mcts

        cards = record.final.legal_cards()
        if len(cards) == 1:
            return cards[0]
        game = pyspiel.load_game(GAME_NAME, {"dealer": right_of(record.start.leader)})
        numbers = np.random.RandomState(rng.getrandbits(32))
        bot = ismcts.ISMCTSBot(
            game,
            mcts.RandomRolloutEvaluator(1, numbers),
            self.uct_c,
            self.simulations,
            random_state=numbers,
        )
        return Card(int(bot.step(state_of(game, record))))

    def choose(self, position: Position, seat: int, rng: random.Random) -> Card:
        return self.choose_record(Record.of(position), seat, rng)


pyspiel.register_game(_GAME_TYPE, CoinsGame)

__all__ = ["GAME_NAME", "CoinsGame", "CoinsObserver", "CoinsState", "IsmctsBot", "state_of"]
