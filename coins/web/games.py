"""Games against two bots on the web board: ``solver.match`` plays them, on a thread each.

A ``WebGame`` is the user's seat (``coins.game.SeatAgainstBots``): its match
(or single hand) runs on its own thread and, at the user's turn, waits for
the card the next request brings (``play``); the request then waits until the
bots have played up to the user's next turn, or the game's end (on a machine's
first run, only until the solver starts compiling for the bots: the page shows
that ``notice`` and asks for the game again until the bots have played). So
the rules, the deal, the dealer's rotation and the end at the target are the
match's own, as in ``coins play``. What the board shows (``state``) is what
the user may see: their own hand, the cards played, the scores, and each
finished hand's whole record (to review it).
"""

from __future__ import annotations

import logging
import random
import threading
import uuid
from collections import OrderedDict

from solver import CoinsError, Hand, IllegalMoveError, Position, Record
from solver.cards import HAND_SIZE, SEATS, Card, cards_in, popcount
from solver.compiled import is_compiled, warm_up
from solver.match import CardPlayed
from solver.rules import first_leader

from ..game import SeatAgainstBots
from ..notice import COMPILE_NOTICE

LOG = logging.getLogger("coins.web")
IDLE_SECONDS = 3600  # a game whose user has not played for this long is ended
MAX_GAMES = 16  # games kept at once; a new one beyond them ends the oldest
SOLVER_FREE_BOTS = ("random",)  # bots that play without the compiled solver


class GameEnded(Exception):
    """The game's thread stops: its user left (a newer game took its place) or went idle."""


class WebGame(SeatAgainstBots):
    """A match to ``target`` (or, with ``cards``, one hand of that many cards a
    hand) between the user at ``seat`` and two bots."""

    def __init__(
        self,
        *,
        seat: int = 0,
        bots=("greedy", "pimc"),
        target: int | None = None,
        cards: int | None = None,
        seed: int | None = None,
    ):
        super().__init__(seat=seat, bots=bots, seed=seed)
        if (target is None) == (cards is None):
            raise CoinsError(
                "play a match to a target, or one hand of some cards: give one of them"
            )
        if cards is not None and (
            isinstance(cards, bool) or not isinstance(cards, int) or not 1 <= cards <= HAND_SIZE
        ):
            raise CoinsError(f"cards per hand must be 1-{HAND_SIZE}, not {cards!r}")
        self.id = uuid.uuid4().hex
        self.bots_search = any(name not in SOLVER_FREE_BOTS for name in bots)
        self.target = target
        self.cards = cards
        self.table = self.new_match(target) if target is not None else self._one_hand(cards)
        self.changed = threading.Condition()
        self.position: Position | None = None  # at the user's turn
        self.card: Card | None = None  # the user's card, given and not yet played
        self.played: list[dict] = []  # the current hand's cards: seat, card, and each trick's end
        self.last_trick: dict | None = None  # the last trick completed: cards, winner, points
        self.hands: list[dict] = []  # the hands finished (or stopped at the target)
        self.over = False
        self.winner: int | None = None
        self.error: str | None = None
        self.notice: str | None = None  # what the bots wait for, for the page to say
        self.ended = False
        self.thread = threading.Thread(
            target=self._run, name=f"coins-game-{self.id[:8]}", daemon=True
        )

    def _one_hand(self, cards: int) -> Hand:
        rng = random.Random(self.deals_seed)
        start = None
        if cards < HAND_SIZE:  # an ending: the other cards were played earlier
            start = Position.random(rng, cards, first_leader(self.first_dealer))
        return Hand(
            self.players, self.first_dealer, seed=rng.getrandbits(64), start=start, observer=self
        )

    # ----- the game's thread ------------------------------------------------------------

    def begin(self) -> None:
        """Start the game's thread; return at the user's first turn (or the end)."""
        self.thread.start()
        self.wait()

    def _run(self) -> None:
        try:
            result = self.table.play()
            if self.target is not None:
                self.winner = result.winner
        except GameEnded:
            pass
        except Exception as error:  # a bot's failure: the board says so, the log has the rest
            LOG.exception("game %s stopped", self.id)
            self.error = f"the game stopped: {error}"
        with self.changed:
            self.over = True
            self.changed.notify_all()

    def hand_started(self, number, dealer, position, scores) -> None:
        with self.changed:
            super().hand_started(number, dealer, position, scores)
            self.played = []
        if self.bots_search and not is_compiled():
            self._compile_solver()

    def _compile_solver(self) -> None:
        """Compile the solver before the bots' first card, saying so (``notice``):
        the request waiting for the bots returns with it, so the page can tell
        why they are slow (a first run's compile takes seconds to a minute)."""
        with self.changed:
            self.notice = COMPILE_NOTICE
            self.changed.notify_all()
        try:
            warm_up()
        finally:
            with self.changed:
                self.notice = None
                self.changed.notify_all()

    def card_played(self, played: CardPlayed) -> None:
        with self.changed:
            self._note(played)

    def _note(self, played: CardPlayed) -> None:
        super().card_played(played)
        entry = {"seat": played.seat, "card": str(played.card)}
        if played.winner is not None:
            entry |= {"winner": played.winner, "points": played.points}
            trick = self.played[len(self.played) - 2 :] + [entry]
            self.last_trick = {"cards": trick, "winner": played.winner, "points": played.points}
        self.played.append(entry)
        if played.after.is_terminal or (
            self.target is not None and max(played.scores) >= self.target
        ):
            points = [s - b for s, b in zip(played.scores, self.hand_scores)]
            self.hands.append(
                {
                    "number": self.hand_number,
                    "record": str(Record.of(self.start, self.moves)),
                    "points": points,
                    "scores": list(played.scores),
                    "complete": played.after.is_terminal,
                }
            )

    def choose(self, position: Position, seat: int, rng: random.Random) -> Card:
        """Wait for the user's card (``play``)."""
        with self.changed:
            self.position = position
            self.changed.notify_all()
            if not self.changed.wait_for(lambda: self.card is not None or self.ended, IDLE_SECONDS):
                self.ended = True
            if self.ended:
                raise GameEnded
            card, self.card, self.position = self.card, None, None
            return card

    # ----- the requests -----------------------------------------------------------------

    def play(self, text: str) -> None:
        """Play the user's card ``text`` and wait for the user's next turn or the end."""
        card = Card.parse(text.strip().upper()) if isinstance(text, str) else None
        if card is None:
            raise CoinsError(f"card is a card's text such as AO, not {text!r}")
        with self.changed:
            if self.position is None:
                raise IllegalMoveError(
                    "it is not your turn: the game is over" if self.over else "it is not your turn"
                )
            hand = self.position.hands[self.seat]
            if not hand >> card & 1:
                held = " ".join(str(c) for c in cards_in(hand))
                raise IllegalMoveError(f"you do not hold {card}: your cards are {held}")
            self.card = card
            self.changed.notify_all()
        self.wait()

    def wait(self) -> None:
        """Until it is the user's turn with no card given, the game is over, or
        there is a notice to show while the bots wait."""
        with self.changed:
            self.changed.wait_for(
                lambda: (
                    (self.position is not None and self.card is None)
                    or self.over
                    or self.notice is not None
                )
            )

    def end(self) -> None:
        with self.changed:
            self.ended = True
            self.changed.notify_all()

    def state(self) -> dict:
        """What the board shows the user now."""
        with self.changed:
            hands = (
                (0, 0, 0) if self.start is None else Record.of(self.start, self.moves).final.hands
            )
            hand = hands[self.seat]
            in_trick = len(self.moves) % SEATS
            return {
                "game": self.id,
                "seed": self.seed,
                "seat": self.seat,
                "names": self.names,
                "target": self.target,
                "cards": self.cards,
                "hand_number": self.hand_number,
                "scores": list(self.scores),
                "hand_points": [s - b for s, b in zip(self.scores, self.hand_scores)],
                "your_turn": self.position is not None and self.card is None,
                "hand": [str(c) for c in cards_in(hand)],
                "held": [popcount(h) for h in hands],
                "trick": self.played[len(self.played) - in_trick :] if in_trick else [],
                "played": self.played,
                "last_trick": self.last_trick,
                "view": str(self.view()) if self.start is not None else None,
                "hands": self.hands,
                "over": self.over,
                "winner": self.winner,
                "error": self.error,
                "notice": self.notice,
            }


class Games:
    """The games being played, by id; at most ``MAX_GAMES`` (a new one ends the oldest)."""

    def __init__(self):
        self.games: OrderedDict[str, WebGame] = OrderedDict()
        self.lock = threading.Lock()

    def add(self, game: WebGame) -> None:
        with self.lock:
            self.games[game.id] = game
            while len(self.games) > MAX_GAMES:
                _, oldest = self.games.popitem(last=False)
                oldest.end()

    def get(self, game_id) -> WebGame:
        with self.lock:
            game = self.games.get(game_id) if isinstance(game_id, str) else None
        if game is None:
            raise CoinsError(f"there is no game {game_id!r}: start a new one")
        return game

    def end_all(self) -> None:
        with self.lock:
            for game in self.games.values():
                game.end()
