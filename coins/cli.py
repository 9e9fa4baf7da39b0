"""coins: solve and deal positions of Coins, Mark Steere's three-player trick-taking game.

Positions are written in the notation of RULES.md, e.g.
"J9.J4..52 .K75.6.N8 A753.8.5. 0 -" (hands of seats 0, 1, 2 by suit
Cups.Coins.Swords.Clubs, the leader, the trick on the table, points taken).
"""

from __future__ import annotations

import argparse
import errno
import inspect
import json
import os
import re
import sys
from importlib import metadata
from pathlib import Path

from rich.console import Console

from solver import CoinsError
from solver.cards import HAND_SIZE
from solver.errors import cut_quotes

from . import analysis_commands, api, batch_commands, options, play_commands, render, web
from .notice import compile_notice
from .status import search_status

OUTPUT_FAILED = 74  # sysexits.h EX_IOERR: standard output failed (a full disk, a closed pipe)


def _broken_pipe(console: Console) -> None:
    """rich's ``Console.on_broken_pipe``: the BrokenPipeError goes on to ``main``, which
    reports it as any output it cannot write (rich's own exits with status 1, silently)."""
    raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))


Console.on_broken_pipe = _broken_pipe


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error on one line (exit status 2)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {cut_quotes(message)}; see {self.prog} --help\n")

    def _print_message(self, message, file=None):
        """Write ``--help`` and the like, letting a failed write through to ``main``
        (argparse's own drops it, and the help is lost with exit status 0)."""
        if message:
            (file or sys.stderr).write(message)


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


def version() -> str:
    """The installed package's version; run from a source tree that is not installed,
    pyproject.toml's, marked so (an installed copy elsewhere may differ)."""
    try:
        return metadata.version("coins-solver")
    except metadata.PackageNotFoundError:
        pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
        text = pyproject.read_text() if pyproject.is_file() else ""
        found = re.search(r'^version = "(.+)"', text, re.MULTILINE)
        return f"{found[1]} (source tree, not installed)" if found else "unknown (not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="coins", description=__doc__)
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    commands = parser.add_subparsers(title="commands", required=True, metavar="COMMAND")

    def add(name: str, function) -> argparse.ArgumentParser:
        """A sub-command that runs ``function``, its help taken from the docstring."""
        description = inspect.cleandoc(function.__doc__)
        summary = description.partition("\n\n")[0]
        command = commands.add_parser(
            name,
            help=" ".join(summary.split()),
            description=description,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        command.set_defaults(run=function)
        return command

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
    analysis_commands.register(add)
    batch_commands.register(add)
    play_commands.register(add)
    web.register(add)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (README, "Exit status")."""
    try:
        try:
            return _run(build_parser(), argv)
        finally:  # now, not at exit: a full disk or a closed pipe is caught below
            sys.stdout.flush()
    except OSError as error:  # the output (or a file) could not be written
        if error.filename is None:  # standard output, which the flush at exit would try again
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        what = error.filename or "cannot write the output"
        print(f"coins: error: {what}: {error.strerror or error}", file=sys.stderr)
        return OUTPUT_FAILED


def _run(parser: argparse.ArgumentParser, argv: list[str] | None) -> int:
    """Read ``argv`` and run its command: bad input and Ctrl-C end in one line."""
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # argparse: --help or --version (0) or a usage error (2)
        return stop.code
    try:
        if hasattr(args, "check"):  # the command's checks of several arguments at once
            args.check(args)
        args.run(args)
    except CoinsError as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{parser.prog}: interrupted", file=sys.stderr)
        return 130
    return 0
