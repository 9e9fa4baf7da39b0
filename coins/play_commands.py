"""The ``hint`` and ``match`` commands: hidden-hand play (analysis.hint, analysis.bots).

``coins.commands`` registers them with ``play_commands.register(add)``, as it does
``analysis_commands``. The work is done in ``analysis``; this module only
parses arguments and prints.
"""

from __future__ import annotations

import argparse
import json
import sys

from rich import box
from rich.console import Console
from rich.progress import Progress
from rich.table import Table
from rich.text import Text

from analysis import Interrupted
from analysis.arena import MAX_DEALS, DuplicateResult, MatchesResult, duplicate, interval, matches
from analysis.bots import BOTS, PIMC_SAMPLES, PIMC_TIME_LIMIT
from analysis.evaluators import DEFAULT_HORIZON
from analysis.hint import (
    DEFAULT_EVALUATION,
    DEFAULT_OPPONENTS,
    DEFAULT_POLICY_WEIGHT,
    DEFAULT_SAMPLER,
    DEFAULT_SAMPLES,
    DEFAULT_TIME_LIMIT,
    EVALUATIONS,
    MAX_SAMPLES,
    OPPONENTS,
    SAMPLERS,
)
from solver import CoinsError
from solver.match import DEFAULT_TARGET, MAX_TARGET

from . import api, options, render
from .game import TerminalGame
from .notice import compile_notice


def hint_command(args: argparse.Namespace) -> None:
    """Rank the cards of the seat to move from what it sees: determinised Monte Carlo search.

    VIEW is a record with the hidden hands written ? ("? KNJ7543.96.AN874.96
    ? 0 - | JO"), or a position or full record (then the other hands are
    treated as hidden, and their open-hand values are shown beside as
    context). Each sampled deal fills the hidden hands among those consistent
    with the view (uniformly, or weighted by how likely the deal makes the
    other seats' plays: --sampler); every card is valued in each (exactly with
    the open-hand solver when few cards are left; before that by play to a
    few cards a hand then exactly (with --evaluation policy, the self-play
    policy's play), or with --evaluation search by a search of
    the next trick and a network trained on exact values) and the values are
    averaged: mean points for the mover with its standard error, how often the
    card was the best, and how far behind the best card it is, deal by deal.
    Cards clearly behind stop being valued, so the budget goes to the close
    ones; cards within the noise of the best are marked tied. With --target
    (and --scores) the cards are ranked by the chance of winning the match
    (RULES.md), every seat in each deal playing for it, and their mean
    points are shown beside. Ctrl-C ranks the cards on the deals valued by
    then. With the opponent model (--sampler model, --opponents model) the
    hint says what each other seat's cards so far say of how it plays
    ("seat 1 plays like greedy (80%)"), from a library of kinds of play:
    greedy, greedy's order with noise, random.
    """
    compile_notice()
    answer = api.hint_view(args)
    if args.json:
        print(json.dumps(answer.to_json()))
    else:
        _print_hint(answer)
    if answer.interrupted:
        raise KeyboardInterrupt  # after the ranking: exit status 130


def _print_hint(answer: api.HintAnswer) -> None:
    result = answer.result
    console = Console()
    console.print(f"View {answer.view}")
    console.print(
        render.hint_table(
            result, answer.context, match=result.match is not None, width=console.width
        )
    )
    what = (
        "mean: own points, everyone for themselves"
        if result.mode == "maxn"
        else "mean: guaranteed points"
    ) + " from here on"
    if result.match is not None:
        state = result.match
        what = (
            f"win: the chance of winning the match to {state.target} (scores "
            f"{','.join(map(str, state.scores))} when the hand began), everyone playing for "
            "it; points: own points from here on, everyone for themselves"
        )
    players = (
        "the other seats each by a kind of play drawn from the belief, own cards greedy"
        if result.opponents == "model"
        else "greedy"
    )
    how = {
        "search": "estimated by a search of the next trick and a network trained on exact values",
        "policy": f"by the self-play policy's play to {DEFAULT_HORIZON} cards a hand, then exactly",
    }.get(result.evaluation, f"by play to {DEFAULT_HORIZON} cards a hand ({players}), then exactly")
    blend = (
        f", each deal's value {1 - result.policy_weight:g} of itself and "
        f"{result.policy_weight:g} the self-play policy's value of the card from this view"
        if result.policy_weight
        else ""
    )
    tied = result.tied
    if result.beliefs:
        console.print(Text("Belief: " + "; ".join(map(str, result.beliefs)) + "."))
    console.print(
        Text(
            f"Seat {result.seat} to move. {what}, over the sampled deals "
            f"({result.samples} drawn, {result.exact} solved exactly, the others {how}; "
            f"{result.sampler} sampling){blend}; best: share of deals where the card was best; "
            f"behind: the best card's lead over it, deal by deal; a card leaves contention "
            f"(fewer deals) once clearly behind. {result.seconds:.2f} s"
        )
    )
    if len(tied) > 1:
        cards = ", ".join(str(entry.card) for entry in tied)
        console.print(Text(f"Statistically tied for best: {cards}.", style="bold"))
    note = render.ranking_note(result)
    if note is not None:
        console.print(note)
    if result.interrupted:
        console.print(
            Text(
                f"Stopped by Ctrl-C: the ranking is of the {result.samples} deals valued by then.",
                style="bold",
            )
        )


def match_command(args: argparse.Namespace) -> None:
    """Play duplicate hands, or whole matches, between three bots and compare them.

    Without --target: --hands N deals, each played once for each rotation of
    the bots round the table (same deal, same dealer: 3N hands), so every bot
    plays every seat of every deal and the luck of the cards cancels out.
    Prints each bot's mean points per hand with a 95% confidence interval
    (over deals) and its seconds per move.

    With --target T: whole matches to T points (RULES.md: scores carry over,
    the dealer moves to the right of the last trick's winner, and the match
    ends the moment a seat reaches T, mid-hand too). --matches M plays M match
    seeds, each once per rotation of the bots (3M matches, the same first
    deal and first dealer; later deals shuffle the same deck, but who deals
    follows the play). Prints each bot's matches won, its share with a 95%
    interval (over seeds; none when every seed gave the same share), its
    points per hand (the hand that ends a match counts, though it stops
    short) and its seconds per move. Ties for first cannot happen: only a
    trick's winner scores, so one seat reaches T first and wins.
    --start-scores A,B,C starts every match from those scores of seats 0, 1,
    2; as the bots rotate, each sits each score.

    Bots: random, greedy (a heuristic), policy (a network learned by
    self-play: each card's expected points from what the seat sees), pimc
    (hint's best card: by playouts for points, the other seats played as
    it believes they play, and in a match by the learned evaluation for the
    chance of winning it), pimc-points (the learned evaluation for points,
    whatever the score: pimc's match play, without the match).

    Ctrl-C prints the results of the deals (or match seeds) played in every
    seating by then.
    """
    options = {"samples": args.pimc_samples, "time_limit": args.pimc_time_limit}
    if args.target is None:
        if args.matches is not None:
            raise CoinsError("--matches counts whole matches: give their target with --target T")
        if args.start_scores is not None:
            raise CoinsError(
                "--start-scores start whole matches: give their target with --target T"
            )
        hands = 10 if args.hands is None else args.hands
        result = _with_progress(
            args, "hands", hands * 3, duplicate, args.seats, hands, args.seed, options=options
        )
    else:
        if args.hands is not None:
            raise CoinsError("with --target, count matches with --matches M, not --hands")
        count = 10 if args.matches is None else args.matches
        result = _with_progress(
            args,
            "matches",
            count * 3,
            matches,
            args.seats,
            count,
            args.target,
            args.seed,
            options=options,
            start_scores=args.start_scores or (0, 0, 0),
        )
    if args.json:
        print(json.dumps(result.to_json()))
    elif args.target is None:
        _print_duplicate(result)
    else:
        _print_matches(result)
    if result.interrupted:
        raise KeyboardInterrupt  # after the scores: exit status 130


def _with_progress(args, unit: str, total: int, play, *arguments, **options):
    """``play(*arguments, **options)`` under a progress bar on a terminal's stderr;
    stopped by Ctrl-C, what it played by then (``interrupted`` set)."""
    try:
        if args.json or not sys.stderr.isatty():
            return play(*arguments, **options)
        with Progress(console=Console(stderr=True), transient=True) as progress:
            task = progress.add_task(unit, total=total)
            return play(
                *arguments,
                **options,
                progress=lambda done, _: progress.update(task, completed=done),
            )
    except Interrupted as stop:
        return stop.result


def _interval(low_high: tuple[float, float] | None) -> str:
    return "-" if low_high is None else "{:.2f} to {:.2f}".format(*low_high)


def _bots_table(headings) -> Table:
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for heading in headings:
        table.add_column(heading, justify="left" if heading == "bot" else "right")
    return table


def _print_duplicate(result: DuplicateResult) -> None:
    table = _bots_table(("bot", "points/hand", "95% CI", "hands", "s/move"))
    for score in result.scores:
        table.add_row(
            score.name,
            f"{score.mean:.2f}",
            _interval(interval(score.mean, score.half_width)),
            str(score.hands),
            f"{score.seconds_per_move:.4f}",
        )
    console = Console()
    console.print(table)
    console.print(
        f"{result.deals} deals x 3 seatings = {result.hands} hands, seed {result.seed}, "
        f"{result.seconds:.1f} s" + _stopped(result, "deal")
    )


def _print_matches(result: MatchesResult) -> None:
    table = _bots_table(("bot", "won", "share", "95% CI", "points/hand", "95% CI", "s/move"))
    for score in result.scores:
        table.add_row(
            score.name,
            str(score.won),
            f"{score.won_share:.2f}",
            _interval(score.won_ci),
            f"{score.mean:.2f}",
            _interval(interval(score.mean, score.half_width)),
            f"{score.seconds_per_move:.4f}",
        )
    console = Console()
    console.print(table)
    start = result.start_scores
    since = f" from {','.join(map(str, start))}" if start is not None and any(start) else ""
    console.print(
        f"{result.deals} match seeds x 3 seatings = {result.matches} matches to "
        f"{result.target} points{since} ({result.hands} hands), seed {result.seed}, "
        f"{result.seconds:.1f} s" + _stopped(result, "seed")
    )


def _stopped(result: DuplicateResult | MatchesResult, unit: str) -> str:
    """What a run stopped by Ctrl-C counted, so a cut-short one is not taken for whole."""
    if not result.interrupted:
        return ""
    return (
        f"; stopped by Ctrl-C: the {unit}s played in every seating by then (a {unit} "
        "cut short is left out)"
    )


def play_command(args: argparse.Namespace) -> None:
    """Play a match against two bots in the terminal.

    You sit at --seat S (default 0); the two --bots sit to your left and right
    (default greedy pimc). At your turn you see your hand by suit, the trick
    on the table (who played what) and the scores, and type a card in RULES.md
    notation (AO, 7s, ...). hint or ? ranks your cards from what you can see
    (the other hands hidden; as coins hint does, here --hint-samples deals in
    at most --hint-time-limit seconds); --hints shows that at every turn; quit
    (or Ctrl-C) leaves, showing the score. After each trick the game says who won it and the Coins it took,
    after each hand the hand's points and the match score. The match ends the
    moment a seat reaches --target points (default 15), mid-hand too; one
    seat only can get there first (only a trick's winner scores), and it wins.
    The same --seed gives the same deals and first dealer; pimc and the hints
    stop at their time limits, so what they choose may vary with the load.
    """
    game = TerminalGame(
        Console(highlight=False),
        _keyboard_lines(),
        seat=args.seat,
        bots=args.bots,
        target=args.target,
        seed=args.seed,
        hints=args.hints,
        echo=not sys.stdin.isatty(),
        hint_options={"samples": args.hint_samples, "time_limit": args.hint_time_limit},
    )
    game.play()


def _keyboard_lines():
    """``read_line`` for the game: at a terminal, lines edited with the arrow keys and a
    history of earlier ones (``readline``, where the platform has it); else stdin's."""
    if not sys.stdin.isatty():
        return sys.stdin.readline
    try:
        import readline  # noqa: F401  (importing it gives input() editing and history)
    except ImportError:
        return sys.stdin.readline

    def read_line() -> str:
        try:
            return input() + "\n"
        except EOFError:
            return ""

    return read_line


SAMPLES = options.whole_number("the samples", 1, MAX_SAMPLES)
SECONDS_OR_NONE = options.seconds(zero_means_none=True)
HANDS = options.whole_number("the number of deals", 1, MAX_DEALS)
MATCHES = options.whole_number("the number of matches", 1, MAX_DEALS)
TARGET = options.whole_number("the target", 1, MAX_TARGET)
WEIGHT = options.fraction("the policy weight")


def register(add) -> None:
    """Add the hint, match and play commands through ``coins.commands``' ``add(name, function)``."""
    hint_parser = add("hint", hint_command)
    hint_parser.add_argument(
        "view",
        nargs="+",
        metavar="VIEW",
        help='the view, quoted: "? KNJ7543.96.AN874.96 ? 0 - | JO" (or a position or record)',
    )
    hint_parser.add_argument(
        "--samples",
        type=SAMPLES,
        default=DEFAULT_SAMPLES,
        metavar="N",
        help=f"deals to sample at most (default {DEFAULT_SAMPLES}, at most {MAX_SAMPLES:,})",
    )
    hint_parser.add_argument(
        "--time-limit",
        type=SECONDS_OR_NONE,
        default=DEFAULT_TIME_LIMIT,
        metavar="SEC",
        help=f"stop sampling after SEC seconds (default {DEFAULT_TIME_LIMIT}; 0: no limit)",
    )
    hint_parser.add_argument(
        "--seed", type=options.seed, help="random seed, 0 to 2^64-1 (same seed, same samples)"
    )
    hint_parser.add_argument(
        "--mode",
        choices=("maxn", "paranoid"),
        default="maxn",
        help="maxn: own points, everyone for themselves (default); paranoid: guaranteed points",
    )
    hint_parser.add_argument(
        "--sampler",
        choices=SAMPLERS,
        default=DEFAULT_SAMPLER,
        help="uniform deals, or weighted by the likelihood of the other seats' plays under "
        f"greedy with trembles (weighted) or the opponent model (model); default {DEFAULT_SAMPLER}",
    )
    hint_parser.add_argument(
        "--opponents",
        choices=OPPONENTS,
        default=DEFAULT_OPPONENTS,
        help="how the playouts play the other seats: greedy, or model: each by a kind of play "
        f"drawn from what its cards say of it (default {DEFAULT_OPPONENTS})",
    )
    options.add_match(hint_parser, "rank the cards")
    hint_parser.add_argument(
        "--evaluation",
        choices=EVALUATIONS,
        default=DEFAULT_EVALUATION,
        help="how a card is valued in a sampled deal beyond exact reach: playout (greedy play, "
        "then exact), policy (the self-play policy's play, then exact) or search (the learned "
        f"estimate); default {DEFAULT_EVALUATION}",
    )
    hint_parser.add_argument(
        "--policy-weight",
        type=WEIGHT,
        default=DEFAULT_POLICY_WEIGHT,
        metavar="W",
        help="for points (maxn, no match): the share of the self-play policy's value of each "
        f"card in its value, 0 to 1 (default {DEFAULT_POLICY_WEIGHT}; 0: the deals alone)",
    )
    hint_parser.add_argument(
        "--json", action="store_true", help="print one JSON object instead of a table"
    )

    match_parser = add("match", match_command)
    match_parser.add_argument(
        "--seats",
        nargs=3,
        choices=BOTS,
        default=["pimc", "greedy", "random"],
        metavar="BOT",
        help="the three bots: random, greedy, policy, pimc, pimc-points (default pimc greedy "
        "random)",
    )
    match_parser.add_argument(
        "--hands",
        type=HANDS,
        metavar="N",
        help="without --target: deals to play, each once per rotation of the bots (default 10, "
        f"at most {MAX_DEALS:,})",
    )
    match_parser.add_argument(
        "--target",
        type=TARGET,
        metavar="T",
        help=f"play whole matches to T points instead of single hands (at most {MAX_TARGET:,})",
    )
    match_parser.add_argument(
        "--matches",
        type=MATCHES,
        metavar="M",
        help="with --target: match seeds to play, each once per rotation of the bots: "
        f"3M matches (default 10, at most {MAX_DEALS:,})",
    )
    match_parser.add_argument(
        "--start-scores",
        type=options.scores,
        metavar="A,B,C",
        help="with --target: start every match from these scores of seats 0, 1, 2 (each bot "
        "sits each score as the bots rotate)",
    )
    match_parser.add_argument(
        "--seed", type=options.seed, help="random seed (default: a new one, printed)"
    )
    match_parser.add_argument(
        "--pimc-samples",
        type=SAMPLES,
        default=PIMC_SAMPLES,
        metavar="N",
        help=f"pimc: deals sampled per decision at most (default {PIMC_SAMPLES})",
    )
    match_parser.add_argument(
        "--pimc-time-limit",
        type=SECONDS_OR_NONE,
        default=PIMC_TIME_LIMIT,
        metavar="SEC",
        help=f"pimc: seconds per decision (default {PIMC_TIME_LIMIT}; 0: no limit, fully "
        "reproducible)",
    )
    match_parser.add_argument(
        "--json", action="store_true", help="print one JSON object instead of a table"
    )

    play_parser = add("play", play_command)
    play_parser.add_argument(
        "--seat", type=int, choices=(0, 1, 2), default=0, help="your seat (default 0)"
    )
    play_parser.add_argument(
        "--bots",
        nargs=2,
        choices=BOTS,
        default=["greedy", "pimc"],
        metavar="BOT",
        help="the bots on your left and your right: random, greedy, policy, pimc (plays for the "
        "match), pimc-points (default greedy pimc)",
    )
    play_parser.add_argument(
        "--target",
        type=TARGET,
        default=DEFAULT_TARGET,
        metavar="T",
        help=f"points that win the match (default {DEFAULT_TARGET}, at most {MAX_TARGET:,})",
    )
    play_parser.add_argument(
        "--seed", type=options.seed, help="random seed for the deals (default: a new one, printed)"
    )
    play_parser.add_argument("--hints", action="store_true", help="show the hint at every turn")
    play_parser.add_argument(
        "--hint-samples",
        type=SAMPLES,
        default=DEFAULT_SAMPLES,
        metavar="N",
        help=f"hint: deals to sample at most (default {DEFAULT_SAMPLES})",
    )
    play_parser.add_argument(
        "--hint-time-limit",
        type=SECONDS_OR_NONE,
        default=DEFAULT_TIME_LIMIT,
        metavar="SEC",
        help=f"hint: seconds at most (default {DEFAULT_TIME_LIMIT}; 0: no limit)",
    )
