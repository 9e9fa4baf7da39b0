"""The terminal game of ``coins play``: a match against two bots, one card at a time.

``TerminalGame`` is the user's player in a ``solver.match.Match`` (so the
rules, the deal, the dealer's rotation and the end at the target are the
match's own) and its observer (so every card, trick and hand is shown as it
happens). It reads the user's lines from ``read_line`` (a stream's
``readline``: ``""`` at the end of the input) and writes on a rich
``Console``, so tests drive whole matches with scripted input.

At the user's turn it shows the hand drawn by suit, the trick on the table
and the scores, and reads a card in RULES.md notation (lower case too);
``hint`` or ``?`` ranks the user's cards with ``analysis.hint`` on the user's
view (the record of the hand so far with the other hands hidden) by the
chance of winning the match, their points beside; ``quit`` leaves. A line it cannot use is answered with one line and asked again.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Sequence

from rich.console import Console
from rich.text import Text

from analysis.bots import make_bot
from analysis.hint import check_budget, hint
from solver import CoinsError, MatchState, Position, Record, checks
from solver.cards import SEATS, Card, cards_in
from solver.errors import NotationError
from solver.match import DEFAULT_TARGET, CardPlayed, Match, MatchObserver, MatchResult

from . import render

HINT_WORDS = ("hint", "?")
QUIT_WORDS = ("quit", "exit")


class LeaveGame(Exception):
    """The user typed quit, or the input ended: ``message`` says which."""


class SeatAgainstBots(MatchObserver):
    """The user's seat in a game against two bots, whatever shows it (this
    module's terminal game, ``coins.web``'s board): the players, what the seed
    fixes, and the hand so far. Subclasses choose the user's card (``choose``).

    ``bots``: the names of the bots to the user's left and right (random,
    greedy, pimc; ``bot_options`` go to pimc). ``seed`` fixes the first
    dealer, the deals and the random streams of the bots and hints (default:
    a fresh seed); with no time limits it fixes the whole game.
    """

    def __init__(
        self,
        *,
        seat: int = 0,
        bots: Sequence[str] = ("greedy", "pimc"),
        seed: int | None = None,
        bot_options: dict | None = None,
    ):
        if isinstance(seat, bool) or seat not in range(SEATS):
            raise CoinsError(f"your seat must be 0, 1 or 2, not {seat!r}")
        if len(bots) != 2:
            raise CoinsError(f"you play against two bots: name two, not {len(bots)}")
        self.seat = seat
        self.names = ["you"] * SEATS  # who played: "seat 1 (greedy)"
        self.labels = ["you"] * SEATS  # in a line of scores: "greedy"
        self.players: list = [self] * SEATS
        for offset, name in zip((1, 2), bots):
            other = (seat + offset) % SEATS
            self.names[other] = f"seat {other} ({name})"
            self.labels[other] = name if bots[0] != bots[1] else f"seat {other} {name}"
            self.players[other] = make_bot(
                name, **(bot_options or {}) if name.startswith("pimc") else {}
            )
        self.seed = secrets.randbits(32) if seed is None else checks.seed(seed)
        master = random.Random(self.seed)
        self.first_dealer = master.randrange(SEATS)
        self.deals_seed = master.getrandbits(64)
        self.hint_rng = random.Random(master.getrandbits(64))
        self.start: Position | None = None  # the current hand's deal
        self.moves: list[Card] = []  # the cards played in it so far
        self.hand_scores = (0, 0, 0)  # the match scores when it began
        self.scores = (0, 0, 0)  # the match scores now
        self.hand_number = 0

    def new_match(self, target: int) -> Match:
        """The match to ``target`` the seed gives, with this seat's players."""
        return Match(self.players, target, self.first_dealer, seed=self.deals_seed, observer=self)

    def hand_started(self, number, dealer, position, scores) -> None:
        self.start, self.moves, self.hand_number = position, [], number
        self.hand_scores = self.scores = scores

    def card_played(self, played: CardPlayed) -> None:
        self.moves.append(played.card)
        self.scores = played.scores

    def choose(self, position: Position, seat: int, rng: random.Random) -> Card:
        """The user's card at ``position``."""
        raise NotImplementedError

    def view(self) -> Record:
        """What the user knows now: the hand so far, the other hands hidden."""
        return Record.of(self.start, self.moves).view(self.seat)


class TerminalGame(SeatAgainstBots):
    """A match to ``target`` between the user at ``seat`` and two bots
    (``SeatAgainstBots``), played on a console.

    The seed is printed, so a game can be played again.
    ``hints``: show the hint at every turn; ``hint_options`` go to
    ``analysis.hint`` (samples, time_limit, mode). ``echo`` repeats each line
    read, for input that does not come from a terminal (a transcript then
    shows what was typed).
    """

    def __init__(
        self,
        console: Console,
        read_line: Callable[[], str],
        *,
        seat: int = 0,
        bots: Sequence[str] = ("greedy", "pimc"),
        target: int = DEFAULT_TARGET,
        seed: int | None = None,
        hints: bool = False,
        hint_options: dict | None = None,
        bot_options: dict | None = None,
        echo: bool = False,
    ):
        super().__init__(seat=seat, bots=bots, seed=seed, bot_options=bot_options)
        self.console = console
        self.read_line = read_line
        self.match = self.new_match(target)
        self.hints = hints
        self.hint_options = hint_options or {}
        check_budget(self.hint_options.get("samples"), self.hint_options.get("time_limit"))
        self.echo = echo
        self.played: list[Card] = []  # the user's cards, in order
        self.position: Position | None = None  # at the user's turn: the position

    # ----- the match --------------------------------------------------------------------

    def play(self) -> MatchResult | None:
        """Play the match to its end (its result), or until the user leaves (None);
        Ctrl-C shows the score and goes on up."""
        self.say(
            f"Coins to {self.match.target} points, seed {self.seed}. You are seat "
            f"{self.seat}, {self.names[(self.seat + 1) % SEATS]} on your left, "
            f"{self.names[(self.seat + 2) % SEATS]} on your right."
        )
        self.say("Type a card (AO, 7s, ...), hint or ?, quit.")
        try:
            result = self.match.play()
        except LeaveGame as leave:
            self.say(f"{leave} Score {self._scores(self.scores)}.")
            return None
        except KeyboardInterrupt:  # the score so far, then exit status 130
            self.say(f"Stopped (Ctrl-C). Score {self._scores(self.scores)}.")
            raise
        winner = self.names[result.winner]
        verb = "win" if result.winner == self.seat else "wins"
        self.say(
            Text(
                f"{winner.capitalize()} {verb} the match, {self._scores(result.scores)}, "
                f"after {result.number_of_hands} hand(s).",
                style="bold",
            )
        )
        return result

    def hand_started(self, number, dealer, position, scores) -> None:
        super().hand_started(number, dealer, position, scores)
        leader = self.names[position.leader]
        self.say("")
        self.say(
            Text(
                f"Hand {number}: {self.names[dealer]} dealt, {leader} to lead. "
                f"Score {self._scores(scores)}.",
                style="bold",
            )
        )

    def card_played(self, played: CardPlayed) -> None:
        super().card_played(played)
        if played.seat != self.seat:
            self.say(
                Text.assemble(
                    f"{self.names[played.seat]} plays ", render.card_text(played.card), "."
                )
            )
        if played.winner is not None:
            cards = self._trick_text(played.before.leader, played.before.trick + (played.card,))
            coins = f"{played.points} Coin{'' if played.points == 1 else 's'}"
            verb = "win" if played.winner == self.seat else "wins"
            won = f"{self.names[played.winner]} {verb} it, {coins}."
            self.say(Text.assemble(f"Trick {len(self.moves) // 3}: ", cards, " - ", (won, "bold")))
        if played.after.is_terminal or max(played.scores) >= self.match.target:
            points = tuple(s - b for s, b in zip(played.scores, self.hand_scores))
            how = "over" if played.after.is_terminal else "stopped at the target"
            self.say(
                Text(
                    f"Hand {played.hand} {how}: points this hand {self._scores(points)}; "
                    f"match score {self._scores(played.scores)} "
                    f"(target {self.match.target}).",
                    style="bold",
                )
            )

    # ----- the user's turn --------------------------------------------------------------

    def choose(self, position: Position, seat: int, rng: random.Random) -> Card:
        """Show the table, then read lines until one is a card the user holds."""
        self.position = position
        self._show(position)
        if position.hands[seat] & (position.hands[seat] - 1) == 0:  # no choice left
            card = Card(position.hands[seat].bit_length() - 1)
            self.say(f"You play your last card, {card}.")
            return self._played(card)
        if self.hints:
            self._hint()
        while True:
            word = self._ask("Your card: ")
            if word.lower() in QUIT_WORDS:
                raise LeaveGame("You left the game.")
            if word.lower() in HINT_WORDS:
                self._hint()
                continue
            try:
                card = Card.parse(word.upper())
            except NotationError:
                self.say(
                    f'"{word}" is not a card: rank (A K N J 9-2) then suit (C O S B), '
                    "e.g. AO or 7s."
                )
                continue
            if not position.hands[seat] >> card & 1:
                held = " ".join(str(c) for c in cards_in(position.hands[seat]))
                self.say(f"You do not hold {card}: your cards are {held}.")
                continue
            return self._played(card)

    def _played(self, card: Card) -> Card:
        self.played.append(card)
        self.position = None
        return card

    def _show(self, position: Position) -> None:
        scores = ", ".join(
            f"{self.labels[s]} {self.scores[s]} ({position.taken[s]})" for s in range(SEATS)
        )
        self.say(
            f"Hand {self.hand_number}, trick {len(self.moves) // 3 + 1}. "
            f"Score (this hand): {scores}."
        )
        if position.trick:
            table = self._trick_text(position.leader, position.trick)
            self.say(Text.assemble("On the table: ", table, "."))
        else:
            self.say("You lead.")
        self.console.print(render.hand_table(position.hands[self.seat], "you"))

    def _hint(self) -> None:
        match = MatchState(self.match.target, self.hand_scores)
        result = hint(self.view(), rng=self.hint_rng, match=match, points=True, **self.hint_options)
        self.console.print(render.hint_table(result, match=True, width=self.console.width))
        note = render.ranking_note(result)
        if note is not None:
            self.console.print(note)
        self.say(
            Text(
                f"win: your chance of winning the match; points: your points to come "
                f"({result.samples} sampled deals); best: how often it was best.",
                style="dim",
            )
        )

    def _ask(self, prompt: str) -> str:
        """One line from the user, stripped; the end of the input leaves the game."""
        self.console.print(prompt, end="")
        line = self.read_line()
        if self.echo or not line:  # at the end of input no newline was typed
            self.console.print(line.rstrip("\n"), highlight=False, markup=False)
        if not line:
            raise LeaveGame("End of input: you left the game.")
        return line.strip()

    # ----- helpers ----------------------------------------------------------------------

    def say(self, message: str | Text) -> None:
        self.console.print(message, highlight=False, markup=False)

    def _trick_text(self, leader: int, cards: Sequence[Card]) -> Text:
        """``seat 1 (greedy) 2S, you 4C``: who played each card, in play order."""
        return Text(", ").join(
            Text.assemble(f"{self.names[(leader + i) % SEATS]} ", render.card_text(card))
            for i, card in enumerate(cards)
        )

    def _scores(self, scores: Sequence[int]) -> str:
        """``you 5, greedy 3, pimc 7``: one number per seat, in seat order."""
        return ", ".join(f"{self.labels[s]} {scores[s]}" for s in range(SEATS))
