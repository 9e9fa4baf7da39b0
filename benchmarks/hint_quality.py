"""Quality of the hint's choices: the early evaluation and the deal sampler.

``python -m benchmarks.hint_quality`` measures three things and saves them to
``results/hint_quality.json``:

- ``evaluation``: how well one sampled deal is valued before the exact
  horizon. On views with ``--eval-cards`` cards a hand (hands played by the
  greedy bot), each of a few deals is valued by every evaluator (greedy
  rollouts to the end of the hand, the old placeholder; or one greedy
  playout to ``horizon`` cards a hand and then an exact max^n solve) and by
  the exact max^n card values of that deal; reported: how often the
  evaluator's best card is an exact best card, the mean regret (exact points
  lost by its card). ``evaluation_seconds``: the median time of a whole
  hint (30 samples, no time limit) with each evaluator on views at 16 cards
  a hand (each evaluator its own seeds, so no table entries are shared).
- ``agreement``: how often the hint's best card (``--samples`` deals, no time
  limit) is an open-hand best card of the true deal, per sampler, on views
  late in hands played by greedy, random and pimc bots (max^n, exact truth).
- ``match``: duplicate hands of pimc-uniform, pimc-weighted and a third bot,
  greedy then random (``analysis.arena.duplicate``), pimc at
  ``--pimc-samples`` deals and no time limit (so the run is reproducible
  whatever the load), with the paired difference of the two pimcs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from analysis.arena import duplicate, mean_and_half_width
from analysis.bots import PIMC_SAMPLES, PimcBot, greedy_bot, random_bot
from analysis.hint import hint
from solver import Record
from solver.match import Hand
from solver.maxn import solve_maxn
from solver.sampling import ViewSampler

from .strength import _commit, save_report

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "hint_quality.json"
# the samplers compared: uniform deals against the greedy model's weights, the
# playouts greedy in both (the opponent model is measured by the gauntlet)
COMPARED = ("uniform", "weighted")
# (label, horizon, rollouts, epsilon); horizon 0: rollouts to the end of the hand
EVALUATORS = (
    ("rollouts x8 to the end", 0, 8, 0.1),
    ("greedy to 3, exact", 3, 1, 0.1),
    ("greedy to 4, exact", 4, 1, 0.1),
    ("greedy to 5, exact", 5, 1, 0.1),
    ("greedy to 5 x3, exact", 5, 3, 0.1),
    ("greedy to 6, exact", 6, 1, 0.1),
)


def cut_views(players, cards: int, n: int, seed: int) -> list[Record]:
    """``n`` full records of hands played by ``players``, cut with ``cards`` cards
    a hand left (a card or two into the trick now and then)."""
    records = []
    for i in range(n):
        full = Hand(players, seed=seed * 1000 + i).play().record
        cut = 3 * (16 - cards) + i % 3
        records.append(Record(full.hands, full.leader, full.trick, full.taken, full.moves[:cut]))
    return records


def measure_evaluation(cards: int, views: int, deals: int) -> list[dict]:
    rows = {label: {"evaluator": label, "hits": 0, "regret": 0.0} for label, *_ in EVALUATORS}
    total = 0
    for i, record in enumerate(cut_views([greedy_bot] * 3, cards, views, seed=1)):
        sampler = ViewSampler(record.view(record.to_move))
        rng = random.Random(i)
        for _ in range(deals):
            position = sampler.sample(rng).position
            mover = position.to_move
            exact = {c: r[mover] for c, r in solve_maxn(position, line=False).card_results.items()}
            top = max(exact.values())
            total += 1
            for label, horizon, rollouts, epsilon in EVALUATORS:
                chosen = hint(
                    None,
                    deals=[position],
                    exact_cards=0,
                    horizon=horizon,
                    rollouts=rollouts,
                    epsilon=epsilon,
                    seed=i,
                ).best.card
                row = rows[label]
                row["hits"] += exact[chosen] == top
                row["regret"] += top - exact[chosen]
    out = []
    for row in rows.values():
        out.append(
            {
                "evaluator": row["evaluator"],
                "deals": total,
                "best_rate": round(row["hits"] / total, 4),
                "mean_regret": round(row["regret"] / total, 4),
            }
        )
    return out


def time_evaluators(cards: int, views: int) -> list[dict]:
    records = cut_views([greedy_bot] * 3, cards, views, seed=1)
    hint(None, deals=[records[0].final], exact_cards=0)  # compile / warm up
    out = []
    for k, (label, horizon, rollouts, epsilon) in enumerate(EVALUATORS):
        seconds = []
        for i, record in enumerate(records):
            start = time.perf_counter()
            hint(
                record.view(record.to_move),
                30,
                0,
                seed=1000 * k + i,
                horizon=horizon,
                rollouts=rollouts,
                epsilon=epsilon,
            )
            seconds.append(time.perf_counter() - start)
        out.append(
            {
                "evaluator": label,
                "cards": cards,
                "views": len(records),
                "median_s": round(statistics.median(seconds), 4),
                "max_s": round(max(seconds), 4),
            }
        )
    return out


def measure_agreement(sizes, views: int, samples: int, pimc_samples: int) -> list[dict]:
    lineups = {
        "greedy": [greedy_bot] * 3,
        "random": [random_bot] * 3,
        "pimc": [PimcBot(pimc_samples, 0)] * 3,
    }
    out = []
    for who, players in lineups.items():
        for cards in sizes:
            records = cut_views(players, cards, views, seed=2)
            hits = {s: 0 for s in COMPARED}
            for i, record in enumerate(records):
                truth = solve_maxn(record.final, line=False).card_results
                mover = record.to_move
                top = max(r[mover] for r in truth.values())
                for sampler in COMPARED:
                    best = hint(
                        record.view(mover), samples, 0, seed=i, sampler=sampler, opponents="greedy"
                    ).best.card
                    hits[sampler] += truth[best][mover] == top
            out.append(
                {
                    "played_by": who,
                    "cards": cards,
                    "views": len(records),
                    **{s: round(hits[s] / len(records), 4) for s in COMPARED},
                }
            )
    return out


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.hint_quality",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--eval-cards", type=int, default=8)
    parser.add_argument("--eval-views", type=int, default=10)
    parser.add_argument("--eval-deals", type=int, default=4)
    parser.add_argument("--time-views", type=int, default=5)
    parser.add_argument("--agree-sizes", type=int, nargs="*", default=[8, 6, 4])
    parser.add_argument("--agree-views", type=int, default=30)
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--deals", type=int, default=40, help="duplicate deals (0: no match)")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--pimc-samples", type=int, default=PIMC_SAMPLES)
    parser.add_argument("--parts", nargs="*", default=["evaluation", "agreement", "match"])
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    report = {"commit": _commit()}
    if "evaluation" in args.parts:
        report["evaluation"] = measure_evaluation(args.eval_cards, args.eval_views, args.eval_deals)
        for row in report["evaluation"]:
            print(
                f"{args.eval_cards} cards, {row['evaluator']}: best card {row['best_rate']:.0%} "
                f"of {row['deals']} deals, regret {row['mean_regret']:.3f}",
                flush=True,
            )
        report["evaluation_seconds"] = time_evaluators(16, args.time_views)
        for row in report["evaluation_seconds"]:
            print(
                f"hint at 16 cards, {row['evaluator']}: median {row['median_s']:.3f} s, "
                f"max {row['max_s']:.3f} s",
                flush=True,
            )
    if "agreement" in args.parts:
        report["agreement"] = measure_agreement(
            args.agree_sizes, args.agree_views, args.samples, args.pimc_samples
        )
        for row in report["agreement"]:
            print(
                f"played by {row['played_by']}, {row['cards']} cards: open-hand best card "
                + ", ".join(f"{s} {row[s]:.0%}" for s in COMPARED)
                + f" of {row['views']}",
                flush=True,
            )
    if "match" in args.parts and args.deals:
        report["matches"] = []
        for third, bot in (("greedy", greedy_bot), ("random", random_bot)):
            players = [
                PimcBot(args.pimc_samples, 0, sampler=s, opponents="greedy") for s in COMPARED
            ] + [bot]
            labels = [f"pimc-{s}" for s in COMPARED] + [third]
            result = duplicate(labels, args.deals, args.seed, players=players)
            row = result.to_json()
            diffs = [u - w for u, w in zip(result.per_deal[0], result.per_deal[1])]
            mean, half = mean_and_half_width(diffs)
            row["uniform_minus_weighted"] = [round(mean, 4), round(half, 4)]
            report["matches"].append(row)
            print(
                ", ".join(f"{s.name} {s.mean:.2f} +-{s.half_width:.2f}" for s in result.scores)
                + f" ({result.hands} hands, {result.seconds:.0f} s); pimc-uniform minus "
                f"pimc-weighted: {mean:.2f} +-{half:.2f} points a hand",
                flush=True,
            )
    save_report(args.output, report)
    return report


if __name__ == "__main__":
    main()
