"""Node counts and node rates of the depth-limited searches: the estimate and the match.

``python -m benchmarks.limited`` runs ``estimate_search`` (through
``evaluator.search_card_results``) and ``match_search`` (through
``match_values.card_chances``) on fixed positions with fixed depths and no time
limit, so the nodes each search visits and the values it returns depend only
on the code, not on the machine:

- estimate: the positions of ``suite_evaluator.jsonl`` (10 cards a hand),
  searched ``ESTIMATE_TRICKS`` tricks deep;
- match, estimated: the same positions with each a match to 15 from scores
  drawn from its index, searched ``MATCH_TRICKS`` tricks deep;
- match, exact: random endings of ``EXACT_CARDS`` cards a hand, to the end.

It prints the total nodes of each and the median node rate (nodes a second
over the positions, after a compile; each search starts with an empty match
table), and saves them with every position's
nodes and a digest of the values to ``results/limited.json`` (``--quick``:
a few positions, to ``results/limited.json.tmp``). A change to a search that
should not change what it visits keeps the nodes and the digest; the rates
say what it costs (medians: the machines are noisy).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import time
from pathlib import Path

from solver import Position
from solver.compiled import ensure_compiled
from solver.evaluator import forget_tables, search_card_results
from solver.match import MatchState
from solver.match_values import card_chances

from .evaluator import read_suite
from .strength import run_header, save_report

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "limited.json"
ESTIMATE_TRICKS = 2
MATCH_TRICKS = 2
MATCH_TARGET = 15
EXACT_CARDS = 5
EXACT_COUNT = 20
QUICK_POSITIONS = 4


def match_state(index: int) -> MatchState:
    """A match to 15 at scores drawn from ``index``: each seat 6 to 14."""
    rng = random.Random(index)
    return MatchState(MATCH_TARGET, tuple(rng.randint(6, 14) for _ in range(3)))


def endings(count: int) -> list[Position]:
    """The random endings of the exact match searches."""
    return [Position.random(seed, EXACT_CARDS, seed % 3) for seed in range(count)]


def digest(values: dict) -> str:
    """A short fingerprint of every card's values, rounded to 9 decimals."""
    text = json.dumps(
        {str(card): [round(v, 9) for v in row] for card, row in values.items()}, sort_keys=True
    )
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def measure(name: str, runs: list) -> dict:
    """Run each ``(label, search)`` once; nodes, seconds and value digests."""
    rows = []
    for label, search in runs:
        forget_tables()  # each search's nodes its own, whichever thread runs it
        start = time.perf_counter()
        values, nodes = search()
        rows.append(
            {
                "position": label,
                "nodes": nodes,
                "seconds": round(time.perf_counter() - start, 6),
                "digest": digest(values),
            }
        )
    rates = [r["nodes"] / r["seconds"] for r in rows if r["seconds"] > 0]
    return {
        "search": name,
        "positions": len(rows),
        "nodes": sum(r["nodes"] for r in rows),
        "median_rate": round(statistics.median(rates)) if rates else None,
        "digest": hashlib.sha256("".join(r["digest"] for r in rows).encode()).hexdigest()[:16],
        "rows": rows,
    }


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.limited", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a few positions each")
    args = parser.parse_args(argv)
    ensure_compiled()
    suite = read_suite()[: QUICK_POSITIONS if args.quick else None]
    positions = [(r["position"], Position.parse(r["position"])) for r in suite]
    exact = endings(QUICK_POSITIONS if args.quick else EXACT_COUNT)
    report = {
        **run_header(),
        "estimate_tricks": ESTIMATE_TRICKS,
        "match_tricks": MATCH_TRICKS,
        "searches": [
            measure(
                "estimate",
                [(t, lambda p=p: search_card_results(p, ESTIMATE_TRICKS)) for t, p in positions],
            ),
            measure(
                "match, estimated",
                [
                    (t, lambda p=p, i=i: card_chances(p, match_state(i), MATCH_TRICKS))
                    for i, (t, p) in enumerate(positions)
                ],
            ),
            measure(
                "match, exact",
                [
                    (str(p), lambda p=p, i=i: card_chances(p, match_state(i)))
                    for i, p in enumerate(exact)
                ],
            ),
        ],
    }
    for search in report["searches"]:
        print(
            f"{search['search']:17} {search['positions']:3} positions  "
            f"{search['nodes']:>12,} nodes  median {search['median_rate']:>11,} nodes/s  "
            f"values {search['digest']}"
        )
    out = RESULTS.with_suffix(".json.tmp") if args.quick else RESULTS
    save_report(out, report)
    print(f"saved {out}")
    return report


if __name__ == "__main__":
    main()
