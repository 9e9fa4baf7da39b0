"""Random valid positions for the tests, built from a seeded ``random.Random``.

Built by hand from RULES.md (deal ``cards`` to each seat from the deck, play a
few cards, choose Coins taken no greater than the Coins gone) rather than with
``Position.random``, so that the generator covers what that helper does not:
tricks on the table, points taken, positions with no Coins left.
"""

from __future__ import annotations

import random

from solver.cards import COINS_MASK, Card
from solver.position import Position


def random_position(
    rng: random.Random,
    cards: int,
    *,
    on_table: int = 0,
    taken: bool = False,
    coins: bool = True,
) -> Position:
    """A position whose seat to move holds ``cards`` cards.

    ``on_table`` (0-2) cards are already in the current trick; ``taken`` gives
    the seats random Coins already won (at most the Coins gone); ``coins=False``
    leaves no Coins card in the hands or on the table.
    """
    pool = [c for c in range(48) if coins or not COINS_MASK >> c & 1]
    leader = rng.randrange(3)
    chosen = rng.sample(pool, 3 * cards)
    hands = [0, 0, 0]
    for i, card in enumerate(chosen):
        hands[i % 3] |= 1 << card
    # the seats that already played to the trick took one card from their hand
    trick = []
    for i in range(on_table):
        seat = (leader + i) % 3
        card = rng.choice([c for c in range(48) if hands[seat] >> c & 1])
        hands[seat] &= ~(1 << card)
        trick.append(Card(card))
    position = Position(tuple(hands), leader, tuple(trick))
    return with_random_taken(rng, position) if taken else position


def random_ending(rng: random.Random, max_cards: int) -> Position:
    """``Position.random`` with 1 to ``max_cards`` cards a hand and a random
    leader, after 0-2 random cards (so sometimes mid-trick)."""
    position = Position.random(rng, rng.randrange(1, max_cards + 1), rng.randrange(3))
    for _ in range(rng.randrange(3)):
        position = position.play(rng.choice(position.legal_cards()))
    return position


def random_game_position(rng: random.Random, plays: int, *, taken: bool = False) -> Position:
    """A full deal (random leader) after ``plays`` random cards (0-48)."""
    position = Position.random(rng, 16, rng.randrange(3))
    for _ in range(plays):
        position = position.play(rng.choice(position.legal_cards()))
    return with_random_taken(rng, position) if taken else position


def with_random_taken(rng: random.Random, position: Position) -> Position:
    """``position`` with random Coins taken: any split of 0 to all the Coins gone."""
    gone = 12 - position.coins_left
    total = rng.randint(0, gone)
    cuts = sorted(rng.randint(0, total) for _ in range(2))
    split = (cuts[0], cuts[1] - cuts[0], total - cuts[1])
    return Position(position.hands, position.leader, position.trick, split)
