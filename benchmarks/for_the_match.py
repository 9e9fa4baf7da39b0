"""Playing for the match against playing for points: pimc against pimc-points.

``python -m benchmarks.for_the_match`` plays duplicate matches to 15
(``analysis.arena.matches``: every match seed once per rotation of the bots,
so each bot sits each seat and each start score) between ``pimc`` (which plays
for the match), ``pimc-points`` (the same bot and budget, playing for
points) and ``greedy``, from three kinds of start: 13,10,7 (the end of a
match), 0,0,0 (a whole match) and scores drawn between 8 and 14 for each
seed. The pimc bots get a fixed number of sampled deals a decision and no
time limit, so a run depends only on its seeds. For each kind it prints
each bot's share of matches won and the difference pimc minus pimc-points,
with 95% intervals over the match seeds (the difference is paired: both
bots play every seed's matches), and saves them to
``results/for_the_match.json``.

It also times the exact match-aware solver (``solver.solve_match``, every
card's chances, no line) on random endings of ``--exact-sizes`` cards a hand
with random scores to 15, compiled first: median and max seconds and nodes.

The figure it is judged by: from 13,10,7, pimc should win at least 5 percentage
points more matches than pimc-points.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from analysis.arena import interval, matches, mean_and_half_width
from solver import Position, solve_match
from solver.compiled import ensure_compiled

from .strength import run_header, save_report

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "for_the_match.json"
LINEUP = ("pimc", "pimc-points", "greedy")
TARGET = 15
GOAL = 0.05  # pimc ahead of pimc-points from 13,10,7 by at least this share of matches


def drawn_scores(rng: random.Random) -> list[int]:
    """Start scores for one match seed: each seat's between 8 and 14."""
    return [rng.randint(8, 14) for _ in range(3)]


STARTS = {"13,10,7": (13, 10, 7), "0,0,0": (0, 0, 0), "8-14": drawn_scores}


def play(start: str, seeds: int, seed: int, options: dict) -> dict:
    """The matches of one kind of start and what they show."""
    result = matches(list(LINEUP), seeds, TARGET, seed, options=options, start_scores=STARTS[start])
    # the three matches of each seed are consecutive in ``played``
    won = [[0, 0, 0] for _ in range(seeds)]
    for i, (seating, match) in enumerate(result.played):
        won[i // 3][seating[match.winner]] += 1
    lead, half = mean_and_half_width([(w[0] - w[1]) / 3 for w in won])
    return {
        "start": start,
        "seeds": seeds,
        "matches": result.matches,
        "hands": result.hands,
        "seconds": round(result.seconds, 1),
        "bots": [score.to_json() for score in result.scores],
        "pimc_minus_points": round(lead, 4),
        "pimc_minus_points_ci95": [round(x, 4) for x in interval(lead, half) or (lead, lead)],
    }


def time_exact(sizes, count: int = 8, seed: int = 48) -> dict:
    """Seconds and nodes of ``solve_match`` (every card, no line) on ``count``
    random endings of each size, seat 0 leading, random scores below 15."""
    ensure_compiled()
    rng = random.Random(seed)
    out = {}
    for cards in sizes:
        seconds, nodes = [], []
        for _ in range(count):
            position = Position.random(rng, cards, 0)
            scores = tuple(rng.randrange(TARGET) for _ in range(3))
            start = time.perf_counter()
            result = solve_match(position, TARGET, scores, line=False)
            seconds.append(time.perf_counter() - start)
            nodes.append(result.nodes)
        out[str(cards)] = {
            "endings": count,
            "median_s": round(statistics.median(seconds), 4),
            "max_s": round(max(seconds), 4),
            "median_nodes": statistics.median(nodes),
            "max_nodes": max(nodes),
        }
    return out


def table(rows: list[dict]) -> str:
    """The results as a Markdown table."""
    lines = [
        "| start | seeds x 3 | pimc won | pimc-points won | greedy won | pimc - pimc-points "
        "| s/move pimc, pimc-points |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        shares = []
        for bot in row["bots"]:
            ci = bot["won_share_ci95"]
            shares.append(
                f"{100 * bot['won_share']:.1f}%"
                + (f" ({100 * ci[0]:.1f}-{100 * ci[1]:.1f})" if ci else "")
            )
        low, high = row["pimc_minus_points_ci95"]
        lead = f"{100 * row['pimc_minus_points']:+.1f} pp ({100 * low:+.1f} to {100 * high:+.1f})"
        speed = ", ".join(f"{bot['seconds_per_move']:.3f}" for bot in row["bots"][:2])
        lines.append(
            f"| {row['start']} | {row['seeds']} | {' | '.join(shares)} | {lead} | {speed} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.for_the_match",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--seeds",
        type=int,
        nargs=3,
        default=[300, 60, 150],
        metavar=("LATE", "WHOLE", "DRAWN"),
        help="match seeds from 13,10,7, from 0,0,0 and from drawn scores",
    )
    parser.add_argument("--samples", type=int, default=16, help="deals a pimc decision samples")
    parser.add_argument(
        "--exact-sizes",
        type=int,
        nargs="*",
        default=[5, 6, 7],
        help="cards a hand of the endings the exact solver is timed on",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    options = {"samples": args.samples, "time_limit": 0}
    report = {
        **run_header(),
        "target": TARGET,
        "pimc": options,
        "seed": args.seed,
        "runs": [],
        "exact": time_exact(args.exact_sizes),
    }
    for cards, row in report["exact"].items():
        print(
            f"solve_match, {cards} cards a hand: median {row['median_s']:.3f} s, max "
            f"{row['max_s']:.3f} s, median {row['median_nodes']:,.0f} nodes",
            flush=True,
        )
    for start, seeds in zip(STARTS, args.seeds):
        report["runs"].append(play(start, seeds, args.seed, options))
        print(f"from {start}: {report['runs'][-1]['seconds']} s", flush=True)
    late = report["runs"][0]
    report["goal_met"] = late["pimc_minus_points"] >= GOAL
    print(table(report["runs"]))
    print(
        f"target: pimc ahead of pimc-points from 13,10,7 by {100 * GOAL:.0f} percentage points: "
        f"{'met' if report['goal_met'] else 'not met'} "
        f"({100 * late['pimc_minus_points']:+.1f} pp)"
    )
    save_report(args.output, report)
    return report


if __name__ == "__main__":
    main()
