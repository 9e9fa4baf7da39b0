"""Playing strength of the hint and of ``pimc``, in duplicate hands.

``python -m benchmarks.hint_strength`` plays ``--deals`` duplicate deals
(each once per rotation of the bots, ``analysis.arena.duplicate``) for
line-ups of three bots, the first bot the one measured:

- ``hint``: ``hint()`` with its default settings as a bot (1 s a move), the
  same evaluation with the budget hints had before paired comparisons
  (30 deals, 1 s), and the greedy bot;
- ``match``: ``pimc`` with ``coins match``'s defaults (60 deals, 0.25 s),
  the same with the earlier budget (10 deals, 0.25 s), and greedy;
- ``search``: ``pimc`` beside ``pimc-points`` (deals valued by the learned
  estimate instead of playouts) and greedy;
- ``policy``: ``pimc`` whose playouts play the card policy learned by
  self-play (``--evaluation policy``) beside ``pimc`` (greedy playouts) and
  greedy (not run by default: give ``--lineups policy`` and an ``--output``
  of its own).

Each bot's points per hand come with a 95% interval, and so do the paired
differences deal by deal (the first bot minus each other one), which is
what the comparison rests on. Results go to ``results/hint_strength.json``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console
from rich.table import Table

from analysis.arena import duplicate, mean_and_half_width
from analysis.bots import PIMC_SAMPLES, PIMC_TIME_LIMIT, PimcBot, greedy_bot
from analysis.hint import DEFAULT_SAMPLES, DEFAULT_TIME_LIMIT
from solver.compiled import ensure_compiled

from . import solver as paranoid
from .strength import save_report

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "hint_strength.json"
# the hint and pimc budgets before paired comparisons
EARLIER_HINT = {"samples": 30, "time_limit": 1.0}
EARLIER_PIMC = {"samples": 10, "time_limit": 0.25}
TARGETS = {"earlier": 0.5, "greedy": 2.5}  # points a hand the first bot should gain


def lineups() -> dict:
    return {
        "hint": (
            ("hint", "hint, earlier budget", "greedy"),
            (PimcBot(DEFAULT_SAMPLES, DEFAULT_TIME_LIMIT), PimcBot(**EARLIER_HINT), greedy_bot),
        ),
        "match": (
            ("pimc", "pimc, earlier budget", "greedy"),
            (PimcBot(PIMC_SAMPLES, PIMC_TIME_LIMIT), PimcBot(**EARLIER_PIMC), greedy_bot),
        ),
        "search": (
            ("pimc", "pimc-points", "greedy"),
            (
                PimcBot(PIMC_SAMPLES, PIMC_TIME_LIMIT),
                PimcBot(PIMC_SAMPLES, PIMC_TIME_LIMIT, evaluation="search"),
                greedy_bot,
            ),
        ),
        "policy": (
            ("pimc, policy playouts", "pimc", "greedy"),
            (
                PimcBot(PIMC_SAMPLES, PIMC_TIME_LIMIT, evaluation="policy"),
                PimcBot(PIMC_SAMPLES, PIMC_TIME_LIMIT),
                greedy_bot,
            ),
        ),
    }


def paired(result, a: int, b: int) -> dict:
    mean, half = mean_and_half_width(
        [x - y for x, y in zip(result.per_deal[a], result.per_deal[b])]
    )
    return {"mean": round(mean, 4), "ci95": [round(mean - half, 4), round(mean + half, 4)]}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.hint_strength", description=__doc__.partition("\n\n")[0]
    )
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--seed", type=int, default=46)
    parser.add_argument(
        "--lineups",
        default="hint,match,search",
        help="comma-separated, of hint, match, search, policy (default the first three)",
    )
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    console = Console()
    ensure_compiled()
    report = {"machine": paranoid.machine(), "deals": args.deals, "seed": args.seed, "lineups": {}}
    for name in args.lineups.split(","):
        labels, players = lineups()[name]
        result = duplicate(labels, args.deals, args.seed, players=players)
        row = result.to_json() | {
            "first_minus_second": paired(result, 0, 1),
            "first_minus_greedy": paired(result, 0, 2),
        }
        row["met"] = (
            row["first_minus_second"]["mean"] >= TARGETS["earlier"]
            and row["first_minus_greedy"]["mean"] >= TARGETS["greedy"]
        )
        report["lineups"][name] = row
        table = Table(title=f"{name}: {args.deals} deals x 3 seatings")
        for heading in ("bot", "points a hand", "95% interval", "s a move"):
            table.add_column(heading)
        for score in row["scores"]:
            table.add_row(
                score["bot"],
                f"{score['mean']:.2f}",
                f"{score['ci95'][0]:.2f} .. {score['ci95'][1]:.2f}",
                f"{score['seconds_per_move']:.3f}",
            )
        console.print(table)
        for key in ("first_minus_second", "first_minus_greedy"):
            d = row[key]
            console.print(
                f"  {key.replace('_', ' ')}: {d['mean']:+.2f} "
                f"({d['ci95'][0]:+.2f} .. {d['ci95'][1]:+.2f})"
            )
        save_report(args.output, report)
    console.print(f"saved {args.output}")
    return report


if __name__ == "__main__":
    main()
