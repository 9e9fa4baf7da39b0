"""The ``hint`` and ``match`` commands: hidden-hand play (analysis.hint, analysis.bots).

``coins.cli`` registers them with ``play_commands.register(add)``, as it does
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

from analysis.arena import duplicate
from analysis.bots import BOTS
from analysis.hint import DEFAULT_HORIZON, DEFAULT_SAMPLER, DEFAULT_SAMPLES, DEFAULT_TIME_LIMIT, SAMPLERS, hint
from solver import Record, solve
from solver.cards import Card

from . import render
from .notice import compile_notice

OPEN_HAND_CARDS = 8  # show the open-hand values beside a hint up to this many cards a hand


def _read_view(text: str) -> Record:
    """A record (``... | cards``), a view with ``?`` hands, or a bare position."""
    text = text.strip()
    if "|" not in text:
        text += " |"
    return Record.parse(text)


def hint_command(args: argparse.Namespace) -> None:
    """Rank the cards of the seat to move from what it sees: determinised Monte Carlo search.

    VIEW is a record with the hidden hands written ? ("? KNJ7543.96.AN874.96
    ? 0 - | JO"), or a position or full record (then the other hands are
    treated as hidden, and their open-hand values are shown beside as
    context). Each sampled deal fills the hidden hands among those consistent
    with the view (uniformly, or weighted by how likely the deal makes the
    other seats' plays: --sampler); every card is valued in each (exactly with
    the open-hand solver when few cards are left; before that by greedy play
    to a few cards a hand, then exactly) and the estimates are averaged: mean
    points for the mover with its standard error, and how often the card was
    the best.
    """
    record = _read_view(" ".join(args.view))
    compile_notice()
    result = hint(record, args.samples, args.time_limit, args.seed, args.mode,
                  sampler=args.sampler)
    context = None
    if not record.is_view:
        final = record.final
        if final.cards_per_hand <= OPEN_HAND_CARDS:
            solved = solve(final, (final.to_move,), mode=args.mode, line=False, time_limit=5.0)
            if solved.exact:
                mover = final.to_move
                if args.mode == "maxn":
                    context = {c: r[mover] for c, r in solved.card_results.items()}
                else:
                    context = dict(solved.card_values)
    if args.json:
        out = result.to_json()
        out["view"] = str(record if record.is_view else record.view(record.to_move))
        if context is not None:
            for entry in out["cards"]:
                entry["open_hand"] = context[Card.parse(entry["card"])]
        print(json.dumps(out))
        return
    console = Console()
    console.print(f"View {record if record.is_view else record.view(record.to_move)}")
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("card")
    table.add_column("mean", justify="right")
    table.add_column("± stderr", justify="right")
    table.add_column("best", justify="right")
    if context is not None:
        table.add_column("open hand", justify="right")
    for entry in result:
        row = [
            render.card_text(entry.card),
            f"{entry.mean:.2f}",
            f"{entry.stderr:.2f}",
            f"{100 * entry.best_rate:.0f}%",
        ]
        if context is not None:
            row.append(str(context[entry.card]))
        table.add_row(*row)
    console.print(table)
    what = "own points, everyone for themselves" if args.mode == "maxn" else "guaranteed points"
    console.print(
        Text(
            f"Seat {result.seat} to move. mean: {what} from here on, over {result.samples} "
            f"sampled deals ({result.exact} solved exactly, the others by greedy play to "
            f"{DEFAULT_HORIZON} cards a hand, then exactly; {result.sampler} sampling); "
            f"best: share of deals where the card was best. {result.seconds:.2f} s"
        )
    )


def match_command(args: argparse.Namespace) -> None:
    """Play duplicate hands between three bots and compare their points per hand.

    Each deal is played once for each rotation of the bots round the table
    (same deal, same dealer), so every bot plays every seat of every deal and
    the luck of the cards cancels out. Prints each bot's mean points per hand
    with a 95% confidence interval (over deals) and its seconds per move.
    Bots: random, greedy (a heuristic), pimc (hint's best card).
    """
    options = {"samples": args.pimc_samples, "time_limit": args.pimc_time_limit}
    total = args.hands * 3
    if args.json or not sys.stderr.isatty():
        result = duplicate(args.seats, args.hands, args.seed, options=options)
    else:
        with Progress(console=Console(stderr=True), transient=True) as progress:
            task = progress.add_task("hands", total=total)
            result = duplicate(
                args.seats, args.hands, args.seed, options=options,
                progress=lambda done, _: progress.update(task, completed=done),
            )  # fmt: skip
    if args.json:
        print(json.dumps(result.to_json()))
        return
    console = Console()
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for heading in ("bot", "points/hand", "95% CI", "hands", "s/move"):
        table.add_column(heading, justify="left" if heading == "bot" else "right")
    for score in result.scores:
        table.add_row(
            score.name,
            f"{score.mean:.2f}",
            f"{score.mean - score.half_width:.2f} to {score.mean + score.half_width:.2f}",
            str(score.hands),
            f"{score.seconds_per_move:.4f}",
        )
    console.print(table)
    console.print(
        f"{result.deals} deals x 3 seatings = {result.hands} hands, seed {result.seed}, "
        f"{result.seconds:.1f} s"
    )


def register(add) -> None:
    """Add the hint and match commands through ``coins.cli``'s ``add(name, function)``."""
    if isinstance(add, argparse._SubParsersAction):
        from .analysis_commands import _adder

        add = _adder(add)

    hint_parser = add("hint", hint_command)
    hint_parser.add_argument(
        "view", nargs="+", metavar="VIEW",
        help='the view, quoted: "? KNJ7543.96.AN874.96 ? 0 - | JO" (or a position or record)',
    )  # fmt: skip
    hint_parser.add_argument(
        "--samples", type=int, default=DEFAULT_SAMPLES, metavar="N",
        help=f"deals to sample at most (default {DEFAULT_SAMPLES})",
    )  # fmt: skip
    hint_parser.add_argument(
        "--time-limit", type=float, default=DEFAULT_TIME_LIMIT, metavar="SEC",
        help=f"stop sampling after SEC seconds (default {DEFAULT_TIME_LIMIT}; 0: no limit)",
    )  # fmt: skip
    hint_parser.add_argument("--seed", type=int, help="random seed (same seed, same samples)")
    hint_parser.add_argument(
        "--mode", choices=("maxn", "paranoid"), default="maxn",
        help="maxn: own points, everyone for themselves (default); paranoid: guaranteed points",
    )  # fmt: skip
    hint_parser.add_argument(
        "--sampler", choices=SAMPLERS, default=DEFAULT_SAMPLER,
        help=f"uniform deals, or weighted by the likelihood of the other seats' plays "
        f"(default {DEFAULT_SAMPLER})",
    )  # fmt: skip
    hint_parser.add_argument(
        "--json", action="store_true", help="print one JSON object instead of a table"
    )

    match_parser = add("match", match_command)
    match_parser.add_argument(
        "--seats", nargs=3, choices=BOTS, default=["pimc", "greedy", "random"], metavar="BOT",
        help="the three bots: random, greedy, pimc (default pimc greedy random)",
    )  # fmt: skip
    match_parser.add_argument(
        "--hands", type=int, default=10, metavar="N",
        help="deals to play, each once per rotation of the bots (default 10)",
    )  # fmt: skip
    match_parser.add_argument("--seed", type=int, help="random seed (default: a new one, printed)")
    match_parser.add_argument(
        "--pimc-samples", type=int, default=10, metavar="N",
        help="pimc: deals sampled per decision (default 10)",
    )  # fmt: skip
    match_parser.add_argument(
        "--pimc-time-limit", type=float, default=0.25, metavar="SEC",
        help="pimc: seconds per decision (default 0.25; 0: no limit, fully reproducible)",
    )  # fmt: skip
    match_parser.add_argument(
        "--json", action="store_true", help="print one JSON object instead of a table"
    )
