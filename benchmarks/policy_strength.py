"""Strength and speed of the ``policy`` bot (the card policy learned by self-play).

``python -m benchmarks.policy_strength`` plays ``--deals`` duplicate deals
(each once per rotation of the bots round the table,
``analysis.arena.duplicate``) of ``policy greedy greedy`` and of ``policy
random random``, and prints the policy's points a hand minus the mean of
the other two bots', deal by deal, with a 95% interval, and its time a move
(after one move to load the weights and the compiled kernels, timed apart).
Results go to ``results/policy.json`` with the commit and the command.

The deals come from ``--seed`` through ``duplicate``'s own generator (Python's
``random``); the training script deals with the kernels' LCG from seeds of its
own, so none of these deals was trained or chosen on.

The target: ``policy`` ahead of ``greedy`` by at least 1.0 point a hand.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from analysis.arena import duplicate, mean_and_half_width
from analysis.bots import policy_bot
from solver import Position

from .strength import run_header, save_report

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "policy.json"
LINEUPS = (("policy", "greedy", "greedy"), ("policy", "random", "random"))
TARGET = 1.0  # points a hand ahead of greedy


def ahead(result) -> dict:
    """The first bot's points a hand minus the mean of the other two's, deal by deal."""
    a, b, c = result.per_deal
    mean, half = mean_and_half_width([x - (y + z) / 2 for x, y, z in zip(a, b, c)])
    return {"mean": round(mean, 4), "ci95": [round(mean - half, 4), round(mean + half, 4)]}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.policy_strength", description=__doc__.partition("\n\n")[0]
    )
    parser.add_argument("--deals", type=int, default=300, help="duplicate deals per line-up")
    parser.add_argument("--seed", type=int, default=59)
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    position = Position.random(random.Random(0))
    policy_bot(position, position.to_move, random.Random(0))
    report = {
        **run_header(),
        "command": "python -m benchmarks.policy_strength "
        + " ".join(sys.argv[1:] if argv is None else argv),
        "first_move_seconds": round(time.perf_counter() - start, 3),
        "target": TARGET,
        "lineups": [],
    }
    for lineup in LINEUPS:
        result = duplicate(list(lineup), args.deals, args.seed)
        row = {"match": result.to_json(), "policy_ahead": ahead(result)}
        report["lineups"].append(row)
        policy = result.scores[0]
        low, high = row["policy_ahead"]["ci95"]
        print(
            f"{' '.join(lineup)}: policy {policy.mean:.2f} a hand, ahead of {lineup[1]} by "
            f"{row['policy_ahead']['mean']:+.2f} (95% {low:+.2f} to {high:+.2f}), "
            f"{1000 * policy.seconds_per_move:.2f} ms a move ({result.hands} hands, "
            f"{result.seconds:.0f} s)",
            flush=True,
        )
    save_report(args.output, report)
    return report


if __name__ == "__main__":
    main()
