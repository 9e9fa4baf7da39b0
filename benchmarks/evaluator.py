"""How well the open-hand estimate picks cards beyond exact reach, against exact answers.

``python -m benchmarks.evaluator`` runs ``analysis.estimate`` (at
``--time-limit``, default 1 s) on every position of ``suite_evaluator.jsonl``:
100 positions of 10 cards a hand, each with its exact max^n card results
(computed once by ``--make-suite``, with the seconds that took). A position
"differs" when its cards do not all give the mover the same exact points;
there the estimate's card is right when it is one of the exact best. It
reports the share right where cards differ and the mean regret (exact best
points minus those of the card picked) over all positions, beside the same
for the earlier evaluation (hint's greedy playouts to five cards a hand, then
exact, three times) and for a random card. It also times ``estimate`` on the
full deals of ``suite_paranoid.txt``. Results go to ``results/evaluator.json``.

The suite: positions 0-49 are random deals of 10 cards a hand; 50-99 are
full deals played down to 10 cards a hand by greedy play with trembles
(``solver.playouts``, epsilon 0.2); then ``index % 3`` more cards are
played (random cards for the first half, greedy with trembles for the
second), so a third of the positions have one or two cards on the table.

``--suite`` runs on other sets of the same kind, such as
``training/dev_positions.jsonl`` (222 positions of 9 cards a hand, made by
``--make-suite --suite training/dev_positions.jsonl --cards 9 --first-seed
91000 --size 222``), on which networks are chosen so that the suite stays a
test they were never picked on, or the sets of ``benchmarks.sources``.

Besides the whole, every evaluation is reported per set and per source (a
position's ``source``, or the suite's ``kind``), with 95% intervals: Wilson
for the share right, a bootstrap of the positions for the mean regret. A
gain on one source that is a loss on another shows there.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

from analysis.estimate import estimate
from analysis.evaluators import PlayoutEvaluator
from solver import Position
from solver.cards import Card
from solver.compiled import ensure_compiled
from solver.evaluator import ValueNet
from solver.maxn import solve_maxn
from solver.playouts import greedy_card, play_until

from . import solver as paranoid
from .strength import save_report

HERE = Path(__file__).resolve().parent
SUITE = HERE / "suite_evaluator.jsonl"
RESULTS = HERE / "results" / "evaluator.json"
SUITE_SIZE = 100
CARDS = 10
FIRST_SEED = 46_000
# the set networks are chosen on, and how --make-suite made it
DEV_SET = HERE.parent / "training" / "dev_positions.jsonl"
DEV_MADE = {"size": 222, "cards": 9, "first_seed": 91_000}
TARGET_RIGHT = 0.90
TARGET_REGRET = 0.10
FULL_DEAL_SECONDS = 2.0
Z95 = 1.96
BOOTSTRAP_DRAWS = 2000
ALL_SOURCES = "all"


def suite_position(
    index: int, cards: int = CARDS, first_seed: int = FIRST_SEED
) -> tuple[Position, str]:
    """Suite position ``index`` and how it was made (``random`` or ``played``);
    other ``cards`` and ``first_seed`` deal sets of the same kinds (past
    ``SUITE_SIZE`` the kinds repeat, the seeds go on)."""
    rng = random.Random(first_seed + index)
    kind_index = index % SUITE_SIZE
    extra = kind_index % 3
    if kind_index < SUITE_SIZE // 2:
        position = Position.random(rng, cards, rng.randrange(3))
        for _ in range(extra):
            position = position.play(rng.choice(position.legal_cards()))
        return position, "random"
    deal = Position.random(rng, 16, rng.randrange(3))
    hands, leader, trick, _ = play_until(deal.hands, deal.leader, (), rng, 0.2, cards)
    position = Position(tuple(hands), leader, tuple(trick))
    for _ in range(extra):
        card = (
            rng.choice(position.legal_cards())
            if rng.random() < 0.2
            else greedy_card(position.hands[position.to_move], position.trick)
        )
        position = position.play(card)
    return position, "played"


def make_suite(
    path: Path,
    threads: int,
    size: int = SUITE_SIZE,
    cards: int = CARDS,
    first_seed: int = FIRST_SEED,
) -> None:
    """Solve every suite position exactly (hours), appending to ``path``; resumable."""
    done = {json.loads(line)["index"] for line in path.open()} if path.exists() else set()
    for index in range(size):
        if index in done:
            continue
        position, kind = suite_position(index, cards, first_seed)
        record = {"index": index, "kind": kind, "position": str(position)}
        record |= exact_answers(position, threads)
        with path.open("a") as out:
            out.write(json.dumps(record) + "\n")
        print(index, kind, record["seconds"], flush=True)


def exact_answers(position: Position, threads: int) -> dict:
    """Every card's exact max^n result for the mover, and what it cost: a set's labels."""
    start = time.perf_counter()
    result = solve_maxn(position, card_results=True, line=False, threads=threads)
    return {
        "card_results": {str(c): list(v) for c, v in result.card_results.items()},
        "equilibrium": list(result.equilibrium),
        "nodes": result.nodes,
        "seconds": round(time.perf_counter() - start, 3),
    }


def read_suite(path: Path = SUITE) -> list[dict]:
    """The positions of a set; a first line without a position (the header of
    a ``benchmarks.sources`` set) is left out."""
    records = [json.loads(line) for line in path.open()]
    return [record for record in records if "position" in record]


def differs(record: dict) -> bool:
    """Do the mover's cards not all give it the same exact points (a decisive position)?"""
    mover = Position.parse(record["position"]).to_move
    return len({v[mover] for v in record["card_results"].values()}) > 1


def judge(record: dict, card: Card) -> tuple[bool, float]:
    """(the cards differ here, the regret of ``card``)."""
    mover = Position.parse(record["position"]).to_move
    own = {c: v[mover] for c, v in record["card_results"].items()}
    return differs(record), max(own.values()) - own[str(card)]


def playout_card(position: Position, rng: random.Random) -> Card:
    """The earlier evaluation's card: greedy playouts to 5 cards, then exact, x3."""
    evaluate = PlayoutEvaluator(exact_cards=6, horizon=5, rollouts=3, epsilon=0.1)
    values, _, _ = evaluate(position, None, rng)
    return min(values, key=lambda c: (-values[c], c))


def pick(records: list[dict], choose) -> list[dict]:
    """Each position's card from ``choose(position)``, judged, with its seconds.
    ``choose`` returns a card, or an estimate: its best card, and whether it
    was exact is kept (an exact answer says nothing of the estimate)."""
    picks = []
    for record in records:
        position = Position.parse(record["position"])
        start = time.perf_counter()
        choice = choose(position)
        seconds = time.perf_counter() - start
        card = getattr(choice, "best", choice)
        differ, regret = judge(record, card)
        picks.append(
            {
                "card": str(card),
                "differs": differ,
                "regret": regret,
                "seconds": seconds,
                "exact": getattr(choice, "exact", None),
            }
        )
    return picks


def wilson_interval(right: int, count: int) -> list[float] | None:
    """The 95% Wilson score interval of the share ``right / count``."""
    if not count:
        return None
    z2 = Z95 * Z95
    centre = (right + z2 / 2) / (count + z2)
    half = Z95 * math.sqrt(right * (count - right) / count + z2 / 4) / (count + z2)
    return [max(0.0, centre - half), min(1.0, centre + half)]


def bootstrap_interval(values: list[float]) -> list[float]:
    """A 95% percentile bootstrap interval of the mean (fixed seed, so a report repeats)."""
    data = np.asarray(values, dtype=float)
    draws = np.random.default_rng(0).integers(0, len(data), (BOOTSTRAP_DRAWS, len(data)))
    low, high = np.percentile(data[draws].mean(axis=1), [2.5, 97.5])
    return [float(low), float(high)]


def summarize(picks: list[dict]) -> dict:
    """Share right where cards differ and mean regret over all positions, with
    95% intervals, and seconds."""
    decisive = [p for p in picks if p["differs"]]
    right = sum(p["regret"] == 0 for p in decisive)
    regrets = [p["regret"] for p in picks]
    seconds = [p["seconds"] for p in picks]
    return {
        "right": right,
        "differ": len(decisive),
        "share_right": right / len(decisive) if decisive else None,
        "share_interval": wilson_interval(right, len(decisive)),
        "mean_regret": statistics.fmean(regrets),
        "regret_interval": bootstrap_interval(regrets),
        "seconds": {"median": statistics.median(seconds), "max": max(seconds)},
        "exact": sum(p["exact"] is True for p in picks),
    }


def source_of(record: dict) -> str:
    """The source a position came from (the suite's sets name it ``kind``)."""
    return record.get("source") or record.get("kind") or "-"


def cards_of(record: dict) -> str:
    """The position's cards a hand (of the seat to move)."""
    return f"{Position.parse(record['position']).cards_per_hand} cards"


def breakdown(
    records: list[dict], picks: dict[str, list[dict]], part=source_of, name: str = "source"
) -> list[dict]:
    """Every evaluation summarized per set and ``part`` (a position's source,
    or its size), then per whole set where a set holds several parts: a gain
    on one source that is a loss on another shows here. ``name`` is the
    part's key in the rows."""
    groups: dict[str, dict[str, list[int]]] = {}
    for i, record in enumerate(records):
        groups.setdefault(record["set"], {}).setdefault(part(record), []).append(i)
    for parts in groups.values():
        if len(parts) > 1:
            parts[ALL_SOURCES] = [i for members in parts.values() for i in members]
    return [
        {
            "set": set_name,
            name: group,
            "positions": len(members),
            "decisive": sum(differs(records[i]) for i in members),
            "evaluations": {
                evaluation: summarize([chosen[i] for i in members])
                for evaluation, chosen in picks.items()
            },
        }
        for set_name, parts in groups.items()
        for group, members in sorted(parts.items(), key=lambda item: item[0] == ALL_SOURCES)
    ]


def breakdown_table(rows: list[dict], name: str = "source") -> Table:
    """``breakdown`` as a table, a line per evaluation: share right and regret
    with their intervals (and how many positions an estimate solved exactly)."""
    table = Table(
        title=f"Per set and {name}: right where cards differ (95% Wilson interval), "
        "mean regret over all positions (95% bootstrap interval)"
    )
    for heading in ("set", name, "decisive", "evaluation", "right", "regret"):
        table.add_column(heading, justify="left" if heading in ("set", name) else "right")
    for row in rows:
        for n, (evaluation, result) in enumerate(row["evaluations"].items()):
            right = "-"
            if result["differ"]:
                low, high = result["share_interval"]
                right = (
                    f"{result['right']}/{result['differ']} = {result['share_right']:.0%} "
                    f"({100 * low:.0f}-{100 * high:.0f}%)"
                )
            low, high = result["regret_interval"]
            table.add_row(
                Path(row["set"]).stem if n == 0 else "",
                row[name] if n == 0 else "",
                f"{row['decisive']}/{row['positions']}" if n == 0 else "",
                evaluation + (f" ({result['exact']} exact)" if result["exact"] else ""),
                right,
                f"{result['mean_regret']:.3f} ({low:.2f}-{high:.2f})",
                end_section=n == len(row["evaluations"]) - 1,
            )
    return table


def main(argv: list[str] | None = None) -> dict | None:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.evaluator", description=__doc__.partition("\n\n")[0]
    )
    parser.add_argument("--time-limit", type=float, default=1.0, help="estimate's seconds (1)")
    parser.add_argument("--positions", type=int, help="only the first N positions of each set")
    parser.add_argument(
        "--no-baselines",
        action="store_true",
        help="leave out the playout evaluation and the random card",
    )
    parser.add_argument(
        "--make-suite",
        action="store_true",
        help="solve the suite exactly (hours; resumes where it stopped)",
    )
    parser.add_argument("--threads", type=int, default=2, help="threads for --make-suite")
    parser.add_argument(
        "--suite",
        type=Path,
        nargs="+",
        default=[SUITE],
        help="other sets of positions with exact answers (such as training/dev_positions.jsonl "
        "or benchmarks/sets/choose.jsonl), reported together and per set and source",
    )
    parser.add_argument(
        "--cards", type=int, default=CARDS, help=f"--make-suite: cards a hand ({CARDS})"
    )
    parser.add_argument(
        "--first-seed",
        type=int,
        default=FIRST_SEED,
        help=f"--make-suite: seed of position 0 ({FIRST_SEED})",
    )
    parser.add_argument(
        "--size", type=int, default=SUITE_SIZE, help=f"--make-suite: positions ({SUITE_SIZE})"
    )
    parser.add_argument(
        "--net", type=Path, help="value network weights to try (default: the shipped ones)"
    )
    parser.add_argument(
        "--output",
        type=Path,
        help="where the results go (results/evaluator.json for the suite, "
        "results/evaluator_NAME.json for another set, NAME+NAME for several)",
    )
    args = parser.parse_args(argv)
    the_suite = args.suite == [SUITE]
    if args.output is None:
        stems = "+".join(path.stem for path in args.suite)
        args.output = RESULTS if the_suite else RESULTS.with_name(f"evaluator_{stems}.json")
    if args.make_suite:
        if len(args.suite) > 1:
            parser.error("--make-suite makes one set at a time")
        make_suite(args.suite[0], args.threads, args.size, args.cards, args.first_seed)
        return None
    console = Console()
    records = [
        dict(record, set=path.name)
        for path in args.suite
        for record in read_suite(path)[: args.positions]
    ]
    ensure_compiled()
    net = ValueNet.load(args.net) if args.net else None
    picks = {"estimate": pick(records, lambda p: estimate(p, args.time_limit, net=net))}
    if not args.no_baselines:
        rng = random.Random(0)
        picks["playout evaluation"] = pick(records, lambda p: playout_card(p, rng))
        picks["random card"] = pick(records, lambda p: rng.choice(p.legal_cards()))
    rows = {name: summarize(chosen) for name, chosen in picks.items()}
    sources = breakdown(records, picks)
    by_size = breakdown(records, picks, cards_of, "size")
    full_deals = paranoid.read_suite()[16]
    full_seconds = []
    for deal in full_deals:
        start = time.perf_counter()
        estimate(deal, args.time_limit, net=net)
        full_seconds.append(time.perf_counter() - start)
    exact_seconds = [r["seconds"] for r in records]
    report = {
        "machine": paranoid.machine(),
        "options": {
            "time_limit": args.time_limit,
            "positions": len(records),
            "net": str(args.net) if args.net else "shipped",
        },
        "suite": {
            "file": ", ".join(path.name for path in args.suite),
            "positions": len(records),
            "exact_seconds_median": statistics.median(exact_seconds),
            "exact_seconds_max": max(exact_seconds),
        },
        "evaluations": rows,
        "by_source": sources,
        "by_size": by_size,
        "picks": [
            {"set": r["set"], "index": r["index"], "source": source_of(r)}
            | {"cards": Position.parse(r["position"]).cards_per_hand}
            | {name: chosen[i]["card"] for name, chosen in picks.items()}
            | {"estimate_exact": picks["estimate"][i]["exact"]}
            for i, r in enumerate(records)
        ],
        "full_deals": {
            "count": len(full_seconds),
            "median": statistics.median(full_seconds),
            "max": max(full_seconds),
        },
    }
    if the_suite:  # the targets are the suite's
        report["targets"] = {
            "share_right": TARGET_RIGHT,
            "mean_regret": TARGET_REGRET,
            "full_deal_seconds": FULL_DEAL_SECONDS,
            "met": (rows["estimate"]["share_right"] or 0) >= TARGET_RIGHT
            and rows["estimate"]["mean_regret"] <= TARGET_REGRET
            and max(full_seconds) <= FULL_DEAL_SECONDS,
        }
    sizes = sorted({Position.parse(r["position"]).cards_per_hand for r in records})
    table = Table(
        title=f"Picking a card at {'/'.join(map(str, sizes))} cards a hand: "
        f"{len(records)} positions of {report['suite']['file']}, "
        f"exact max^n answers (median {report['suite']['exact_seconds_median']:.1f} s each)"
    )
    for heading in ("evaluation", "right where cards differ", "mean regret", "median s", "max s"):
        table.add_column(heading, justify="left" if heading == "evaluation" else "right")
    for name, row in rows.items():
        share = "" if row["share_right"] is None else f" = {row['share_right']:.0%}"
        table.add_row(
            name,
            f"{row['right']}/{row['differ']}{share}",
            f"{row['mean_regret']:.3f}",
            f"{row['seconds']['median']:.3f}",
            f"{row['seconds']['max']:.3f}",
        )
    console.print(table)
    console.print(breakdown_table(sources))
    console.print(breakdown_table(by_size, "size"))
    console.print(
        f"full deals ({len(full_seconds)}): estimate median "
        f"{report['full_deals']['median']:.3f} s, max {report['full_deals']['max']:.3f} s"
    )
    if "targets" in report:
        console.print(
            f"targets (>= {TARGET_RIGHT:.0%} right, regret <= {TARGET_REGRET}, full "
            f"deals <= {FULL_DEAL_SECONDS} s): "
            f"{'met' if report['targets']['met'] else 'not met'}"
        )
    save_report(args.output, report)
    console.print(f"saved {args.output}")
    return report


if __name__ == "__main__":
    main()
