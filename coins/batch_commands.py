"""The ``batch`` command: solve a file of positions into JSON lines, with a progress bar.

``coins.commands`` registers it with ``batch_commands.register(add)``, as it does
``analysis_commands``. The work is done in ``analysis.batch``; this module
only parses arguments, shows progress and prints the summary.
"""

from __future__ import annotations

import argparse

from rich import box
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
from rich.table import Table

from analysis.batch import (
    MAX_CHUNK_LINES,
    MAX_LINES,
    MAX_WORKERS,
    BatchError,
    BatchOptions,
    BatchSummary,
    check_output,
    load_output,
    random_lines,
    read_input,
    run_batch,
)
from analysis.study import (
    RELATIVE_SEATS,
    STUDY_OPTIONS,
    StudySpec,
    StudyStats,
    aggregate,
    check_exports,
    export_paths,
    study_lines,
    write_exports,
)
from solver.cards import RANK_LETTERS, RANKS_PER_SUIT, SUIT_LETTERS, Card, parse_cards
from solver.checks import shown

from . import options
from .notice import compile_notice

RANDOM_CARDS = 6  # cards per hand of batch --random's endings


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
        cards = RANDOM_CARDS if args.cards is None else args.cards
        items = random_lines(args.random, cards, args.seed or 0, args.leader or 0)
    elif args.input is None:
        raise BatchError("give INPUT (a file, or - for standard input) or --random N")
    else:
        items = read_input(args.input)
    options = BatchOptions(args.mode, args.max_nodes, args.time_limit, args.card_values, args.lines)
    summary = _run_with_progress(items, args, options)
    _finish(summary, args.out)


def _check_random_options(args: argparse.Namespace) -> None:
    """Refuse the options of --random N without it: they would be ignored."""
    given = [f"--{name}" for name in ("cards", "seed", "leader") if getattr(args, name) is not None]
    if given and args.random is None:
        one = len(given) == 1
        raise BatchError(
            f"{', '.join(given)} {'is' if one else 'are'} for the random endings of "
            f"--random N: give --random N, or leave {'it' if one else 'them'} out"
        )


def _finish(summary: BatchSummary, out) -> None:
    """Print the summary; a run stopped early ends as Ctrl-C (130) or an error (2)."""
    print(summary_text(summary, out), flush=True)
    if summary.interrupted:
        raise KeyboardInterrupt
    if summary.failure:
        raise BatchError(
            f"the batch stopped: {summary.failure}; run the same command again to go on"
        )


def _run_with_progress(items, args, options) -> BatchSummary:
    compile_notice()  # each worker process loads (or first compiles) the kernels
    console = Console(stderr=True)
    columns = (
        TextColumn("solving"),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, disable=args.quiet, transient=False) as progress:
        task = progress.add_task("batch", total=None, rate="")

        def on_progress(done: int, todo: int, summary: BatchSummary) -> None:
            elapsed = progress.tasks[0].elapsed or 0.0
            rate = f"{done / elapsed:,.1f} lines/s" if done and elapsed else ""
            progress.update(task, completed=done, total=todo, rate=rate)

        return run_batch(
            items, args.out, options, args.workers, args.scheduler, args.chunk, on_progress
        )


def study_command(args: argparse.Namespace) -> None:
    """Study random endings: solve N of them in both modes and show their statistics.

    The endings have K cards a hand (--cards), reproducible by --seed, under
    constraints: the seat to lead (--leader; default a random seat each), the
    Coins left in the hands (--coins-left), cards a seat must or must not hold
    (--hold 0:AO,KO, --not-hold 1:AO; repeatable), cards already on the table
    (--trick 1 or 2). They are solved as by coins batch into --out (resumable
    the same way), then aggregated: each seat's guaranteed and equilibrium
    points by its place from the leader, the value of leading, how often the
    mover's best first card is a Coin, and each card's worth (the equilibrium
    points of the seat holding it). --json and --csv export the statistics,
    --plot draws them (histograms and box plots per seat; needs matplotlib).
    """
    spec = StudySpec(
        args.count,
        args.cards,
        args.seed,
        args.leader,
        args.coins_left,
        _seat_masks(args.hold, "--hold"),
        _seat_masks(args.not_hold, "--not-hold"),
        args.trick,
    )
    summary = _run_with_progress(study_lines(spec), args, STUDY_OPTIONS)
    _finish(summary, args.out)
    done, _ = load_output(args.out, repair=False)
    stats = aggregate(r for n, r in sorted(done.items()) if n <= spec.count)
    Console().print(study_report(stats))
    for path in write_exports(stats, args.json, args.csv, args.plot):
        print(f"wrote {path}")


def _check_study_files(args: argparse.Namespace) -> None:
    """Before any work: the results file as for batch, and exports that can be written,
    none of them the results or one another."""
    check_output(args.out)
    check_exports(args.json, args.csv, args.plot, results=args.out)


def _seat_masks(specs: list[str] | None, option: str) -> tuple[int, int, int]:
    """``["0:AO,KO", "1:2C"]`` -> a card mask per seat."""
    masks = [0, 0, 0]
    for text in specs or ():
        seat, colon, cards = text.partition(":")
        if not colon or seat not in ("0", "1", "2"):
            raise BatchError(f"{option} takes SEAT:CARDS (0:AO,KO), not {text!r}")
        for card in parse_cards(cards, ","):
            masks[int(seat)] |= 1 << int(card)
    return tuple(masks)


def study_report(stats: StudyStats) -> Table:
    """The statistics as tables: seats, lead and first card, then the cards' worth."""
    from rich.console import Group
    from rich.text import Text

    top = max(
        (
            int(p)
            for row in stats.by_seat.values()
            for mode in row.values()
            for p in mode["histogram"]
        ),
        default=0,
    )
    seats = Table(
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
        title="Positions by Coins won from there on",
    )
    for heading in ("seat", "mode", "mean", *(str(p) for p in range(top + 1))):
        seats.add_column(heading, justify="left" if heading in ("seat", "mode") else "right")
    for name in RELATIVE_SEATS:
        row = stats.by_seat.get(name)
        if row is None:
            continue
        for mode in ("guaranteed", "equilibrium"):
            counts = row[mode]["histogram"]
            seats.add_row(
                name if mode == "guaranteed" else "",
                mode,
                _number(row[mode]["mean"]),
                *(str(counts.get(str(p), 0)) for p in range(top + 1)),
            )
    lead = stats.lead
    first = stats.coin_first
    facts = Text.assemble(
        f"{stats.positions} positions solved exactly ({stats.errors} errors, "
        f"{stats.not_exact} not exact).\n",
        "Value of leading (leader's points minus the others' mean, no trick on the table): "
        f"guaranteed {_number(lead['guaranteed']['mean_advantage'])}, "
        f"equilibrium {_number(lead['equilibrium']['mean_advantage'])} "
        f"({lead['equilibrium']['positions']} positions).\n",
        "The mover's first card is a Coin: equilibrium card "
        f"{_share(first['equilibrium_card_is_a_coin'])}, some paranoid-optimal card "
        f"{_share(first['some_optimal_card_is_a_coin'])}.",
    )
    cards = Table(
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
        padding=(0, 0),
        title="Card worth: mean equilibrium points of its holder",
    )
    cards.add_column("", min_width=1)
    for rank in reversed(RANK_LETTERS):
        cards.add_column(rank, justify="right", min_width=5, no_wrap=True)
    for suit, letter in enumerate(SUIT_LETTERS):
        row = [letter]
        for rank in reversed(range(len(RANK_LETTERS))):
            worth = stats.card_worth.get(str(Card(suit * len(RANK_LETTERS) + rank)), {})
            row.append(_number(worth.get("mean_equilibrium"), 2))
        cards.add_row(*row)
    return Group(seats, Text(""), facts, Text(""), cards)


def _number(value, places: int = 3) -> str:
    return "-" if value is None else f"{value:.{places}f}"


def _share(share: dict) -> str:
    if not share["of"]:
        return "-"
    return f"{share['count']}/{share['of']} ({100 * share['share']:.1f}%)"


def summary_text(summary: BatchSummary, out) -> str:
    """The summary for people: what this run did, and what is left."""
    parts = [
        f"{summary.solved:,} solved",
        f"{summary.errors:,} errors",
        f"{summary.cut_short:,} cut short (not exact)",
    ]
    text = f"{out}: {', '.join(parts)} in {summary.seconds:.1f} s"
    if summary.solved:
        text += f" ({summary.nodes:,} nodes)"
    if summary.skipped:
        text += f"; {summary.skipped:,} already there"
    if summary.repaired:
        text += "; a last line cut off mid-write was dropped and redone"
    if summary.left:
        text += f"; {summary.left:,} left: run the same command again to go on"
    if summary.interrupted or summary.failure:
        text = "stopped: " + text
    return text


def _add_worker_options(parser) -> None:
    """Where the solving runs: --workers, --scheduler, --chunk (batch and study)."""
    parser.add_argument(
        "--workers",
        type=options.whole_number("workers", 1, MAX_WORKERS),
        metavar="N",
        help=f"worker processes (default: all cores; 1: in this process; at most {MAX_WORKERS})",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on the Dask cluster at ADDRESS (tcp://host:8786)",
    )
    parser.add_argument(
        "--chunk",
        type=options.whole_number("lines a chunk", 1, MAX_CHUNK_LINES),
        metavar="LINES",
        help=f"lines per task, 1 to {MAX_CHUNK_LINES:,} "
        "(default: about 8 tasks a worker, at most 64)",
    )


def register(add) -> None:
    """Add ``batch`` through ``coins.commands``' ``add(name, function)`` helper."""
    parser = add("batch", batch_command)
    options.add_check(parser, _check_random_options)
    options.add_check(parser, lambda args: check_output(args.out, args.input))
    parser.add_argument(
        "input",
        nargs="?",
        type=options.input_file("the input"),
        metavar="INPUT",
        help="a file of positions or records, one a line (- for standard input)",
    )
    parser.add_argument(
        "--out",
        required=True,
        metavar="RESULTS.jsonl",
        help="the JSON-lines file to append to (and resume from): a new or "
        "empty file, or this batch's results, never its input",
    )
    parser.add_argument(
        "--mode",
        choices=("paranoid", "maxn", "both"),
        default="paranoid",
        help="paranoid: guaranteed values (default); maxn: each seat for itself; both",
    )
    options.add_limits(parser.add_mutually_exclusive_group(), "each position")
    _add_worker_options(parser)
    parser.add_argument(
        "--card-values",
        action="store_true",
        help="add the mover's card values (paranoid) and card results (maxn)",
    )
    parser.add_argument(
        "--lines",
        action="store_true",
        help="add the lines of play (optimal_line, equilibrium_line)",
    )
    parser.add_argument(
        "--random",
        type=options.whole_number("the number of positions", 0, MAX_LINES),
        metavar="N",
        help="solve N random endings instead of INPUT (made as "
        f"they are solved; at most {shown(MAX_LINES)})",
    )
    parser.add_argument(
        "--cards",
        type=options.cards_per_hand(0),
        metavar="K",
        help=f"with --random: cards per hand, 0-16 (default {RANDOM_CARDS})",
    )
    parser.add_argument(
        "--seed",
        type=options.seed,
        metavar="S",
        help="with --random: the seed (default 0; same seed, same lines)",
    )
    parser.add_argument(
        "--leader", type=int, choices=(0, 1, 2), help="with --random: the seat to lead (default 0)"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")

    study = add("study", study_command)
    options.add_check(study, _check_study_files)
    study.add_argument(
        "--count",
        type=options.whole_number("the number of positions", 0, MAX_LINES),
        default=1000,
        metavar="N",
        help=f"positions to study (default 1000, at most {shown(MAX_LINES)})",
    )
    study.add_argument(
        "--cards",
        type=options.cards_per_hand(1),
        default=6,
        metavar="K",
        help="cards per hand, 1-16 (default 6)",
    )
    study.add_argument(
        "--seed",
        type=options.seed,
        default=0,
        metavar="S",
        help="the seed (default 0; the same seed, the same positions)",
    )
    study.add_argument(
        "--leader",
        type=int,
        choices=(0, 1, 2),
        help="the seat to lead (default: a random seat each)",
    )
    study.add_argument(
        "--coins-left",
        type=options.whole_number("the Coins left", 0, RANKS_PER_SUIT),
        metavar="C",
        help=f"exactly C Coins cards in the hands, 0-{RANKS_PER_SUIT}",
    )
    study.add_argument(
        "--hold",
        action="append",
        metavar="SEAT:CARDS",
        help="cards a seat must hold (0:AO,KO); repeatable",
    )
    study.add_argument(
        "--not-hold",
        action="append",
        metavar="SEAT:CARDS",
        help="cards a seat must not hold; repeatable",
    )
    study.add_argument(
        "--trick",
        type=int,
        default=0,
        choices=(0, 1, 2),
        help="cards already on the table (default 0)",
    )
    study.add_argument(
        "--out",
        required=True,
        metavar="RESULTS.jsonl",
        help="the batch results to append to (and resume from)",
    )
    _add_worker_options(study)
    study.add_argument("--json", metavar="FILE", help="write the statistics as JSON")
    study.add_argument(
        "--csv", metavar="PREFIX", help="write PREFIX-seats.csv and PREFIX-cards.csv"
    )
    study.add_argument(
        "--plot",
        metavar="PREFIX",
        help="draw PREFIX-histograms.png and PREFIX-seats.png (needs matplotlib)",
    )
    study.add_argument("--quiet", action="store_true", help="no progress bar")
    options.add_force(
        study, "the exports", lambda args: export_paths(args.json, args.csv, args.plot)
    )
