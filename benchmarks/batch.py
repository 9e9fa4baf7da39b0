"""Batch solving benchmark: how ``coins batch`` scales with workers, and a 10,000-position run.

``python -m benchmarks.batch`` measures, with ``analysis.batch.run_batch``
exactly as ``coins batch`` calls it (values only, mode ``both``):

- scaling: the same batch of random 8-card endings on 1 worker (in this
  process) and on 2 worker processes; target: 2 workers at least 1.7x as
  fast as 1. The worker processes are started (and their kernels loaded
  from Numba's cache) by a small untimed batch first; that start-up is
  reported apart.
- volume: 10,000 random 6-card endings on all cores; target: under 5 minutes.

Compile time is measured apart (the first solve in this process). Results go
to ``results/batch.json`` and are printed. ``--quick`` runs a few positions
of each (for the test suite), saved to ``results/batch_quick.json.tmp``; see
benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from analysis.batch import BatchOptions, default_workers, random_lines, run_batch
from solver.compiled import warm_up

from .solver import quick_path
from .strength import save_report

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "batch.json"
MODE = "both"
SCALING = {"cards": 8, "positions": 60, "seed": 8, "workers": (1, 2), "chunk": 1}
VOLUME = {"cards": 6, "positions": 10_000, "seed": 6}
QUICK = {"scaling_positions": 4, "volume_positions": 40}
TARGET_SPEEDUP = 1.7
TARGET_VOLUME_SECONDS = 300.0


def timed_batch(items, workers, chunk=None) -> dict:
    """Run ``items`` into a scratch file on ``workers``; the summary and the wall time."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "out.jsonl"
        start = time.perf_counter()
        summary = run_batch(items, out, BatchOptions(MODE), workers=workers, chunk=chunk)
        seconds = time.perf_counter() - start
        lines = len(out.read_text().splitlines())
    assert lines == len(items) and summary.errors == 0, (lines, summary)
    return {
        "workers": workers,
        "positions": len(items),
        "seconds": round(seconds, 3),
        "positions_per_second": round(len(items) / seconds, 1),
        "nodes": summary.nodes,
        "cut_short": summary.cut_short,
    }


def start_workers(workers: int) -> float:
    """Start the worker processes (joblib keeps them for the next batch); the seconds it took."""
    start = time.perf_counter()
    timed_batch(random_lines(workers * 2, 3, seed=1), workers, chunk=1)
    return round(time.perf_counter() - start, 3)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.batch", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a few positions of each")
    parser.add_argument(
        "--output",
        type=Path,
        help=f"the JSON file to write (default "
        f"{RESULTS.relative_to(HERE.parent)}; with --quick "
        f"{quick_path(RESULTS).relative_to(HERE.parent)})",
    )
    args = parser.parse_args(argv)
    if args.output is None:
        args.output = quick_path(RESULTS) if args.quick else RESULTS
    scaling_n = QUICK["scaling_positions"] if args.quick else SCALING["positions"]
    volume_n = QUICK["volume_positions"] if args.quick else VOLUME["positions"]

    report: dict = {"mode": MODE, "cpus": os.cpu_count(), "compile_seconds": round(warm_up(), 3)}
    items = random_lines(scaling_n, SCALING["cards"], SCALING["seed"])
    runs = {}
    for workers in SCALING["workers"]:
        startup = start_workers(workers) if workers > 1 else 0.0
        runs[workers] = timed_batch(items, workers, SCALING["chunk"]) | {"startup_seconds": startup}
    speedup = runs[1]["seconds"] / runs[2]["seconds"]
    report["scaling"] = {
        "cards": SCALING["cards"],
        "positions": scaling_n,
        "seed": SCALING["seed"],
        "runs": list(runs.values()),
        "speedup": round(speedup, 2),
        "target": TARGET_SPEEDUP,
        "met": speedup >= TARGET_SPEEDUP,
    }
    workers = default_workers()
    if workers > 1:
        start_workers(workers)
    volume = timed_batch(random_lines(volume_n, VOLUME["cards"], VOLUME["seed"]), workers)
    report["volume"] = {
        "cards": VOLUME["cards"],
        "seed": VOLUME["seed"],
        **volume,
        "target_seconds": TARGET_VOLUME_SECONDS,
        "met": volume["seconds"] < TARGET_VOLUME_SECONDS,
    }
    save_report(args.output, report)
    print_report(report)
    return report


def print_report(report: dict) -> None:
    print(
        f"batch benchmark, mode {report['mode']}, {report['cpus']} cpus; "
        f"compile {report['compile_seconds']} s"
    )
    scaling = report["scaling"]
    print(f"scaling: {scaling['positions']} random {scaling['cards']}-card endings")
    for run in scaling["runs"]:
        print(
            f"  {run['workers']} worker(s): {run['seconds']} s, "
            f"{run['positions_per_second']} positions/s, {run['nodes']:,} nodes "
            f"(worker start-up {run['startup_seconds']} s, untimed)"
        )
    print(
        f"  speedup {scaling['speedup']}x (target {scaling['target']}x: "
        f"{'met' if scaling['met'] else 'NOT met'})"
    )
    volume = report["volume"]
    print(
        f"volume: {volume['positions']:,} random {volume['cards']}-card endings on "
        f"{volume['workers']} workers: {volume['seconds']} s, "
        f"{volume['positions_per_second']} positions/s, {volume['nodes']:,} nodes "
        f"(target under {volume['target_seconds']:.0f} s: "
        f"{'met' if volume['met'] else 'NOT met'})"
    )


if __name__ == "__main__":
    main()
