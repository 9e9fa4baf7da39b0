"""Strength and speed of the hidden-hand bots: duplicate hands and hint timings.

``python -m benchmarks.strength`` plays ``--deals`` duplicate deals (each once
per rotation of the bots round the table, ``analysis.arena.duplicate``) for
two line-ups, ``pimc greedy random`` and ``pimc greedy greedy``, and times
``hint`` with its default budget on views at several hand sizes (the mover's
view of hands played by the greedy bot, cut at the start of a trick or a card
or two into it), and the first two sizes again on one thread and on two,
interleaved view by view. It prints the results and saves them to
``results/strength.json``.

The figures it is judged by (on a 2-core machine): a default hint under 1 s at any
point of a hand; ``pimc`` ahead of ``greedy`` by at least 1.0 point per hand
and of ``random`` by at least 3, with 95% intervals narrower than +-0.3.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import time
from datetime import datetime, timezone
from pathlib import Path

from analysis.arena import duplicate
from analysis.bots import PIMC_SAMPLES, PIMC_TIME_LIMIT, greedy_bot
from analysis.hint import DEFAULT_SAMPLER, hint
from solver import Record
from solver.match import Hand

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "strength.json"
LINEUPS = (("pimc", "greedy", "random"), ("pimc", "greedy", "greedy"))
HINT_SIZES = (16, 13, 10, 8, 7, 6, 4, 2)
HINT_VIEWS = 10


def hint_views(cards: int, n: int) -> list[Record]:
    """``n`` views of the mover with ``cards`` cards a hand (greedy play, fixed seeds)."""
    views = []
    for seed in range(n):
        full = Hand([greedy_bot] * 3, seed=seed).play().record
        cut = 3 * (16 - cards) + seed % 3
        record = Record(full.hands, full.leader, full.trick, full.taken, full.moves[:cut])
        views.append(record.view(record.to_move))
    return views


def time_hints(
    sizes=HINT_SIZES,
    n: int = HINT_VIEWS,
    mode: str = "maxn",
    threads=(2,),
    sampler: str = DEFAULT_SAMPLER,
) -> dict:
    """Median and max seconds of a default hint per hand size, for each number
    of ``threads``: on each view every setting in turn (the order rotating from
    view to view), each on its own seeds, so that none finds the deals of
    another already solved in the shared table."""
    for view in hint_views(16, 1):  # compile, start the threads, touch the table
        hint(view, seed=10**6, mode=mode)
    out = {t: {} for t in threads}
    for cards in sizes:
        seconds = {t: [] for t in threads}
        samples = {t: [] for t in threads}
        for i, view in enumerate(hint_views(cards, n)):
            for t in threads[i % len(threads) :] + threads[: i % len(threads)]:
                start = time.perf_counter()
                result = hint(view, seed=1000 * t + i, mode=mode, threads=t, sampler=sampler)
                seconds[t].append(time.perf_counter() - start)
                samples[t].append(result.samples)
        for t in threads:
            out[t][str(cards)] = {
                "views": n,
                "median_s": round(statistics.median(seconds[t]), 4),
                "max_s": round(max(seconds[t]), 4),
                "min_samples": min(samples[t]),
            }
    return out


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.strength",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--deals", type=int, default=50, help="duplicate deals per line-up")
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--pimc-samples", type=int, default=PIMC_SAMPLES)
    parser.add_argument("--pimc-time-limit", type=float, default=PIMC_TIME_LIMIT)
    parser.add_argument("--hint-views", type=int, default=HINT_VIEWS)
    parser.add_argument("--hint-sizes", type=int, nargs="*", default=list(HINT_SIZES))
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    options = {"samples": args.pimc_samples, "time_limit": args.pimc_time_limit}
    report = {
        **run_header(),
        "pimc": options,
        "sampler": DEFAULT_SAMPLER,
        "hint_seconds": time_hints(args.hint_sizes, args.hint_views)[2],
        "matches": [],
    }
    # the first two sizes on one thread and on two, interleaved: what the second core buys
    both = time_hints(args.hint_sizes[:2], args.hint_views, threads=(2, 1))
    report["hint_seconds_2_threads"], report["hint_seconds_1_thread"] = both[2], both[1]
    for key, threads in (
        ("hint_seconds", 2),
        ("hint_seconds_2_threads", 2),
        ("hint_seconds_1_thread", 1),
    ):
        for cards, row in report[key].items():
            print(
                f"hint, {cards:>2} cards, {threads} thread(s): median {row['median_s']:.3f} s, "
                f"max {row['max_s']:.3f} s, at least {row['min_samples']} samples",
                flush=True,
            )
    for lineup in LINEUPS:
        result = duplicate(list(lineup), args.deals, args.seed, options=options)
        report["matches"].append(result.to_json())
        scores = ", ".join(f"{s.name} {s.mean:.2f} +-{s.half_width:.2f}" for s in result.scores)
        print(
            f"{' '.join(lineup)}: {scores} ({result.hands} hands, {result.seconds:.0f} s)",
            flush=True,
        )
    save_report(args.output, report)
    return report


def save_report(path: Path, report: dict) -> None:
    """Write a benchmark's ``report`` as indented JSON, making its folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=1) + "\n")


def run_header() -> dict:
    """When, at which commit and on which Python a run was made."""
    return {
        "when": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"),
        "commit": _commit(),
        "python": platform.python_version(),
    }


def _commit() -> str | None:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            cwd=HERE,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


if __name__ == "__main__":
    main()
