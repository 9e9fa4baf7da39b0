"""Coins as an OpenSpiel game: OpenSpiel's own checks, and the scores of the project's rules."""

import random

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="open_spiel is not installed (pip install '.[openspiel]')"
)

from coins.openspiel_game import GAME_NAME, IsmctsBot, state_of  # noqa: E402
from solver import Position, Record  # noqa: E402
from solver.cards import Card  # noqa: E402
from solver.rules import trick_points, trick_winner  # noqa: E402


def random_game(seed: int, dealer: int = 2):
    """A whole hand through OpenSpiel, every chance outcome and card drawn from ``seed``."""
    game = pyspiel.load_game(GAME_NAME, {"dealer": dealer})
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return game, state


def test_openspiel_random_simulation():
    game = pyspiel.load_game(GAME_NAME)
    assert game.num_players() == 3
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


@pytest.mark.parametrize("seed,dealer", [(1, 2), (2, 0), (3, 1)])
def test_random_game_scores_as_the_rules_say(seed, dealer):
    """The returns are the Coins of the tricks each seat won, trick by trick from
    ``solver.rules``, with the winner leading the next trick."""
    _, state = random_game(seed, dealer)
    history = state.history()
    deal, plays = history[:48], history[48:]
    hands = [0, 0, 0]
    leader = (dealer + 1) % 3
    for k, card in enumerate(deal):
        hands[(leader + k) % 3] |= 1 << card
    start = Position(tuple(hands), leader)
    points = [0, 0, 0]
    for first in range(0, 48, 3):
        trick = plays[first : first + 3]
        for place, card in enumerate(trick):
            assert hands[(leader + place) % 3] >> card & 1, "a card its seat does not hold"
        leader = (leader + trick_winner(trick)) % 3
        points[leader] += trick_points(trick)
    assert state.returns() == points
    assert sum(points) == 12
    assert list(Record.of(start, [Card(c) for c in plays]).final.taken) == points


def test_information_state_hides_the_other_hands():
    """Two states that differ only in the cards another seat holds look the same to
    the seat; the seat that holds them sees the difference."""
    state = pyspiel.load_game(GAME_NAME).new_initial_state()
    rng = random.Random(4)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    for _ in range(7):
        state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    other = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert str(other) != str(state)
    assert other.information_state_string(seat) == state.information_state_string(seat)
    assert other.information_state_tensor(seat) == state.information_state_tensor(seat)
    assert other.observation_tensor(seat) == state.observation_tensor(seat)
    neighbour = (seat + 1) % 3
    assert other.information_state_tensor(neighbour) != state.information_state_tensor(neighbour)
    assert "?" in state.information_state_string(seat)


def test_state_of_a_record_replays_it():
    """The same hands and cards played (the deal's order may differ: it is not seen)."""
    game, state = random_game(5)
    again = state_of(game, state.record())
    assert str(again) == str(state)
    assert again.history()[48:] == state.history()[48:]
    assert again.returns() == state.returns()


def test_ismcts_plays_a_card_it_holds():
    record = Record.of(Position.random(6, leader=1))
    card = IsmctsBot(5).choose_record(record, 1, random.Random(1))
    assert card in record.final.legal_cards()
