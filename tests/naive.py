"""Slow, obviously-correct solvers written straight from RULES.md.

Full-width minimax: no pruning, no transposition table, no equivalence of
cards, no bit tricks. Hands are frozensets of card indices, tricks are
resolved by ``solver.rules.trick_winner`` (itself checked against
``tricks.jsonl``) and play follows RULES.md directly: the seat to move is
``(leader + cards in trick) mod 3``, any card it holds may be played, a trick
of three goes to its winner, who scores its Coins and leads next. This module
does not call ``Position.play`` nor anything compiled, so it also checks
those. The compiled solvers are held to it on small positions.

The memo is keyed on the cards still held, the leader and the trick only:
values count points from a position on, so the Coins already taken cannot
enter them (RULES.md, "Values the solver reports").
"""

from __future__ import annotations

from functools import cache

from solver.cards import COINS
from solver.position import Position
from solver.rules import trick_points, trick_winner


def _state(position: Position):
    hands = tuple(frozenset(int(c) for c in position.hand(seat)) for seat in range(3))
    return hands, position.leader, tuple(int(c) for c in position.trick)


def _after(hands, leader, trick, card, seat):
    """Play ``card`` for the seat to move: (hands, leader, trick, points to ``seat``)."""
    mover = (leader + len(trick)) % 3
    hands = tuple(h - {card} if s == mover else h for s, h in enumerate(hands))
    trick = trick + (card,)
    if len(trick) < 3:
        return hands, leader, trick, 0
    winner = (leader + trick_winner(trick)) % 3
    return hands, winner, (), trick_points(trick) if winner == seat else 0


@cache
def _guaranteed(hands, leader, trick, seat) -> int:
    mover = (leader + len(trick)) % 3
    if not hands[mover]:
        return 0  # the hand is over
    outcomes = []
    for card in sorted(hands[mover]):
        child_hands, child_leader, child_trick, gained = _after(hands, leader, trick, card, seat)
        outcomes.append(gained + _guaranteed(child_hands, child_leader, child_trick, seat))
    return max(outcomes) if mover == seat else min(outcomes)


def guaranteed(position: Position, seat: int) -> int:
    """Points ``seat`` can be sure of against the other two playing together."""
    return _guaranteed(*_state(position), seat)


def card_values(position: Position) -> dict:
    """The mover's guaranteed value after each card it holds (keys: ``Card``)."""
    hands, leader, trick = _state(position)
    mover = position.to_move
    values = {}
    for card in position.legal_cards():
        child_hands, child_leader, child_trick, gained = _after(
            hands, leader, trick, int(card), mover
        )
        values[card] = gained + _guaranteed(child_hands, child_leader, child_trick, mover)
    return values


def points_along(position: Position, cards) -> list[int]:
    """Points each seat wins while ``cards`` are played in order from ``position``
    (raises if a card is not held by the seat to move)."""
    hands, leader, trick = _state(position)
    won = [0, 0, 0]
    for card in cards:
        mover = (leader + len(trick)) % 3
        if int(card) not in hands[mover]:
            raise ValueError(f"seat {mover} does not hold {card}")
        for seat in range(3):
            won[seat] += _after(hands, leader, trick, int(card), seat)[3]
        hands, leader, trick, _ = _after(hands, leader, trick, int(card), 0)
    return won


def _relaxed_takers(hands, leader, trick, seat) -> list[int]:
    """Who may take a full ``trick`` in the relaxed game: its winner by the
    rules, or either seat of the pair when the pair wins with its two cards of
    one suit and no card of ``seat``'s (held, or in the trick) lies between them."""
    winner = (leader + trick_winner(trick)) % 3
    if winner == seat:
        return [winner]
    seat_card = trick[(seat - leader) % 3]
    low, high = sorted(c for i, c in enumerate(trick) if (leader + i) % 3 != seat)
    if low // 12 != high // 12 or any(low < c < high for c in hands[seat] | {seat_card}):
        return [winner]
    return [(seat + 1) % 3, (seat + 2) % 3]


def relaxed_guaranteed(position: Position, seat: int) -> int:
    """``seat``'s guaranteed value in the relaxed game of ``solver.paranoid``,
    where the pair chooses which of its seats takes a trick that the ranks of
    its own two cards decide (with none of the seat's cards between them)."""
    return _chosen_guaranteed(*_state(position), seat, False)


def _rank_free_takers(trick, leader) -> list[int]:
    """Who may take a full ``trick`` in the rank-free game: every seat that
    played the suit deciding it when two or more cards of Cups, Swords or
    Clubs decide it, else its winner by the rules."""
    winner = trick_winner(trick)
    suit = trick[winner] // 12
    players = [(leader + i) % 3 for i, c in enumerate(trick) if c // 12 == suit]
    if suit == COINS or len(players) < 2:
        return [(leader + winner) % 3]
    return players


@cache
def _chosen_guaranteed(hands, leader, trick, seat, seat_chooses) -> int:
    """The guaranteed value in a game where a side chooses a trick's taker:
    the pair among ``_relaxed_takers`` (the relaxed game), or the seat among
    ``_rank_free_takers`` (``seat_chooses``: the rank-free game)."""
    mover = (leader + len(trick)) % 3
    if not hands[mover]:
        return 0
    outcomes = []
    for card in sorted(hands[mover]):
        child_hands = tuple(h - {card} if s == mover else h for s, h in enumerate(hands))
        child_trick = trick + (card,)
        if len(child_trick) < 3:
            outcomes.append(
                _chosen_guaranteed(child_hands, leader, child_trick, seat, seat_chooses)
            )
            continue
        points = trick_points(child_trick)
        if seat_chooses:
            takers, choose = _rank_free_takers(child_trick, leader), max
        else:
            takers, choose = _relaxed_takers(child_hands, leader, child_trick, seat), min
        outcomes.append(
            choose(
                (points if taker == seat else 0)
                + _chosen_guaranteed(child_hands, taker, (), seat, seat_chooses)
                for taker in takers
            )
        )
    return max(outcomes) if mover == seat else min(outcomes)


def rank_free_guaranteed(position: Position, seat: int) -> int:
    """``seat``'s guaranteed value in the rank-free game of ``solver.paranoid``,
    where a trick that two or more cards of Cups, Swords or Clubs decide goes
    to whichever seat that played them ``seat`` chooses."""
    return _chosen_guaranteed(*_state(position), seat, True)


def clear() -> None:
    """Forget memoised values (to bound memory in long runs)."""
    _guaranteed.cache_clear()
    _chosen_guaranteed.cache_clear()
