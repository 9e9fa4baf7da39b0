"""Positions: strict parsing (invalid.txt), canonical printing, round trips, play().

Expected values: ``tests/vectors/invalid.txt`` (every line must be rejected),
the vector positions and RULES.md's examples (canonical strings), and the
rules re-applied by hand (``solver.rules.trick_winner``) for ``play``.
"""

from __future__ import annotations

import random
import re

import pytest
from conftest import ROOT, load_invalid, load_jsonl
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import random_game_position, random_position, with_random_taken

from solver.cards import Card, cards_in, popcount
from solver.errors import CoinsError, IllegalMoveError, NotationError, PositionError
from solver.position import Position
from solver.record import Record
from solver.rules import trick_points, trick_winner

INVALID = load_invalid()
FULL_DEAL = "982.J8732.K95.AJ542 KNJ7543.96.AN874.96 A6.AKN54.J632.KN873 0 -"  # RULES.md
VECTOR_POSITIONS = sorted(
    {line["position"] for name in ("paranoid.jsonl", "maxn.jsonl") for line in load_jsonl(name)}
)


# --- rejecting bad input ----------------------------------------------------------------


def test_invalid_vector_is_not_empty():
    assert len(INVALID) >= 40
    assert all(reason for _, reason in INVALID), "every line has a tab and a reason"


@pytest.mark.parametrize("text, reason", INVALID, ids=[r for _, r in INVALID])
def test_invalid_positions_rejected(text, reason):
    """invalid.txt: each string is rejected with a CoinsError (PositionError or
    NotationError) carrying a one-line message, never with another exception."""
    try:
        Position.parse(text)
    except (PositionError, NotationError) as error:
        assert isinstance(error, CoinsError)
        message = str(error)
        assert message and "\n" not in message
    except Exception as error:  # noqa: BLE001 - the point is that nothing else escapes
        pytest.fail(f"{text!r} ({reason}) raised {type(error).__name__}: {error}")
    else:
        pytest.fail(f"{text!r} was accepted, but {reason}")


@pytest.mark.parametrize("value", [None, 3, b"... ... ... 0 -", ["... ... ... 0 -"]])
def test_parse_rejects_non_text(value):
    with pytest.raises(CoinsError):
        Position.parse(value)


@pytest.mark.parametrize(
    "text, field",
    [
        ("A9.3.. 7.J.2. .K6..T 0 -", "hand2"),  # bad rank in hand 2
        ("A9.3.. 7.J2. .K6..4 0 -", "hand1"),  # 3 groups in hand 1
        ("A9.3.. 7.J.2. .K6..4 3 -", "leader"),
        ("A9.3.. 7.J.2. .K6..4 x -", "leader"),
        ("A9... 7.J.2. .K6..4 0 3D", "trick"),
        ("A9... 7.J.2. .K6..4 0 3O,", "trick"),
        ("A9... 7.J.. .K6.. 0 2S,5B,8B", "trick"),
        ("A9.3.. 7.J.2. .K6..4 0 - 13,0,0", "taken"),
        ("A9.3.. 7.J.2. .K6..4 0 - -1,0,0", "taken"),
        ("A9.3.. 7.J.2. .K6..4 0 - 1,2", "taken"),
        ("A9.3..2 7.J.2. .K6..4 0 -", "hands"),  # sizes 4,3,3 with no trick
        ("A9.3.. 7.J.2. .K6..4 0", "position"),  # missing field
        ("A9.3.. 7.J.2. .K6..4 0 - | AC 7C 6O", "position"),  # a record
    ],
)
def test_errors_name_the_field(text, field):
    """PositionError.field names the part of the position that is wrong."""
    with pytest.raises(PositionError) as info:
        Position.parse(text)
    assert info.value.field == field, str(info.value)


def test_duplicate_across_hands_names_a_hand():
    with pytest.raises(PositionError) as info:
        Position.parse("A9.3.. A.J.2. .K6..4 0 -")
    assert info.value.field in ("hand0", "hand1")
    assert "AC" in str(info.value)


def test_constructor_validates_like_the_parser():
    hands = Position.parse("A9.3.. 7.J.2. .K6..4 0 -").hands
    with pytest.raises(PositionError):
        Position(hands, 3)
    with pytest.raises(PositionError):
        Position(hands, 0, (), (9, 0, 0))
    with pytest.raises(PositionError):
        Position((hands[0], hands[0], hands[2]), 0)
    with pytest.raises(PositionError):
        Position((hands[0], hands[1], 1 << 48), 0)


# --- printing and round trips -------------------------------------------------------------


def canonical(text: str) -> str:
    """RULES.md canonical form of a valid position string: taken omitted when 0,0,0."""
    return text.removesuffix(" 0,0,0")


def test_vector_positions_present():
    assert len(VECTOR_POSITIONS) >= 100


@pytest.mark.parametrize("text", VECTOR_POSITIONS + [FULL_DEAL])
def test_vector_round_trip(text):
    """Every vector position (canonical by vectors/README.md) prints back as itself,
    but for an explicit taken of 0,0,0, which the writer omits."""
    position = Position.parse(text)
    assert str(position) == canonical(text)
    assert Position.parse(str(position)) == position


RANKS_HIGH_TO_LOW = "AKNJ98765432"


def assert_canonical(text: str, position: Position) -> None:
    fields = text.split(" ")
    assert len(fields) == (5 if position.taken == (0, 0, 0) else 6)
    for seat in range(3):
        groups = fields[seat].split(".")
        assert len(groups) == 4
        for group in groups:
            order = [RANKS_HIGH_TO_LOW.index(r) for r in group]
            assert order == sorted(order) and len(set(order)) == len(order), group
    assert fields[3] == str(position.leader)
    assert fields[4] == (",".join(str(c) for c in position.trick) or "-")
    if len(fields) == 6:
        assert re.fullmatch(r"\d+,\d+,\d+", fields[5])


@settings(max_examples=300)
@given(st.randoms(use_true_random=False), st.integers(0, 47), st.booleans())
def test_random_round_trip(rng, plays, taken):
    """parse(str(p)) == p and str is canonical, for random deals after random plays
    with random taken consistent with the Coins gone."""
    position = random_game_position(rng, plays, taken=taken)
    text = str(position)
    assert_canonical(text, position)
    again = Position.parse(text)
    assert again == position
    assert str(again) == text


@settings(max_examples=200)
@given(st.randoms(use_true_random=False), st.integers(1, 16), st.integers(0, 2), st.booleans())
def test_random_round_trip_endings(rng, cards, on_table, taken):
    position = random_position(rng, cards, on_table=on_table, taken=taken)
    assert Position.parse(str(position)) == position
    assert_canonical(str(position), position)


def test_canonical_examples():
    """RULES.md's full deal prints as written; taken is omitted when 0,0,0 and kept
    otherwise; ranks are written high to low whatever the input order."""
    assert str(Position.parse(FULL_DEAL)) == FULL_DEAL
    assert str(Position.parse(FULL_DEAL + " 0,0,0")) == FULL_DEAL
    assert str(Position.parse("29K... 3..5.2 .4.7.3 1 -")) == "K92... 3..5.2 .4.7.3 1 -"
    assert str(Position.parse("..J. ... J... 1 2O 3,2,2")) == "..J. ... J... 1 2O 3,2,2"
    empty = Position.parse("... ... ... 2 - 4,4,4")
    assert str(empty) == "... ... ... 2 - 4,4,4"
    assert empty.is_terminal


def test_full_deal_fields():
    """RULES.md: a full deal, 16 cards each, seat 0 leads and is to move."""
    position = Position.parse(FULL_DEAL)
    assert [popcount(h) for h in position.hands] == [16, 16, 16]
    assert position.leader == 0 and position.to_move == 0 and position.trick == ()
    assert position.taken == (0, 0, 0)
    assert position.coins_left == 12
    assert not position.is_terminal


def test_to_move():
    """RULES.md: the seat to move is (leader + number of cards in trick) mod 3."""
    assert Position.parse("A9... 7.J.. .K6.. 2 -").to_move == 2
    assert Position.parse("A9.3.. 7.J.2. .K6.. 2 4B").to_move == 0
    assert Position.parse("A9... 7... .K.. 1 2S,5B").to_move == 0
    assert Position.parse("A9... 7... .K.. 1 2S,5B").legal_cards() == [
        Card.parse("9C"),
        Card.parse("AC"),
    ]


def test_position_random_is_seeded():
    assert Position.random(5, 16) == Position.random(random.Random(5), 16)
    assert Position.random(5, 16) != Position.random(6, 16)
    full = Position.random(5, 16, leader=2)
    assert [popcount(h) for h in full.hands] == [16, 16, 16] and full.leader == 2
    assert [popcount(h) for h in Position.random(5, 3).hands] == [3, 3, 3]
    with pytest.raises(PositionError):
        Position.random(5, 17)
    with pytest.raises(PositionError):
        Position.random(5, 3, leader=3)


# --- play -----------------------------------------------------------------------------------


def test_play_rules_example():
    """RULES.md record: from the full deal, JO KC AO; AO wins, seat 2 takes 2 points
    and leads the next trick."""
    start = Position.parse(FULL_DEAL)
    one = start.play("JO")
    assert one.trick == (Card.parse("JO"),) and one.leader == 0 and one.to_move == 1
    assert one.hands[0] == start.hands[0] & ~(1 << Card.parse("JO"))
    two = one.play(Card.parse("KC"))
    assert two.to_move == 2 and len(two.trick) == 2
    three = two.play(Card.parse("AO"))
    assert three.trick == () and three.leader == 2 and three.to_move == 2
    assert three.taken == (0, 0, 2)
    assert [popcount(h) for h in three.hands] == [15, 15, 15]
    assert three.coins_left == 10


def test_last_trick_ends_the_hand():
    position = Position.parse("..A. ...2 .2.. 1 - 0,3,1")
    end = position.play("2B").play("2O").play("AS")
    # Swords, Coins and Clubs: Cups missing, Coins beat Swords and Swords beat Clubs: 2O
    assert end.is_terminal and end.leader == 2 and end.taken == (0, 3, 2)
    with pytest.raises(IllegalMoveError):
        end.play("AS")


def test_play_errors():
    position = Position.parse("A9... 7... .K.. 1 2S,5B")
    with pytest.raises(IllegalMoveError, match="7C"):
        position.play("7C")  # seat 0 to move does not hold it
    with pytest.raises(NotationError):
        position.play("XX")
    with pytest.raises(CoinsError):
        position.play(48)


@settings(max_examples=150)
@given(st.randoms(use_true_random=False), st.booleans())
def test_play_semantics(rng, taken):
    """Play a random hand card by card from a random ending and check every step
    by hand: the card leaves the mover's hand, a third card resolves the trick by
    rules.trick_winner, the winner leads next and adds the trick's Coins."""
    position = random_position(rng, rng.randint(1, 16), on_table=rng.randint(0, 2))
    if taken:
        position = with_random_taken(rng, position)
    while not position.is_terminal:
        mover = position.to_move
        legal = position.legal_cards()
        assert legal == cards_in(position.hands[mover])
        card = rng.choice(legal)
        after = position.play(card)
        assert after.hands[mover] == position.hands[mover] & ~(1 << card)
        assert all(after.hands[s] == position.hands[s] for s in range(3) if s != mover)
        trick = position.trick + (card,)
        if len(trick) < 3:
            assert after.trick == trick
            assert after.leader == position.leader and after.taken == position.taken
            assert after.to_move == (mover + 1) % 3
        else:
            winner = (position.leader + trick_winner(trick)) % 3
            expected = list(position.taken)
            expected[winner] += trick_points(trick)
            assert after.trick == () and after.leader == winner == after.to_move
            assert after.taken == tuple(expected)
        assert sum(after.taken) + after.coins_left == sum(position.taken) + position.coins_left
        position = after
    assert position.coins_left == 0


def test_the_examples_of_rules_md_are_canonical():
    """RULES.md's example positions, records and views (its indented lines, bar the
    field template) parse and print back exactly as written."""
    lines = (ROOT / "RULES.md").read_text(encoding="utf-8").splitlines()
    examples = [line.strip() for line in lines if line.startswith("    ") and "<" not in line]
    assert len(examples) == 3  # the full deal, its first trick, seat 1's view of it
    for text in examples:
        parsed = Record.parse(text) if "|" in text else Position.parse(text)
        assert str(parsed) == text
