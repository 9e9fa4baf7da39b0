"""Whole hands and matches (solver.match) and records of play (solver.record).

Expected values: RULES.md (dealing, who leads, the next dealer, scores carry
over, the match ends at the trick that reaches the target; the record
example and seat 1's view of it), re-derived here from the moves with
``rules.trick_winner`` / ``rules.trick_points`` alone, so the bookkeeping is
checked independently of ``Record``'s and ``Match``'s own replay.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cards import FULL_DECK, Card, cards_in, popcount
from solver.errors import CoinsError, IllegalMoveError, NotationError, PositionError
from solver.match import (
    Hand,
    Match,
    MatchError,
    MatchObserver,
    PlayerError,
    RandomPlayer,
    lowest_card_player,
    random_player,
)
from solver.position import Position
from solver.record import Record, RecordError, RecordMoveError
from solver.rules import deal, left_of, right_of, trick_points, trick_winner

FULL_DEAL = "982.J8732.K95.AJ542 KNJ7543.96.AN874.96 A6.AKN54.J632.KN873 0 -"  # RULES.md
RULES_RECORD = FULL_DEAL + " | JO KC AO"  # RULES.md
RULES_VIEW = "? KNJ7543.96.AN874.96 ? 0 - | JO KC AO"  # RULES.md: seat 1's view


def replay_tricks(leader: int, moves) -> list[tuple[int, int]]:
    """(winner, points) of each completed trick of ``moves`` from a deal led by
    ``leader``, straight from RULES.md: three cards a trick, the winner leads."""
    out = []
    for start in range(0, len(moves) - len(moves) % 3, 3):
        trick = moves[start : start + 3]
        winner = (leader + trick_winner(trick)) % 3
        out.append((winner, trick_points(trick)))
        leader = winner
    return out


def check_match(result) -> None:
    """Every RULES.md rule of a match, re-derived from the records."""
    scores = list(result.start_scores)
    dealer = result.first_dealer
    ended = False
    assert result.hands, "a match has at least one hand"
    for number, hand in enumerate(result.hands, start=1):
        assert not ended, "a hand was played after the target was reached"
        record = hand.record
        assert hand.number == number
        assert hand.dealer == dealer
        # the deal: rules.deal with the hand's seed, 16 each, dealer's left leads
        start = record.start
        assert start.hands == deal(dealer, random.Random(hand.seed))
        assert [popcount(h) for h in start.hands] == [16, 16, 16]
        assert start.hands[0] | start.hands[1] | start.hands[2] == FULL_DECK
        assert start.leader == left_of(dealer) == hand.leader
        assert start.trick == () and start.taken == (0, 0, 0)
        # the play: tricks, scores carried over, stop at the first trick reaching the target
        assert len(record.moves) % 3 == 0
        points = [0, 0, 0]
        tricks = replay_tricks(start.leader, list(record.moves))
        for i, (winner, won) in enumerate(tricks):
            points[winner] += won
            if scores[winner] + points[winner] >= result.target:
                assert i == len(tricks) - 1, "the match went on past the target"
                ended = True
        assert tuple(points) == hand.points
        scores = [s + p for s, p in zip(scores, points)]
        assert tuple(scores) == hand.scores
        assert hand.complete == (len(record.moves) == 48)
        if not ended:
            assert hand.complete, "a hand stopped short of the target"
        last_winner = tricks[-1][0] if tricks else None
        assert hand.last_winner == last_winner
        dealer = right_of(last_winner)  # RULES.md: right of the last trick's winner
    assert ended
    assert tuple(scores) == result.scores
    assert result.scores[result.winner] >= result.target
    assert sum(1 for s in result.scores if s >= result.target) == 1
    assert result.number_of_hands == len(result.hands) == len(result.records)
    assert sum(result.scores) - sum(result.start_scores) <= 12 * len(result.hands)


# --- matches -----------------------------------------------------------------------------


@pytest.mark.parametrize("target", [1, 3, 10, 15, 20, 40])
@pytest.mark.parametrize("first_dealer", [0, 1, 2])
def test_match_bookkeeping(target, first_dealer):
    """Random bots, fixed seeds: dealer rotation, scores carried over, the end."""
    for seed in range(5):
        result = Match([random_player] * 3, target, first_dealer, seed=seed).play()
        assert result.target == target and result.first_dealer == first_dealer
        check_match(result)


def test_match_spans_hands_and_rotates_dealer():
    """Target 40 needs at least 4 hands (12 points a hand, 3 * 39 < 120 would not do):
    the dealers follow the last trick winners."""
    result = Match([random_player] * 3, target=40, first_dealer=1, seed=3).play()
    check_match(result)
    assert result.number_of_hands >= 4
    for before, after in zip(result.hands, result.hands[1:]):
        assert after.dealer == (before.last_winner + 2) % 3
        assert after.leader == before.last_winner
        assert after.scores == tuple(s + p for s, p in zip(before.scores, after.points))


def test_target_reached_mid_hand():
    """Target 3: the match stops at the first trick that brings a total to 3 or
    more; no card after it is recorded."""
    result = Match([random_player] * 3, target=3, seed=11).play()
    check_match(result)
    assert result.number_of_hands == 1
    hand = result.hands[0]
    assert not hand.complete and len(hand.record.moves) < 48
    totals = [0, 0, 0]
    tricks = replay_tricks(hand.record.leader, list(hand.record.moves))
    for i, (winner, won) in enumerate(tricks):
        totals[winner] += won
        assert (max(totals) >= 3) == (i == len(tricks) - 1)
    assert result.scores[result.winner] >= 3 and max(totals) == result.scores[result.winner]


def test_target_reached_mid_hand_in_a_later_hand():
    """Some seed ends a match mid-hand after a full hand: the earlier scores count."""
    found = 0
    for seed in range(60):
        result = Match([random_player] * 3, target=14, seed=seed).play()
        check_match(result)
        if result.number_of_hands >= 2 and not result.hands[-1].complete:
            found += 1
            first = result.hands[0].scores
            assert max(first) < 14
            assert first[result.winner] < 14 <= result.scores[result.winner]
    assert found >= 5


class Recorder(MatchObserver):
    """Keeps every event a match reports."""

    def __init__(self):
        self.starts = []
        self.cards = []

    def hand_started(self, number, dealer, position, scores):
        self.starts.append((number, dealer, position, scores))

    def card_played(self, played):
        self.cards.append(played)


def test_observer_sees_every_hand_and_card():
    """The observer's events tell the match the records tell: each hand's start,
    every card in order, each trick's winner and points, the running totals."""
    recorder = Recorder()
    result = Match([random_player] * 3, 20, 1, seed=5, observer=recorder).play()
    assert result == Match([random_player] * 3, 20, 1, seed=5).play()  # watching changes nothing
    assert len(recorder.starts) == result.number_of_hands >= 2
    before = (0, 0, 0)
    for hand, (number, dealer, position, scores) in zip(result.hands, recorder.starts):
        assert (number, dealer, position, scores) == (
            hand.number,
            hand.dealer,
            hand.record.start,
            before,
        )
        events = [e for e in recorder.cards if e.hand == hand.number]
        assert [e.card for e in events] == list(hand.record.moves)
        assert [e.move for e in events] == list(range(1, len(events) + 1))
        positions = list(hand.record.positions())
        assert [(e.before, e.after) for e in events] == list(zip(positions, positions[1:]))
        assert [e.seat for e in events] == [p.to_move for p in positions[:-1]]
        tricks = replay_tricks(hand.leader, list(hand.record.moves))
        assert [(e.winner, e.points) for e in events if e.winner is not None] == tricks
        assert all(e.points == 0 for e in events if e.winner is None)
        assert events[-1].scores == hand.scores
        before = hand.scores


def test_match_is_reproducible():
    """The same seed gives the same match; another seed another; a Random works as a seed."""
    players = [random_player, RandomPlayer(), random_player]
    one = Match(players, 20, 2, seed=123).play()
    two = Match(players, 20, 2, seed=123).play()
    assert one == two
    assert [str(r) for r in one.records] == [str(r) for r in two.records]
    assert Match(players, 20, 2, seed=random.Random(123)).play().hands == one.hands
    assert Match(players, 20, 2, seed=124).play().records != one.records


def test_match_ignores_global_random_state():
    random.seed(1)
    one = Match([random_player] * 3, 15, seed=9).play()
    random.seed(2)
    random.random()
    assert Match([random_player] * 3, 15, seed=9).play() == one


def test_unseeded_match_keeps_its_seed():
    """Without a seed a match draws one and reports it: replaying with it gives the same."""
    first = Match([random_player] * 3, 15).play()
    assert isinstance(first.seed, int)
    assert Match([random_player] * 3, 15, seed=first.seed).play() == first


def test_players_have_their_own_streams():
    """Each seat draws from its own stream: a seat's draws do not depend on how
    much randomness the others use, and the deal not on the players at all."""

    def logging_player(log, extra=0):
        def choose(position, seat, rng):
            for _ in range(extra):
                rng.random()
            log.append((seat, rng.random()))
            return lowest_card_player(position, seat, rng)

        return choose

    plain_log, greedy_log = [], []
    plain = Hand([logging_player(plain_log)] * 3, 0, seed=5).play()
    players = [logging_player(greedy_log)] * 3
    players[1] = logging_player(greedy_log, extra=10)
    greedy = Hand(players, 0, seed=5).play()
    assert plain.record == greedy.record  # same deal, same (lowest) cards
    for seat in (0, 2):
        assert [x for s, x in plain_log if s == seat] == [x for s, x in greedy_log if s == seat]
    assert [x for s, x in plain_log if s == 1] != [x for s, x in greedy_log if s == 1]
    assert len({x for _, x in plain_log}) == len(plain_log)  # three different streams


def test_random_bots_play_only_legal_cards():
    """Wrap the bots in a referee: every card chosen is in the mover's hand."""
    chosen = []

    def referee(position, seat, rng):
        assert seat == position.to_move
        card = random_player(position, seat, rng)
        assert card in position.legal_cards()
        chosen.append(card)
        return card

    result = Match([referee] * 3, target=30, seed=4).play()
    check_match(result)
    assert len(chosen) == sum(len(r.moves) for r in result.records)
    for record in result.records:  # and the records replay under Record's own check
        Record.parse(str(record))


def test_players_may_answer_with_text_or_index():
    by_text = Hand([lambda p, s, r: str(p.legal_cards()[0])] * 3, 1, seed=2).play()
    by_index = Hand([lambda p, s, r: int(p.legal_cards()[0])] * 3, 1, seed=2).play()
    lowest = Hand([lowest_card_player] * 3, 1, seed=2).play()
    assert by_text.record == by_index.record == lowest.record


def test_bad_player_choice_is_named():
    def cheat(position, seat, rng):
        other = position.hands[(seat + 1) % 3]
        return cards_in(other)[0]

    with pytest.raises(PlayerError) as info:
        Hand([lowest_card_player, cheat, lowest_card_player], 0, seed=1).play()
    # dealer 0: seat 1 leads, so the cheat fails at move 1
    assert info.value.seat == 1 and info.value.move == 1
    assert str(info.value).startswith("hand 1, move 1: seat 1's player chose ")
    assert isinstance(info.value, IllegalMoveError)
    with pytest.raises(PlayerError, match="not a card"):
        Hand([lambda p, s, r: "XX"] * 3, seed=1).play()


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(players=[random_player] * 2),
        dict(players=[random_player, None, random_player]),
        dict(players="abc"),
        dict(first_dealer=3),
        dict(first_dealer=-1),
    ],
)
def test_bad_match_settings(kwargs):
    settings_ = dict(players=[random_player] * 3, target=15, first_dealer=0, seed=1)
    settings_.update(kwargs)
    with pytest.raises(MatchError):
        Match(
            settings_["players"],
            settings_["target"],
            settings_["first_dealer"],
            seed=settings_["seed"],
        ).play()
    assert issubclass(MatchError, CoinsError)


def test_hand_from_a_given_position():
    """Hand(start=...) plays a given position out; RULES.md's deal with lowest cards."""
    result = Hand([lowest_card_player] * 3, 2, start=FULL_DEAL).play()
    assert str(result.record).startswith(FULL_DEAL + " | ")
    assert result.complete and len(result.record) == 48 and sum(result.points) == 12
    expected = Position.parse(FULL_DEAL)
    for card in result.record.moves:
        assert card == expected.legal_cards()[0]
        expected = expected.play(card)
    assert result.record.final == expected
    assert result.points == expected.taken
    assert result.last_winner == expected.leader


def test_hand_with_scores_and_target():
    start = Position.parse("..A. ...2 .2.. 1 -")  # 2B, 2O, AS: 2O wins for seat 2 (1 coin)
    hand = Hand([lowest_card_player] * 3, start=start, scores=(0, 0, 4), target=5).play()
    assert hand.scores == (0, 0, 5) and hand.points == (0, 0, 1) and hand.last_winner == 2
    with pytest.raises(MatchError):
        Hand([lowest_card_player] * 3, start=start, scores=(0, 0, 5), target=5)


# --- records -------------------------------------------------------------------------------


def test_rules_record_example():
    """RULES.md: JO KC AO from the full deal; AO wins; seat 2 takes 2 and leads."""
    record = Record.parse(RULES_RECORD)
    assert str(record) == RULES_RECORD
    assert record.moves == tuple(Card.parse(c) for c in ("JO", "KC", "AO"))
    assert record.start == Position.parse(FULL_DEAL)
    after = record.position_after(3)
    assert after.leader == 2 and after.taken == (0, 0, 2) and after.trick == ()
    assert record.points() == (0, 0, 2) and record.to_move == 2
    assert record.tricks() == [(0, record.moves, 2)]
    assert [record.position_after(n) for n in range(4)] == list(record.positions())


def test_rules_view_example():
    """RULES.md: seat 1's view of the same moment, hands 0 and 2 written '?'."""
    record = Record.parse(RULES_RECORD)
    view = record.view(1)
    assert str(view) == RULES_VIEW
    parsed = Record.parse(RULES_VIEW)
    assert parsed == view and str(parsed) == RULES_VIEW
    assert parsed.hidden == (0, 2) and parsed.is_view
    assert parsed.hand_sizes == (16, 16, 16)  # the '?' sizes follow from hand 1
    assert parsed.points() == (0, 0, 2) and parsed.to_move == 2
    with pytest.raises(RecordError):
        parsed.position_after(1)
    with pytest.raises(RecordError):
        parsed.view(0)  # seat 0's hand is hidden in seat 1's view


def test_record_error_names_the_move():
    """Seat 0 leads 2C, seat 1 3C, seat 2 3S: Cups pair, 3C wins, seat 1 leads move 4
    and cannot play 8C, which seat 0 holds."""
    text = FULL_DEAL + " | 2C 3C 3S 8C"
    with pytest.raises(RecordMoveError) as info:
        Record.parse(text)
    assert str(info.value) == "move 4: seat 1 does not hold 8C"
    assert info.value.move == 4
    assert isinstance(info.value, (NotationError, IllegalMoveError))
    Record.parse(FULL_DEAL + " | 2C 3C 3S 7C")  # 7C is seat 1's


@pytest.mark.parametrize(
    "text, message",
    [
        (FULL_DEAL + " | JO KC AO AO", "move 4: seat 2 does not hold AO"),
        (FULL_DEAL + " | JO XX", 'move 2: card "XX" is not a card'),
        ("..A. ...2 .2.. 1 - | 2B 2O AS 3C", "move 4: the hand is over"),
        ("? KNJ7543.96.AN874.96 ? 0 - | KC", "move 1: seat 0 cannot play KC: seat 1 holds it"),
        (RULES_VIEW + " JO", "move 4: seat 2 cannot play JO: it was played at move 1"),
        ("? 7... .K.. 1 2S,5B | 2S", "move 1: seat 0 cannot play 2S: it was on the table"),
    ],
)
def test_record_move_errors(text, message):
    with pytest.raises(RecordError) as info:
        Record.parse(text)
    assert str(info.value).startswith(message)
    assert int(message.split(":")[0].split()[1]) == info.value.move


@pytest.mark.parametrize(
    "text",
    [
        FULL_DEAL,  # no '|'
        FULL_DEAL + " | JO | KC",
        "? ? ? 0 - | JO",  # nothing shown
        "? KNJ7543.96.AN874.96 ... 0 - |",  # sizes 16 and 0 with no trick
        "? .AKNJ98765432.. ? 0 - 1,0,0 |",  # every Coin in hand 1: none can be gone
        "? 7... .K.. 3 2S,5B |",
        "? 7... .K.. 1 2S,5B,6B |",
        "? 7... 7... 0 - |",  # duplicate
        "?.. 7... .K.. 0 - |",
        "982.J8732.K95.AJ542 KNJ7543.96.AN874.96 A6.AKN54.J632.KN873 3 - | JO",
    ],
)
def test_bad_records(text):
    with pytest.raises(CoinsError):
        Record.parse(text)


def test_view_taken_is_checked_against_what_can_be_gone():
    """In a view the Coins gone are unknown; taken may be any amount the unseen
    cards allow. Hand 1 holds 11 Coins, so at most one Coin can be gone."""
    Record.parse("? .KNJ98765432.. ? 0 - 1,0,0 |")
    with pytest.raises(PositionError) as info:
        Record.parse("? .KNJ98765432.. ? 0 - 1,1,0 |")
    assert info.value.field == "taken"
    # once the hidden seats have played AO, it cannot have been gone before
    with pytest.raises(PositionError):
        Record.parse("? .KNJ98765432.. ? 2 - 1,0,0 | AO")


def test_empty_record():
    record = Record.parse(FULL_DEAL + " |")
    assert record.moves == () and str(record) == FULL_DEAL + " |"
    assert Record.parse(FULL_DEAL + " | ") == record
    assert record.final == record.start == Position.parse(FULL_DEAL)


def test_record_append_and_of():
    start = Position.parse(FULL_DEAL)
    record = Record.of(start).append("JO").append(Card.parse("KC"), 23)
    assert record == Record.parse(RULES_RECORD)
    with pytest.raises(RecordMoveError, match="move 4"):
        record.append("AO")
    with pytest.raises(RecordError):
        record.position_after(4)


@settings(max_examples=40)
@given(st.integers(0, 2**32), st.integers(0, 48), st.integers(0, 2))
def test_record_round_trip(seed, plays, seat):
    """Random hands: parse(str(r)) == r for the record and every seat's view;
    position_after(n) equals playing the first n cards; the view's points equal
    the full record's."""
    hand = Hand([random_player] * 3, seed % 3, seed=seed).play()
    record = Record.of(hand.record.start, hand.record.moves[:plays])
    text = str(record)
    assert Record.parse(text) == record and str(Record.parse(text)) == text
    position = record.start
    for n, card in enumerate(record.moves):
        assert record.position_after(n) == position
        position = position.play(card)
    assert record.final == position
    assert record.taken_after == position.taken
    view = record.view(seat)
    assert Record.parse(str(view)) == view
    assert str(view).split(" ").count("?") == 2
    assert view.points() == record.points() and view.hand_sizes == record.hand_sizes
    assert view.to_move == record.to_move == position.to_move


def test_records_from_endings_round_trip():
    """Records that start mid-hand (a trick on the table, taken) replay and print."""
    rng = random.Random(8)
    for _ in range(50):
        start = Position.random(rng, rng.randint(1, 16), rng.randrange(3))
        for _ in range(rng.randint(0, 2)):
            start = start.play(rng.choice(start.legal_cards()))
        if not start.legal_cards():
            continue
        moves = []
        position = start
        for _ in range(rng.randint(0, 3 * start.cards_per_hand)):
            if position.is_terminal:
                break
            card = rng.choice(position.legal_cards())
            moves.append(card)
            position = position.play(card)
        record = Record.of(start, moves)
        assert Record.parse(str(record)) == record
        assert record.final == position
        for seat in range(3):
            view = Record.parse(str(record.view(seat)))
            assert view.hand_sizes == tuple(popcount(h) for h in start.hands)
