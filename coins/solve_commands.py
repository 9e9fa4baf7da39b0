"""``coins solve`` and ``coins deal``: one position solved open-handed, and a random one dealt."""

from __future__ import annotations

import argparse
import json

from rich.console import Console

from solver import CoinsError
from solver.cards import HAND_SIZE

from . import api, options, render
from .notice import compile_notice
from .status import search_status


def solve_command(args: argparse.Namespace) -> None:
    """Solve a position open-handed: each seat's guaranteed value, the mover's card values
    and an optimal line.

    A seat's guaranteed value is the most Coins it can be sure to win from the
    position to the end of the hand when the other two play together against
    it. With --mode maxn (or both) it also gives the equilibrium: the Coins
    each seat wins when every seat plays for itself, each card's three-seat
    result and the equilibrium line. With --target (and --scores) it also
    gives each seat's chance of winning the match, every card's chances and
    the line every seat plays for the match (RULES.md). The search is exact unless --max-nodes or
    --time-limit stops it, or Ctrl-C; then the output says so and gives the
    proven interval instead.
    """
    compile_notice()
    with search_status() as progress:
        answer = api.solve_position(args, progress)
    if args.json:
        print(json.dumps(answer.to_json()))
    else:
        Console().print(render.solve_report(answer.result, answer.estimate, answer.match_estimate))
    if answer.interrupted:
        raise KeyboardInterrupt  # after the report: exit status 130


def _check_seat(args: argparse.Namespace) -> None:
    """Refuse --seat where it would be ignored: max^n values are every seat's at once."""
    if args.seat is not None and args.mode == "maxn":
        raise CoinsError(
            "--seat picks the one seat whose guaranteed value is solved, and --mode "
            "maxn solves none: use --mode both, or leave --seat out"
        )


def deal_command(args: argparse.Namespace) -> None:
    """Print a random position: a full deal, or with --cards K a K-card-per-hand ending.

    The same --seed always gives the same position.
    """
    print(api.deal_position(args))


def register(add) -> None:
    """Add ``solve`` and ``deal`` through ``coins.commands``' ``add(name, function)`` helper."""
    solve_parser = add("solve", solve_command)
    solve_parser.add_argument(
        "position",
        nargs="+",
        metavar="POSITION",
        help='the position, quoted ("AK9.N32.75.J84 ... 0 -") or as separate words',
    )
    solve_parser.add_argument(
        "--seat",
        type=int,
        choices=(0, 1, 2),
        help="solve only this seat's guaranteed value (the mover's card values still come)",
    )
    solve_parser.add_argument(
        "--mode",
        choices=("paranoid", "maxn", "both"),
        default="paranoid",
        help="paranoid: guaranteed values (default); maxn: each seat for itself; both",
    )
    options.add_limits(solve_parser, "")
    options.add_match(solve_parser, "also solve the position")
    options.add_check(solve_parser, _check_seat)
    solve_parser.add_argument(
        "--memory",
        type=options.megabytes,
        metavar="MIB",
        help="a fixed transposition table of MIB MiB for the guaranteed values (default: "
        "sized for the position, doubling when full, up to 512 MiB for an ending and 4096 "
        "for a full deal)",
    )
    solve_parser.add_argument(
        "--json", action="store_true", help="print one JSON object instead of tables"
    )

    deal_parser = add("deal", deal_command)
    deal_parser.add_argument(
        "--seed", type=options.seed, help="random seed, 0 to 2^64-1 (default: a new deal each time)"
    )
    deal_parser.add_argument(
        "--cards",
        type=options.cards_per_hand(0),
        default=HAND_SIZE,
        metavar="K",
        help=f"cards per hand, 0-{HAND_SIZE} (default {HAND_SIZE})",
    )
    deal_parser.add_argument(
        "--leader", type=int, choices=(0, 1, 2), default=0, help="the seat to lead (default 0)"
    )
