"""Time limits kept on a busy machine: every time-limited call beside busy processes.

``python -m benchmarks.time_limits`` starts ``--busy`` processes that spin
on the CPU (as a user's other work would), then times each time-limited
call of the toolkit on positions where the limit binds: ``estimate``,
``hint``, ``solve`` (both modes), ``analyze``, ``review``,
``decision_graph`` and a ``pimc`` bot's move. For each it reports the worst
overshoot (seconds past the limit) and whether every run kept the promise:
at most 10% of the limit plus 0.1 s. Results go to
``results/time_limits.json`` (``--quick``: one position a call, saved beside
it as a ``.tmp`` file that git ignores).
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path

from analysis import analyze, decision_graph, estimate, hint, review
from analysis.bots import PimcBot, greedy_bot
from solver import Hand, Position, Record, solve
from solver.compiled import ensure_compiled
from solver.maxn import solve_maxn

from .strength import _commit, save_report

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "time_limits.json"
QUICK_RESULTS = HERE / "results" / "time_limits.quick.tmp"
SPIN = "while True: pass"


def allowed(limit: float) -> float:
    """The promise: at most 10% of the limit plus 0.1 s past it."""
    return 0.1 * limit + 0.1


def calls(seed: int) -> dict:
    """name -> (limit, function of a position index) for every time-limited call."""

    def deal(i, cards=16):
        return Position.random(seed * 100 + i, cards)

    def record(i):
        return Hand([greedy_bot] * 3, seed=seed * 100 + i).play().record

    def early(i):
        """A hand played by greedy bots cut after 0-4 tricks."""
        full = record(i)
        return Record(full.hands, full.leader, full.trick, full.taken, full.moves[: 3 * (i % 5)])

    def view(i):
        cut = early(i)
        return cut.view(cut.to_move)

    def pimc_move(i):
        cut = early(i)
        PimcBot(10_000, 1.0).choose_record(cut, cut.to_move, random.Random(i))

    return {
        "estimate 10 cards": (1.0, lambda i: estimate(deal(i, 10), 1.0)),
        "estimate 16 cards": (1.0, lambda i: estimate(deal(i), 1.0)),
        "hint": (1.0, lambda i: hint(view(i), 10_000, 1.0, seed=i)),
        "solve paranoid": (1.0, lambda i: solve(deal(i), time_limit=1.0)),
        "solve max^n": (1.0, lambda i: solve_maxn(deal(i, 11), time_limit=1.0)),
        "analyze": (3.0, lambda i: analyze(deal(i, 10), time_limit=3.0)),
        "review": (5.0, lambda i: review(record(i), time_limit=5.0, seat=i % 3)),
        "graph": (
            1.0,
            lambda i: decision_graph(deal(i, 12), 2, max_positions=100_000, time_limit=1.0),
        ),
        "pimc move": (1.0, pimc_move),
    }


def measure(runs: int, seed: int, busy: int) -> list[dict]:
    spinners = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(busy)]
    try:
        rows = []
        for name, (limit, call) in calls(seed).items():
            seconds = []
            for i in range(runs):
                start = time.perf_counter()
                call(i)
                seconds.append(time.perf_counter() - start)
            worst = max(seconds) - limit
            rows.append(
                {
                    "call": name,
                    "limit": limit,
                    "runs": runs,
                    "seconds": [round(x, 3) for x in seconds],
                    "worst_s": round(max(seconds), 3),
                    "worst_overshoot_s": round(worst, 3),
                    "kept": worst <= allowed(limit),
                }
            )
            print(
                f"{name}: limit {limit:g} s, worst {max(seconds):.3f} s "
                f"({'kept' if rows[-1]['kept'] else 'BROKEN'})",
                flush=True,
            )
        return rows
    finally:
        for spinner in spinners:
            spinner.kill()


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.time_limits",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--runs", type=int, default=8, help="positions a call (default 8)")
    parser.add_argument("--busy", type=int, default=2, help="spinning processes (default 2)")
    parser.add_argument("--seed", type=int, default=57)
    parser.add_argument("--quick", action="store_true", help="one position a call")
    parser.add_argument("--output", type=Path)
    args = parser.parse_args(argv)
    if args.quick:
        args.runs = 1
    ensure_compiled()  # before the clock: compiling is not the calls' time
    rows = measure(args.runs, args.seed, args.busy)
    report = {
        "commit": _commit(),
        "busy": args.busy,
        "calls": rows,
        "all_kept": all(row["kept"] for row in rows),
    }
    output = args.output or (QUICK_RESULTS if args.quick else RESULTS)
    save_report(output, report)
    worst = max(rows, key=lambda row: row["worst_overshoot_s"] / row["limit"])
    print(
        f"worst overshoot: {worst['call']}, {worst['worst_overshoot_s']:+.3f} s past "
        f"{worst['limit']:g} s; every limit kept: {report['all_kept']}"
    )
    return report


if __name__ == "__main__":
    main()
