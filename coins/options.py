"""The argument types of every command: bad numbers and files are refused while the
command line is read, before any work starts, with one line on stderr and exit status 2.

Each type converts the text and hands the value to the same check the Python
function applies (``solver.checks``, or the module that writes the file), so
``coins solve --time-limit inf`` and ``solve(time_limit=inf)`` are refused
alike. Checks that need several arguments at once (an output that is also
the input, options that contradict each other) are a command's checks
(``add_check``), which ``coins.cli.main`` runs after these and still before
any work.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from analysis.drawing import check_plot_file
from analysis.graph import check_graph_file
from solver import CoinsError, MatchState, checks
from solver.cards import HAND_SIZE
from solver.errors import PathError
from solver.match import MAX_TARGET
from solver.table import check_megabytes


def argument_type(convert: Callable[[str], object], check: Callable, kind: str, name: str):
    """An argparse type: ``check(convert(text))``, its error as argparse's one line."""

    def parse(text: str):
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be {kind}, not {text!r}") from None
        try:
            return check(value)
        except CoinsError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    parse.kind = kind  # what it takes, for argparse's messages and for tests
    return parse


def whole_number(name: str, low: int = 1, high: int | None = None):
    """A whole number from ``low`` to ``high`` (``checks.whole_number``)."""
    return argument_type(
        int, lambda value: checks.whole_number(value, name, low, high), "a whole number", name
    )


def seconds(name: str = "the time limit", zero_means_none: bool = False):
    """Seconds above 0 (or 0: no limit), at most ``checks.MAX_SECONDS``."""
    return argument_type(
        float,
        lambda value: checks.seconds(value, name, zero_means_none),
        "a number of seconds",
        name,
    )


def fraction(name: str):
    """A number from 0 to 1 (``checks.share``)."""
    return argument_type(float, lambda value: checks.share(value, name), "a number", name)


seed = whole_number("the seed", 0, checks.MAX_SEED)
megabytes = argument_type(int, check_megabytes, "a whole number", "the table size")


def input_file(name: str):
    """A file that can be read, or ``-`` for standard input."""
    return argument_type(
        str,
        lambda path: path if path == "-" else str(checks.input_file(path, name)),
        "a file",
        name,
    )


graph_file = argument_type(str, lambda path: str(check_graph_file(path)), "a file", "the graph")
plot_file = argument_type(str, lambda path: str(check_plot_file(path)), "a file", "the plot")


def cards_per_hand(low: int):
    """Cards per hand, ``low`` to 16."""
    return whole_number("cards per hand", low, HAND_SIZE)


target = whole_number("the target", 1, MAX_TARGET)


def _three_numbers(text: str) -> tuple[int, ...]:
    parts = text.split(",")
    if len(parts) != 3:
        raise ValueError(text)
    return tuple(int(part) for part in parts)


scores = argument_type(
    _three_numbers,
    lambda values: tuple(checks.whole_number(v, "a score", 0, MAX_TARGET - 1) for v in values),
    "three whole numbers A,B,C",
    "the scores",
)


def add_match(parser: argparse.ArgumentParser, what: str) -> None:
    """``--target T`` and ``--scores A,B,C``: ``what`` is valued for that match."""
    parser.add_argument(
        "--target",
        type=target,
        metavar="T",
        help=f"{what} for a match to T points: each seat's chance of winning it (at most "
        f"{MAX_TARGET:,})",
    )
    parser.add_argument(
        "--scores",
        type=scores,
        metavar="A,B,C",
        help="with --target: the match scores of seats 0, 1, 2 when the hand began "
        "(default 0,0,0; the points taken in the hand add to them)",
    )
    add_check(parser, match_state)


def add_check(
    parser: argparse.ArgumentParser, check: Callable[[argparse.Namespace], object]
) -> None:
    """Have ``coins.cli.main`` run ``check(args)`` before any work, after the checks
    added before it; it raises a ``CoinsError`` to refuse the command line."""
    earlier = parser.get_default("check")
    both = check if earlier is None else lambda args: (earlier(args), check(args))
    parser.set_defaults(check=both)


def add_force(
    parser: argparse.ArgumentParser, what: str, paths: Callable[[argparse.Namespace], list]
) -> None:
    """``--force``: without it, the files among ``paths(args)`` that exist already are
    refused before any work, rather than replaced by ``what``."""
    parser.add_argument(
        "--force",
        action="store_true",
        help=f"replace files that exist already with {what} (refused without it)",
    )

    def refuse_existing(args: argparse.Namespace) -> None:
        existing = [str(path) for path in paths(args) if Path(path).is_file()]
        if existing and not args.force:
            raise PathError(
                f"{', '.join(existing)} exist{'s' if len(existing) == 1 else ''} "
                "already: give --force to replace"
            )

    add_check(parser, refuse_existing)


def match_state(args: argparse.Namespace) -> MatchState | None:
    """The match of ``--target`` and ``--scores``, or None without a target."""
    if args.target is None:
        if args.scores is not None:
            raise CoinsError("--scores are match scores: give the match's --target as well")
        return None
    return MatchState(args.target, args.scores or (0, 0, 0))


def add_limits(parser: argparse.ArgumentParser, what: str) -> None:
    """``--max-nodes N`` and ``--time-limit SEC``, which stop ``what`` (the search when empty)."""
    what = f" {what}" if what else ""
    parser.add_argument(
        "--max-nodes",
        type=whole_number("the node limit", 1, checks.MAX_NODES),
        metavar="N",
        help=f"stop{what} after N solver nodes (at most {checks.shown(checks.MAX_NODES)})",
    )
    parser.add_argument(
        "--time-limit",
        type=seconds(),
        metavar="SEC",
        help=f"stop{what} after SEC seconds (at most {checks.MAX_SECONDS:,})",
    )
