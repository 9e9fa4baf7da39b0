"""Solver benchmark: guaranteed values over a fixed, committed suite of deals.

``python -m benchmarks.solver`` solves each ending of ``suite_paranoid.txt``
for seat 0, the leader (``--all-seats``: for every seat), and each full deal
for all three seats (the random deals, then those of ``suite_runs.txt``,
where each seat holds each suit as one run: full deals the solver already
finishes), each position with a fresh transposition table so no position
helps another, prints
per-size median, 90th percentile and max of seconds and nodes (nodes are
stable on a noisy machine; seconds are not), the node rate and the table's
hit rate, and saves everything (with first-card cutoff rates) to
``results/solver.json`` (a --quick run to ``results/solver_quick.json.tmp``,
leaving the committed results alone). Compile time is measured apart, in a
child process with an empty Numba cache. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np
from rich import box
from rich.console import Console
from rich.progress import track
from rich.table import Table

from solver import Position, solve
from solver.cards import HAND_SIZE, SEATS, SUIT_MASKS, popcount
from solver.compiled import warm_up
from solver.paranoid import fresh_table
from solver.threads import DEFAULT_THREADS

from .strength import save_report

HERE = Path(__file__).resolve().parent
SUITE = HERE / "suite_paranoid.txt"
RUNS_SUITE = HERE / "suite_runs.txt"
RUNS_DEALS = 10
RUNS = "16 in runs"  # the full deals of RUNS_SUITE, reported as a size of their own
RESULTS = HERE / "results" / "solver.json"
# cards per hand -> positions in the suite
SUITE_SIZES = {6: 20, 8: 20, 10: 20, 12: 20, 14: 10, 16: 10}
FULL_DEAL = HAND_SIZE  # the size of the full deals
ALL_SEATS = tuple(range(SEATS))  # full deals: every seat's value
QUICK_POSITIONS = 5
QUICK_SIZES = (6, 8, 10)
QUICK_CAP = 10.0


def make_suite() -> str:
    """The suite file's text; ``--make-suite`` wrote it once and it stays committed."""
    return suite_text(
        "the paranoid solver (benchmarks/solver.py)", "benchmarks.solver", SUITE_SIZES
    )


def suite_text(solver: str, module: str, sizes: dict[int, int]) -> str:
    """A suite file for ``solver``: a header saying how ``python -m module --make-suite``
    made it, then ``Position.random(1000 * K + i, K, 0)``, i < n, for each K: n of ``sizes``."""
    lines = [
        f"# Benchmark suite for {solver}: leader 0, no trick.",
        f"# Made by `python -m {module} --make-suite`: line i of the K-card block is",
        "# Position.random(1000 * K + i, cards=K, leader=0), i = 0 .. n-1, with K: n =",
        "# " + ", ".join(f"{k}: {n}" for k, n in sizes.items()) + ".",
        "# Keep it fixed: results are compared across commits.",
    ]
    for positions in deal_suite(sizes).values():
        lines += map(str, positions)
    return "\n".join(lines) + "\n"


# ``--held-out`` deals from seeds this far past the suite's (1000 * K + i, i < 500)
HELD_OUT_SEEDS = 500


def deal_suite(sizes: dict[int, int], first_seed: int = 0) -> dict[int, list[Position]]:
    """``Position.random(1000 * K + first_seed + i, K, 0)``, i < n, for each K: n of
    ``sizes``: the suites' endings, or from ``HELD_OUT_SEEDS`` on, positions like
    them that the search was not tuned on (``--held-out``)."""
    return {
        cards: [Position.random(1000 * cards + first_seed + i, cards, 0) for i in range(count)]
        for cards, count in sizes.items()
    }


def held_out_suite(sizes: dict[int, int]) -> dict[int, list[Position]]:
    """Positions like the suite's, from other seeds (``deal_suite`` from
    ``HELD_OUT_SEEDS``). The search has been tuned on the suite for a long
    time, so a change should hold on these too."""
    return deal_suite(sizes, HELD_OUT_SEEDS)


def deal_in_runs(seed: int) -> Position:
    """A full deal, seat 0 to lead, in which every seat holds each suit as one
    run of consecutive ranks: ``Position.random(seed)``'s count of each suit for
    each seat, the three blocks of a suit in a random order. At most four
    distinct cards a turn keep such deals within the exact solver's reach,
    where random full deals are not yet."""
    rng = random.Random(seed)
    counts = Position.random(seed).hands
    hands = [0, 0, 0]
    for suit in range(4):
        rank = 0
        for seat in rng.sample(range(SEATS), SEATS):
            for _ in range(popcount(counts[seat] & SUIT_MASKS[suit])):
                hands[seat] |= 1 << (12 * suit + rank)
                rank += 1
    return Position(tuple(hands), 0)


def make_runs_suite() -> str:
    """``suite_runs.txt``'s text: ``deal_in_runs(seed)`` for seeds 0 .. RUNS_DEALS - 1."""
    lines = [
        "# Full deals in runs for the paranoid solver (benchmarks/solver.py): each seat",
        "# holds each suit as one run of ranks. Made by `python -m benchmarks.solver",
        f"# --make-suite`: line i is deal_in_runs(i), i = 0 .. {RUNS_DEALS - 1}. Keep it fixed.",
    ]
    return "\n".join(lines + [str(deal_in_runs(seed)) for seed in range(RUNS_DEALS)]) + "\n"


def read_suite(path: Path = SUITE) -> dict[int, list[Position]]:
    """The suite's positions grouped by cards per hand."""
    suite: dict[int, list[Position]] = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            position = Position.parse(line)
            suite.setdefault(position.cards_per_hand, []).append(position)
    return suite


def run_position(
    position: Position,
    cap: float | None,
    threads: int = DEFAULT_THREADS,
    seats: tuple[int, ...] = (0,),
    node_cap: int | None = None,
) -> dict:
    """Solve the guaranteed values of ``seats`` with a fresh table (of the size
    ``solve`` would take for it), stopping after ``cap`` seconds or
    ``node_cap`` nodes in all (None: no such limit).

    ``value`` and ``bounds`` are seat 0's; ``values`` and ``all_bounds`` every
    seat's (None for a seat not asked). The table and cutoff figures profile
    the search (``ParanoidSearch.counters``).
    """
    result = solve(
        position,
        seats=seats,
        card_values=False,
        line=False,
        time_limit=cap,
        max_nodes=node_cap,
        table=fresh_table(position),
        threads=threads,
    )
    stats = result.search_stats
    return {
        "position": str(position),
        "cards": position.cards_per_hand,
        "seats": list(seats),
        "value": result.guaranteed[0],
        "bounds": list(result.bounds[0]),
        "values": result.guaranteed,
        "all_bounds": [None if b is None else list(b) for b in result.bounds],
        "exact": result.exact,
        "nodes": result.nodes,
        "seconds": round(result.seconds, 6),
        "tt_probes": stats["tt_probes"],
        "tt_hits": stats["tt_hits"],
        "tt_decided": stats["tt_decided"],
        "deferred": stats["deferred"],
        "first_card_cutoffs": stats["first_card_cutoffs"],
        "probes": stats["probes"],
    }


def run_repeated(
    position: Position,
    cap: float | None,
    threads: int,
    seats: tuple[int, ...],
    repeat: int,
    node_cap: int | None = None,
) -> dict:
    """``run_position`` ``repeat`` times, a fresh table each: the record of the
    run of median time (the lower middle one of an even count), with every
    run's seconds and nodes in run order. On two threads single positions
    scatter by 20% and some tests by several times, so one run says little
    about a change that moves them."""
    runs = [run_position(position, cap, threads, seats, node_cap) for _ in range(repeat)]
    if repeat == 1:
        return runs[0]
    middle = sorted(runs, key=lambda run: run["seconds"])[(repeat - 1) // 2]
    return middle | {
        "repeat_seconds": [run["seconds"] for run in runs],
        "repeat_nodes": [run["nodes"] for run in runs],
    }


def summarize(records: list[dict]) -> dict:
    """Median, 90th percentile and max of seconds and nodes over ``records``.

    Positions stopped by the cap count with their capped time and nodes, so
    the figures are then lower bounds; ``unfinished`` says how many.
    """
    seconds = np.array([r["seconds"] for r in records])
    nodes = np.array([r["nodes"] for r in records])
    probes = sum(r.get("tt_probes", 0) for r in records)

    def spread(values):
        return {
            "median": round(float(np.median(values)), 6),
            "p90": round(float(np.percentile(values, 90)), 6),
            "max": round(float(values.max()), 6),
        }

    asked = [bounds for r in records for bounds in r.get("all_bounds", []) if bounds is not None]
    return {
        "positions": len(records),
        "unfinished": sum(not r["exact"] for r in records),
        # what a cap left: seats solved exactly, and how wide the proven intervals are in all
        "seats": len(asked),
        "seats_proven": sum(low == high for low, high in asked),
        "open_points": sum(high - low for low, high in asked),
        "seconds": spread(seconds),
        "nodes": spread(nodes) | {"total": int(nodes.sum())},
        "nodes_per_second": float(nodes.sum() / max(seconds.sum(), 1e-9)),
        # table probes that found an entry / whose bounds answered at once
        "tt_hit_rate": round(sum(r.get("tt_hits", 0) for r in records) / probes, 4)
        if probes
        else None,
        "tt_decided_rate": round(sum(r.get("tt_decided", 0) for r in records) / probes, 4)
        if probes
        else None,
        # per side, the mean over positions of the share of cutoffs made by the first card
        "first_card_cutoffs": {side: _mean_share(records, side) for side in ("pair", "seat")},
    }


def _mean_share(records: list[dict], side: str) -> float | None:
    shares = [
        r["first_card_cutoffs"][side]
        for r in records
        if r.get("first_card_cutoffs", {}).get(side) is not None
    ]
    return round(float(np.mean(shares)), 4) if shares else None


def cold_compile_seconds() -> float:
    """Seconds for the first solve in a fresh process with an empty Numba cache."""
    with tempfile.TemporaryDirectory() as cache:
        done = subprocess.run(
            [sys.executable, "-c", "from solver.compiled import warm_up; print(warm_up())"],
            env=dict(os.environ, NUMBA_CACHE_DIR=cache),
            cwd=HERE.parent,
            capture_output=True,
            text=True,
        )
    if done.returncode:
        raise SystemExit(f"the cold-compile run failed ({done.returncode}):\n{done.stderr}")
    return float(done.stdout.split()[-1])


def machine() -> dict:
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=HERE, capture_output=True, text=True
    ).stdout.strip()
    return {
        "commit": commit or None,
        "date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "numba": numba.__version__,
        "numpy": np.__version__,
    }


STATS = ("median", "p90", "max")


def short_number(number: float) -> str:
    """``1234567`` -> ``1.23M``: short enough for a table read by people."""
    for factor, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if number >= factor:
            return f"{number / factor:.3g}{suffix}"
    return f"{number:.0f}"


def summary_table(
    report: dict, title: str = "Seat 0's guaranteed value, fresh table per position"
) -> Table:
    """The summary for people, in 80 columns; the JSON and ``--markdown`` have exact figures."""
    table = Table(
        title=title,
        box=box.SIMPLE,
        caption="cut: positions stopped by the cap (their figures are lower bounds)",
    )
    profiled = _profiled(report)
    for heading in (
        "cards",
        "cut",
        "med s",
        "p90 s",
        "max s",
        "med nodes",
        "p90 nodes",
        "max nodes",
        "nodes/s",
    ) + (("hit %",) if profiled else ()):
        table.add_column(heading, justify="right")
    for cards, size in report["sizes"].items():
        table.add_row(
            f"{cards} x{size['positions']}",
            str(size["unfinished"]),
            *(f"{size['seconds'][k]:.3f}" for k in STATS),
            *(short_number(size["nodes"][k]) for k in STATS),
            short_number(size["nodes_per_second"]),
            *((_percent(size.get("tt_hit_rate")),) if profiled else ()),
        )
    return table


def _profiled(report: dict) -> bool:
    """Whether the run recorded the search profile (the paranoid one does)."""
    return any(size.get("tt_hit_rate") is not None for size in report["sizes"].values())


def _percent(share: float | None) -> str:
    return "-" if share is None else f"{100 * share:.1f}"


def compile_line(report: dict) -> str:
    c = report["compile"]
    cold = "not measured (--quick)" if c["cold"] is None else f"{c['cold']:.1f} s"
    return (
        f"compile, empty cache: {cold}; first call, with cache: {c['first_call']:.2f} s; "
        f"warm call: {c['warm_call']:.4f} s"
    )


def markdown(report: dict, caps: str | None = None) -> str:
    """The summary as a Markdown table, for benchmarks/README.md.

    ``caps`` says what time caps the run had (default: this benchmark's two).
    """
    m = report["machine"]
    if caps is None:
        caps = (
            f"caps {report['options']['ending_cap']:g} s (endings), "
            f"{report['options']['time_cap']:g} s (full deals)"
        )
        repeat = report["options"].get("repeat", 1)
        if repeat > 1:
            caps += f"; each position the run of median time of {repeat}"
        if report["options"].get("all_seats"):
            caps += "; all three seats' values of the endings too"
    profiled = _profiled(report)
    seated = any(size.get("seats") for size in report["sizes"].values())
    head = (
        ("cards", "positions", "unfinished")
        + (("seats proven",) if seated else ())
        + ("median s", "p90 s", "max s", "median nodes", "p90 nodes", "max nodes", "nodes/s")
    )
    if profiled:
        head += ("TT hit %", "TT decided %", "1st-card cutoffs % pair / seat")
    lines = ["| " + " | ".join(head) + " |", "|" + "---:|" * len(head)]
    for cards, size in report["sizes"].items():
        row = (
            cards,
            str(size["positions"]),
            str(size["unfinished"]),
            *((f"{size['seats_proven']} / {size['seats']}",) if seated else ()),
            *(f"{size['seconds'][k]:.3f}" for k in STATS),
            *(f"{size['nodes'][k]:,.0f}" for k in STATS),
            f"{size['nodes_per_second']:,.0f}",
        )
        if profiled:
            first = size["first_card_cutoffs"]
            row += (
                _percent(size["tt_hit_rate"]),
                _percent(size["tt_decided_rate"]),
                f"{_percent(first['pair'])} / {_percent(first['seat'])}",
            )
        lines.append("| " + " | ".join(row) + " |")
    lines += [
        "",
        f"{compile_line(report)}. Total nodes: {report['total_nodes']:,}. "
        f"Commit {m['commit']}, {m['date']}, {m['cpus']} CPUs, Python {m['python']}, "
        f"Numba {m['numba']}; {caps}.",
    ]
    return "\n".join(lines)


def parse_sizes(
    parser: argparse.ArgumentParser, text: str | None, suite_sizes, default
) -> list[int]:
    """``--sizes 6,8`` as a list of cards per hand the suite has; ``default`` when not given."""
    if not text:
        return list(default)
    try:
        sizes = [int(s) for s in text.split(",")]
    except ValueError:
        parser.error(f"--sizes {text!r}: give cards per hand like 6,8,10")
    unknown = [s for s in sizes if s not in suite_sizes]
    if unknown:
        parser.error(f"--sizes: the suite has no {unknown} (it has {list(suite_sizes)})")
    return sizes


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.solver",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--sizes",
        help="cards per hand to run, e.g. 6,8,10 (default: all: "
        + ",".join(map(str, SUITE_SIZES))
        + "; with --quick: "
        + ",".join(map(str, QUICK_SIZES))
        + ")",
    )
    parser.add_argument(
        "--time-cap",
        type=float,
        default=120.0,
        metavar="SEC",
        help="seconds allowed per full deal, all three seats (default 120)",
    )
    parser.add_argument(
        "--ending-cap",
        type=float,
        default=30.0,
        metavar="SEC",
        help="seconds allowed per ending of fewer cards (default 30)",
    )
    parser.add_argument(
        "--node-cap",
        type=int,
        metavar="N",
        help="nodes allowed per position instead of the time caps: with "
        "--threads 1 every node count then repeats exactly, whatever the "
        "machine's load",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"{QUICK_POSITIONS} positions per size, caps of {QUICK_CAP:g} s, "
        "no cold-compile measurement",
    )
    parser.add_argument(
        "--all-seats",
        action="store_true",
        help="solve all three seats' values of the endings too, not only seat "
        "0's (full deals always are)",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        metavar="N",
        help="solve each position N times (a fresh table each) and keep the run "
        "of median time, with every run's seconds and nodes (default 1)",
    )
    add_common_options(parser, RESULTS)
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error(f"--repeat {args.repeat}: give a number of runs, 1 or more")
    if args.node_cap is not None and args.node_cap < 1:
        parser.error(f"--node-cap {args.node_cap}: give a number of nodes, 1 or more")
    args.sizes = parse_sizes(
        parser, args.sizes, SUITE_SIZES, QUICK_SIZES if args.quick else SUITE_SIZES
    )
    if args.quick:
        args.time_cap = min(args.time_cap, QUICK_CAP)
        args.ending_cap = min(args.ending_cap, QUICK_CAP)
    return args


def add_common_options(parser: argparse.ArgumentParser, results: Path) -> None:
    """The options every solver benchmark takes: --output, --markdown, --make-suite, --threads,
    --held-out (``output_path`` says where to save)."""
    parser.add_argument(
        "--output",
        type=Path,
        metavar="PATH",
        help=f"where to save the JSON (default {results.relative_to(HERE.parent)}; "
        f"with --quick {quick_path(results).relative_to(HERE.parent)})",
    )
    parser.add_argument(
        "--markdown",
        action="store_true",
        help="also print the summary as a Markdown table (for benchmarks/README.md)",
    )
    parser.add_argument(
        "--make-suite",
        action="store_true",
        help="write the suite file from its seeds and stop (it is committed)",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=DEFAULT_THREADS,
        metavar="N",
        help=f"search threads (default {DEFAULT_THREADS}, as solve); node counts "
        "repeat exactly only with 1",
    )
    parser.add_argument(
        "--held-out",
        action="store_true",
        help="positions dealt from other seeds than the suite's, to check that a "
        "change holds beyond the positions it was tuned on (saved by default "
        f"to {_held_out_path(results).relative_to(HERE.parent)}); compare "
        "two runs with python -m benchmarks.compare",
    )


def _held_out_path(results: Path) -> Path:
    return results.with_name(results.stem + "_held_out.json")


def quick_path(results: Path) -> Path:
    """Where a --quick run saves by default: beside ``results``, ``.tmp`` (git ignores
    it), so that it never overwrites the committed results of a whole run."""
    return results.with_name(f"{results.stem}_quick.json.tmp")


def output_path(args: argparse.Namespace, results: Path) -> Path:
    """Where to save: ``--output``, else the held-out file for ``--held-out``, else
    ``results``; for a --quick run, ``quick_path`` of that."""
    if args.output is not None:
        return args.output
    path = _held_out_path(results) if args.held_out else results
    return quick_path(path) if args.quick else path


def compile_times(quick: bool) -> dict:
    """The compile line's figures: cold (skipped when ``quick``), first call, warm call."""
    cold = None if quick else cold_compile_seconds()
    first_call = warm_up()
    return {"cold": cold, "first_call": first_call, "warm_call": warm_up()}


def run_all(solve_one, positions: list[Position], description: str, console: Console) -> list:
    """``solve_one(position)`` for each position, with a progress bar that then goes away."""
    return [
        solve_one(p)
        for p in track(positions, description=description, console=console, transient=True)
    ]


def make_report(options: dict, compile: dict, sizes: list, records: list[dict]) -> dict:
    """What is saved as JSON: machine, options, compile times, per-size summaries, positions."""
    return {
        "machine": machine(),
        "options": options,
        "compile": compile,
        "sizes": {
            str(cards): summarize([r for r in records if r["cards"] == cards]) for cards in sizes
        },
        "total_nodes": sum(r["nodes"] for r in records),
        "positions": records,
    }


def save_and_show(
    report: dict, output: Path, console: Console, table: Table, markdown_text: str | None
) -> None:
    """Save ``report`` to ``output`` and print the table, compile line and total nodes
    (and the Markdown table when given)."""
    save_report(output, report)
    console.print(table)
    for cards, size in report["sizes"].items():
        if size["seats_proven"] != size["seats"]:
            console.print(
                f"{cards} cards: {size['seats_proven']} of {size['seats']} seats' values "
                f"proven exactly, the other intervals {size['open_points']} points wide in all"
            )
    console.print(compile_line(report))
    threads = report["options"].get("threads", 1)
    console.print(
        f"total nodes: {report['total_nodes']:,} "
        + (
            "(changes only when the search does, unless a cap was hit)"
            if threads == 1
            else f"({threads} threads: varies a little from run to run; "
            "--threads 1 repeats exactly)"
        )
    )
    console.print(f"saved {output}")
    if markdown_text is not None:
        print(markdown_text)


def main(argv: list[str] | None = None) -> dict | None:
    """Run the benchmark; returns the report that was saved."""
    args = parse_args(argv)
    if args.make_suite:
        SUITE.write_text(make_suite())
        RUNS_SUITE.write_text(make_runs_suite())
        print(f"wrote {SUITE} and {RUNS_SUITE}")
        return None
    console = Console()
    compile = compile_times(args.quick)

    if args.held_out:
        suite = held_out_suite(SUITE_SIZES) | {
            RUNS: [deal_in_runs(HELD_OUT_SEEDS + i) for i in range(RUNS_DEALS)]
        }
    else:
        suite = read_suite() | {RUNS: read_suite(RUNS_SUITE)[FULL_DEAL]}
    sizes = args.sizes + ([RUNS] if FULL_DEAL in args.sizes else [])
    records = []
    for cards in sizes:
        positions = suite[cards][:QUICK_POSITIONS] if args.quick else suite[cards]
        cap = args.time_cap if cards in (FULL_DEAL, RUNS) else args.ending_cap
        if args.node_cap is not None:
            cap = None
        seats = ALL_SEATS if args.all_seats or cards in (FULL_DEAL, RUNS) else (0,)
        records += [
            record | {"cards": cards}
            for record in run_all(
                lambda p: run_repeated(p, cap, args.threads, seats, args.repeat, args.node_cap),
                positions,
                f"{cards} cards",
                console,
            )
        ]
    options = {
        "sizes": sizes,
        "quick": args.quick,
        "time_cap": args.time_cap,
        "ending_cap": args.ending_cap,
        "threads": args.threads,
        "held_out": args.held_out,
        "repeat": args.repeat,
        "all_seats": args.all_seats,
        "node_cap": args.node_cap,
    }
    report = make_report(options, compile, sizes, records)
    table = (
        summary_table(report, "Every seat's guaranteed value, fresh table per position")
        if args.all_seats
        else summary_table(report)
    )
    save_and_show(
        report,
        output_path(args, RESULTS),
        console,
        table,
        markdown(report) if args.markdown else None,
    )
    return report


if __name__ == "__main__":
    main()
