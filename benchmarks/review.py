"""Reviews of whole hands: how long they take, and how far their estimated costs can be trusted.

``python -m benchmarks.review`` measures two things and saves them to
``results/review.json`` (``--quick``: a tiny run, saved beside it as a
``.tmp`` file that git ignores):

- ``timing``: whole hands (48 cards; ``--timing-cards``) played by the
  bots, a line-up of greedy, random and a small pimc rotated over the
  seats, ``--deals`` deals;
  each reviewed with the defaults, one seat with what it knew (``--seat``
  as the review of a player's own hand); the seconds each review took
  (median and worst) and how many of its cards were exact and estimated.
- ``agreement``: hands of ``--cards`` cards a hand played by the same
  line-ups, reviewed with every decision of more than ``--exact-cards``
  cards a hand estimated (the estimate's default time), against the exact
  max^n costs of the same decisions (no limit): how often the mark
  (none, inaccuracy, mistake, blunder) agrees, how often "marked or not"
  agrees, and the mean absolute error of the costs, with 95% intervals, in
  all and by cards a hand. The exact costs are read from ``--truth``
  (``review_truth.jsonl``: every card's exact max^n result of positions
  solved before, which never change), and positions not there are solved
  and added to it, so that a second run takes minutes instead of an hour.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from analysis import review
from analysis.bots import PimcBot, greedy_bot, random_bot
from analysis.reviews import label_of
from solver import Hand, Position
from solver.compiled import ensure_compiled
from solver.threads import DEFAULT_THREADS

from .evaluator import exact_answers, wilson_interval
from .strength import _commit, save_report

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "review.json"
TRUTH = HERE / "review_truth.jsonl"
QUICK_RESULTS = HERE / "results" / "review.quick.tmp"
PIMC_SAMPLES = 20  # the line-up's pimc: a quick player, so that hands are played in seconds


def line_up(index: int) -> list:
    """Greedy, random and pimc, rotated one seat a deal."""
    players = [greedy_bot, random_bot, PimcBot(PIMC_SAMPLES, 0)]
    turn = index % 3
    return players[turn:] + players[:turn]


def played(index: int, seed: int, cards: int) -> str:
    """The record of deal ``index`` played to its end by the line-up."""
    start = None if cards == 16 else Position.random(seed * 1000 + index, cards)
    return str(Hand(line_up(index), seed=seed * 1000 + index, start=start).play().record)


def wilson(hits: int, n: int) -> list[float] | None:
    """The 95% Wilson interval of a share ``hits / n``, to four places."""
    interval = wilson_interval(hits, n)
    return None if interval is None else [round(x, 4) for x in interval]


def measure_timing(deals: int, seed: int, seat: int | None, cards: int) -> dict:
    rows = []
    for index in range(deals):
        record = played(index, seed, cards)
        start = time.perf_counter()
        found = review(record, seat=seat)
        seconds = time.perf_counter() - start
        estimated = sum(m.estimated for m in found.moves)
        rows.append(
            {
                "record": record,
                "seconds": round(seconds, 3),
                "reviewed": len(found.moves),
                "estimated": estimated,
                "missing": len(found.missing),
            }
        )
        print(
            f"deal {index}: {seconds:.1f} s, {len(found.moves)} cards reviewed "
            f"({estimated} estimated), {len(found.missing)} missing",
            flush=True,
        )
    seconds = [row["seconds"] for row in rows]
    return {
        "deals": deals,
        "cards": cards,
        "seat": seat,
        "median_s": round(statistics.median(seconds), 3),
        "worst_s": round(max(seconds), 3),
        "median_estimated": statistics.median(row["estimated"] for row in rows),
        "all_reviewed": all(row["missing"] == 0 for row in rows),
        "hands": rows,
    }


class Truth:
    """Exact max^n card results by position, kept in a JSON-lines file (None: in
    memory only); a position not there is solved with no limit and added."""

    def __init__(self, path: Path | None):
        self.path = path
        self.known: dict[str, dict] = {}
        if path is not None and path.exists():
            for line in path.read_text().splitlines():
                row = json.loads(line)
                self.known[row["position"]] = row["card_results"]

    def card_results(self, position: Position) -> dict[str, list[int]]:
        key = str(position)
        if key not in self.known:
            self.known[key] = exact_answers(position, DEFAULT_THREADS)["card_results"]
            if self.path is not None:
                with self.path.open("a") as file:
                    file.write(
                        json.dumps({"position": key, "card_results": self.known[key]}) + "\n"
                    )
        return self.known[key]


def agreement_figures(decisions: list[dict]) -> dict:
    """How often the marks, and marked-or-not, agree (95% intervals), and the costs' error."""
    n = len(decisions)
    same = sum(d["estimated_label"] == d["exact_label"] for d in decisions)
    marked = sum((d["estimated_label"] is None) == (d["exact_label"] is None) for d in decisions)
    errors = [abs(d["estimated_cost"] - d["exact_cost"]) for d in decisions]
    return {
        "decisions": n,
        "exact_marked": sum(d["exact_label"] is not None for d in decisions),
        "label_agreement": round(same / n, 4) if n else None,
        "label_interval": wilson(same, n),
        "marked_agreement": round(marked / n, 4) if n else None,
        "marked_interval": wilson(marked, n),
        "mean_abs_error": round(statistics.mean(errors), 4) if n else None,
    }


def measure_agreement(hands: int, seed: int, cards: int, exact_cards: int, truth: Truth) -> dict:
    decisions = []
    for index in range(hands):
        found = review(played(index, seed, cards), exact_cards=exact_cards)
        for move in found.moves:
            if not move.estimated:
                continue
            exact = truth.card_results(move.position)
            own = [r[move.seat] for r in exact.values()]
            exact_cost = max(own) - exact[str(move.card)][move.seat]
            decisions.append(
                {
                    "hand": index,
                    "number": move.number,
                    "cards": move.position.cards_per_hand,
                    "estimated_cost": round(move.maxn_cost, 3),
                    "exact_cost": exact_cost,
                    "estimated_label": move.open_label,
                    "exact_label": label_of(exact_cost),
                }
            )
        print(f"hand {index}: {len(decisions)} estimated decisions so far", flush=True)
    sizes = sorted({d["cards"] for d in decisions})
    return (
        {"hands": hands, "cards": cards, "exact_cards": exact_cards}
        | agreement_figures(decisions)
        | {
            "by_cards": {
                str(size): agreement_figures([d for d in decisions if d["cards"] == size])
                for size in sizes
            },
            "rows": decisions,
        }
    )


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.review",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--deals", type=int, default=30, help="whole hands timed (default 30)")
    parser.add_argument(
        "--timing-cards",
        type=int,
        default=16,
        help="cards a hand of the hands timed (default 16: whole hands)",
    )
    parser.add_argument(
        "--seat",
        type=int,
        choices=(0, 1, 2),
        default=0,
        help="the seat reviewed with what it knew (default 0)",
    )
    parser.add_argument(
        "--hands",
        type=int,
        default=90,
        help="hands of --cards cards for the agreement (default 90)",
    )
    parser.add_argument("--cards", type=int, default=10)
    parser.add_argument(
        "--exact-cards",
        type=int,
        default=7,
        help="estimate the decisions of more cards a hand (default 7)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=155,
        help="deals from this seed, hands for the agreement from the next "
        "(default 155; 56 was the set the rules were chosen on)",
    )
    parser.add_argument("--parts", nargs="*", default=["timing", "agreement"])
    parser.add_argument(
        "--truth",
        type=Path,
        default=TRUTH,
        help="exact results solved before, added to as it goes (default "
        "review_truth.jsonl; a --quick run keeps them in memory)",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"a tiny run (2 hands of 6 cards timed, 2 of 8 for the agreement), "
        f"saved to {QUICK_RESULTS.name}",
    )
    parser.add_argument("--output", type=Path)
    args = parser.parse_args(argv)
    if args.quick:
        args.deals, args.timing_cards, args.hands, args.cards, args.exact_cards = 2, 6, 2, 8, 6
    output = args.output or (QUICK_RESULTS if args.quick else RESULTS)
    ensure_compiled()
    report: dict = {"commit": _commit(), "quick": args.quick}
    if "timing" in args.parts:
        timing = report["timing"] = measure_timing(
            args.deals, args.seed, args.seat, args.timing_cards
        )
        print(
            f"hands of {args.timing_cards} cards, seat {args.seat} with what it knew: median "
            f"{timing['median_s']:.1f} s, worst {timing['worst_s']:.1f} s over "
            f"{timing['deals']} deals",
            flush=True,
        )
    if "agreement" in args.parts:
        agreement = report["agreement"] = measure_agreement(
            args.hands,
            args.seed + 1,
            args.cards,
            args.exact_cards,
            Truth(None if args.quick else args.truth),
        )
        if agreement["decisions"]:
            low, high = agreement["label_interval"]
            print(
                f"{args.cards}-card hands, decisions above {args.exact_cards} cards estimated: "
                f"marks agree with exact on {agreement['label_agreement']:.1%} "
                f"({low:.1%}-{high:.1%}) of {agreement['decisions']}; marked or not "
                f"{agreement['marked_agreement']:.1%}; mean |cost error| "
                f"{agreement['mean_abs_error']:.3f} points",
                flush=True,
            )
            for size, figures in agreement["by_cards"].items():
                print(
                    f"  {size} cards a hand: {figures['label_agreement']:.1%} of "
                    f"{figures['decisions']}",
                    flush=True,
                )
    save_report(output, report)
    return report


if __name__ == "__main__":
    main()
