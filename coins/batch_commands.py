"""The ``batch`` command: solve a file of positions into JSON lines, with a progress bar.

``coins.cli`` registers it with ``batch_commands.register(add)``, as it does
``analysis_commands``. The work is done in ``analysis.batch``; this module
only parses arguments, shows progress and prints the summary.
"""

from __future__ import annotations

import argparse
import sys

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from analysis.batch import BatchError, BatchOptions, BatchSummary, read_input, random_lines, run_batch


def batch_command(args: argparse.Namespace) -> None:
    """Solve many positions: one JSON line of values per input line, appended as they finish.

    INPUT holds one position or record of play per line ("<position> | <cards>"
    stands for the position after the cards; blank and # lines are skipped),
    - for standard input; or --random N --cards K --seed S makes N random
    K-card endings instead. Each output line carries the input's line number
    ("line") and text, the values (guaranteed; equilibrium with --mode maxn or
    both), "exact", nodes and seconds; a bad line becomes a record with
    "error" and the batch goes on. --max-nodes and --time-limit bound each
    position. Running the same command again skips the lines the output
    already holds, so a stopped batch (Ctrl-C, a kill) resumes where it
    stopped. Lines run in chunks on --workers processes (default: all cores)
    or, with --scheduler, on a Dask cluster (pip install ".[cluster]").
    """
    if args.random is not None:
        if args.input is not None:
            raise BatchError("give INPUT or --random N, not both")
        items = random_lines(args.random, args.cards, args.seed, args.leader)
    elif args.input is None:
        raise BatchError("give INPUT (a file, or - for standard input) or --random N")
    else:
        items = read_input(args.input)
    options = BatchOptions(args.mode, args.max_nodes, args.time_limit, args.card_values,
                           args.lines)  # fmt: skip
    console = Console(stderr=True)
    columns = (
        TextColumn("solving"), BarColumn(), MofNCompleteColumn(), TaskProgressColumn(),
        TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("left"),
        TimeRemainingColumn(),
    )  # fmt: skip
    with Progress(*columns, console=console, disable=args.quiet, transient=False) as progress:
        task = progress.add_task("batch", total=None, rate="")

        def on_progress(done: int, todo: int, summary: BatchSummary) -> None:
            elapsed = progress.tasks[0].elapsed or 0.0
            rate = f"{done / elapsed:,.1f} lines/s" if done and elapsed else ""
            progress.update(task, completed=done, total=todo, rate=rate)

        summary = run_batch(
            items, args.out, options, args.workers, args.scheduler, args.chunk, on_progress
        )
    print(summary_text(summary, args.out))
    if summary.interrupted:
        raise KeyboardInterrupt


def summary_text(summary: BatchSummary, out) -> str:
    """The summary for people: what this run did, and what is left."""
    parts = [f"{summary.solved:,} solved", f"{summary.errors:,} errors",
             f"{summary.cut_short:,} cut short (not exact)"]  # fmt: skip
    text = f"{out}: {', '.join(parts)} in {summary.seconds:.1f} s"
    if summary.solved:
        text += f" ({summary.nodes:,} nodes)"
    if summary.skipped:
        text += f"; {summary.skipped:,} already there"
    if summary.repaired:
        text += "; a last line cut off mid-write was dropped and redone"
    if summary.left:
        text += f"; {summary.left:,} left: run the same command again to go on"
    if summary.interrupted:
        text = "stopped: " + text
    return text


def register(add) -> None:
    """Add ``batch`` through ``coins.cli``'s ``add(name, function)`` helper."""
    parser = add("batch", batch_command)
    parser.add_argument(
        "input", nargs="?", metavar="INPUT",
        help="a file of positions or records, one a line (- for standard input)",
    )  # fmt: skip
    parser.add_argument("--out", required=True, metavar="RESULTS.jsonl",
                        help="the JSON-lines file to append to (and resume from)")  # fmt: skip
    parser.add_argument(
        "--mode", choices=("paranoid", "maxn", "both"), default="paranoid",
        help="paranoid: guaranteed values (default); maxn: each seat for itself; both",
    )  # fmt: skip
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--max-nodes", type=int, metavar="N", help="stop each position after N nodes")
    limit.add_argument("--time-limit", type=float, metavar="SEC",
                       help="stop each position after SEC seconds")  # fmt: skip
    parser.add_argument("--workers", type=int, metavar="N",
                        help="worker processes (default: all cores; 1: in this process)")  # fmt: skip
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="run on the Dask cluster at ADDRESS (tcp://host:8786)")  # fmt: skip
    parser.add_argument("--chunk", type=int, metavar="LINES",
                        help="lines per task (default: about 8 tasks a worker, at most 64)")  # fmt: skip
    parser.add_argument("--card-values", action="store_true",
                        help="add the mover's card values (paranoid) and card results (maxn)")  # fmt: skip
    parser.add_argument("--lines", action="store_true",
                        help="add the lines of play (optimal_line, equilibrium_line)")  # fmt: skip
    parser.add_argument("--random", type=int, metavar="N",
                        help="solve N random endings instead of INPUT")  # fmt: skip
    parser.add_argument("--cards", type=int, default=6, metavar="K",
                        help="with --random: cards per hand (default 6)")  # fmt: skip
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="with --random: the seed (default 0; the same seed, the same lines)")  # fmt: skip
    parser.add_argument("--leader", type=int, default=0, choices=(0, 1, 2),
                        help="with --random: the seat to lead (default 0)")  # fmt: skip
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
