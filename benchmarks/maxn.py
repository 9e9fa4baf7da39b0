"""Equilibrium (max^n) solver benchmark: every card's result for the mover over a fixed suite.

``python -m benchmarks.maxn`` solves each position of ``suite_maxn.txt`` with
``solve_maxn(position, card_results=True, line=False)`` -- the equilibrium and
the three-seat result of every card the mover holds, as ``coins analyze``
needs at each decision -- each with a fresh table of the size ``solve_maxn``
would take for it (``maxn_table_megabytes``), so no position helps
another, prints per-size median, 90th percentile and max of seconds and nodes
and saves everything to ``results/maxn.json`` (a --quick run to
``results/maxn_quick.json.tmp``). Compile time is measured apart,
as by ``benchmarks.solver`` (whose helpers this module uses). The 6- and
8-card blocks are the first ten of ``suite_paranoid.txt``'s, so the two
solvers can be compared position by position. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console

from solver import Position
from solver.maxn import MaxnTable, maxn_table_megabytes, solve_maxn
from solver.threads import DEFAULT_THREADS

from . import solver as paranoid

HERE = Path(__file__).resolve().parent
SUITE = HERE / "suite_maxn.txt"
RESULTS = HERE / "results" / "maxn.json"
# cards per hand -> positions in the suite
SUITE_SIZES = {6: 10, 7: 10, 8: 10, 9: 10}
QUICK_POSITIONS = 3
QUICK_SIZES = (6, 7, 8)
QUICK_CAP = 10.0
TITLE = "Max^n: equilibrium and every card's result, fresh table per position"
# Targets (warm, this suite, the 2-core development machine): cards -> (statistic, seconds).
TARGETS = {6: ("max", 0.05), 8: ("median", 0.3), 9: ("median", 1.5)}
# Solved untimed after the compile warm-up: the first searches of some size after a compile
# in this process run slower (~0.1 s), which would land on the first timed position.
_WARM_POSITIONS = (Position.random(1, 5, 0), Position.random(1, 6, 0))


def make_suite() -> str:
    """The suite file's text; ``--make-suite`` wrote it once and it stays committed."""
    return paranoid.suite_text(
        "the max^n solver (benchmarks/maxn.py)", "benchmarks.maxn", SUITE_SIZES
    )


def run_position(position: Position, cap: float, threads: int = DEFAULT_THREADS) -> dict:
    """The equilibrium and every card's result for the mover, fresh table, ``cap`` seconds."""
    result = solve_maxn(
        position,
        time_limit=cap,
        card_results=True,
        line=False,
        table=MaxnTable(maxn_table_megabytes(position.cards_per_hand)),
        threads=threads,
    )
    return {
        "position": str(position),
        "cards": position.cards_per_hand,
        "equilibrium": result.equilibrium,
        "card_results": {str(card): v for card, v in result.card_results.items()},
        "exact": result.exact,
        "nodes": result.nodes,
        "seconds": round(result.seconds, 6),
    }


def targets(report: dict) -> list[dict]:
    """Each target of ``TARGETS`` whose size was run: the figure, the limit, met or not."""
    out = []
    for cards, (stat, limit) in TARGETS.items():
        size = report["sizes"].get(str(cards))
        if size is not None:
            seconds = size["seconds"][stat]
            out.append(
                {
                    "cards": cards,
                    "statistic": stat,
                    "limit": limit,
                    "seconds": seconds,
                    "met": seconds < limit and not size["unfinished"],
                }
            )
    return out


def targets_line(report: dict) -> str:
    words = {"max": "every position", "median": "median"}
    parts = [
        f"{t['cards']} cards {words[t['statistic']]} under {t['limit']:g} s: "
        f"{t['seconds']:.3f} s, {'met' if t['met'] else 'NOT met'}"
        for t in report["targets"]
    ]
    return "Targets (warm): " + ("; ".join(parts) if parts else "none among these sizes")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.maxn",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--sizes",
        help="cards per hand to run, e.g. 6,8 (default: all: "
        + ",".join(map(str, SUITE_SIZES))
        + "; with --quick: "
        + ",".join(map(str, QUICK_SIZES))
        + ")",
    )
    parser.add_argument(
        "--time-cap",
        type=float,
        default=30.0,
        metavar="SEC",
        help="seconds allowed per position (default 30)",
    )
    parser.add_argument(
        "--positions",
        type=int,
        metavar="N",
        help="only the first N positions of each size (default: all of them; "
        f"with --quick: {QUICK_POSITIONS})",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"{QUICK_POSITIONS} positions per size, a cap of {QUICK_CAP:g} s, "
        "no cold-compile measurement",
    )
    paranoid.add_common_options(parser, RESULTS)
    args = parser.parse_args(argv)
    args.sizes = paranoid.parse_sizes(
        parser, args.sizes, SUITE_SIZES, QUICK_SIZES if args.quick else SUITE_SIZES
    )
    if args.positions is not None and args.positions < 1:
        parser.error(f"--positions {args.positions}: give at least 1")
    if args.positions is None and args.quick:
        args.positions = QUICK_POSITIONS
    if args.quick:
        args.time_cap = min(args.time_cap, QUICK_CAP)
    return args


def main(argv: list[str] | None = None) -> dict | None:
    """Run the benchmark; returns the report that was saved."""
    args = parse_args(argv)
    if args.make_suite:
        SUITE.write_text(make_suite())
        print(f"wrote {SUITE}")
        return None
    console = Console()
    compile = paranoid.compile_times(args.quick)
    for position in _WARM_POSITIONS:
        run_position(position, args.time_cap, args.threads)

    suite = paranoid.held_out_suite(SUITE_SIZES) if args.held_out else paranoid.read_suite(SUITE)
    records = []
    for cards in args.sizes:
        positions = suite[cards][: args.positions]
        records += paranoid.run_all(
            lambda p: run_position(p, args.time_cap, args.threads),
            positions,
            f"{cards} cards",
            console,
        )
    options = {
        "sizes": args.sizes,
        "quick": args.quick,
        "positions": args.positions,
        "time_cap": args.time_cap,
        "threads": args.threads,
        "held_out": args.held_out,
    }
    report = paranoid.make_report(options, compile, args.sizes, records)
    report["targets"] = targets(report)
    caps = (
        f"{args.threads} search threads; cap {args.time_cap:g} s per position, fresh "
        "table per position (maxn_table_megabytes)"
    )
    paranoid.save_and_show(
        report,
        paranoid.output_path(args, RESULTS),
        console,
        paranoid.summary_table(report, TITLE),
        None,
    )
    console.print(targets_line(report))
    if args.markdown:
        print(paranoid.markdown(report, caps) + "\n\n" + targets_line(report) + ".")
    return report


if __name__ == "__main__":
    main()
