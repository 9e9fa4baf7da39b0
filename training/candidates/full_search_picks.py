"""The estimate's card with no time limit: the full two-trick searches (soft and
in whole points, averaged, as ``analysis.estimate`` does) over a network, on
the positions of given sizes where the mover's cards differ. Deterministic,
so networks can be compared on a loaded machine; writes one row a position
with every card's values.

    python training/candidates/full_search_picks.py benchmarks/suite_evaluator.jsonl \
        benchmarks/sets/choose.jsonl training/dev_positions.jsonl --cards 9,10 \
        --net data/vn_c.npz --out data/picks_c.json
"""

import argparse
import json
import time
from collections import defaultdict
from pathlib import Path

from analysis._common import preferred_card
from analysis.estimate import MAX_POINTS_DEPTH, _card_points
from benchmarks.evaluator import differs, judge, read_suite
from solver import Position
from solver.evaluator import ValueNet


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("sets", nargs="+", type=Path)
    parser.add_argument("--net", help="value network file (default: the shipped one)")
    parser.add_argument("--cards", default="10", help="hand sizes, comma-separated")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    net = ValueNet.load(args.net) if args.net else None
    sizes = {int(c) for c in args.cards.split(",")}
    rows = []
    for path in args.sets:
        for record in read_suite(path):
            position = Position.parse(record["position"])
            if position.cards_per_hand not in sizes or not differs(record):
                continue
            start = time.perf_counter()
            values, _ = _card_points(position, MAX_POINTS_DEPTH, net=net, threads=1, deadline=None)
            card = preferred_card({c: tuple(v) for c, v in values.items()}, position.to_move)
            regret = judge(record, card)[1]
            rows.append(
                {
                    "set": path.stem,
                    "index": record["index"],
                    "cards": position.cards_per_hand,
                    "card": str(card),
                    "values": {str(c): [round(x, 4) for x in v] for c, v in values.items()},
                    "mover": position.to_move,
                    "right": regret == 0,
                    "regret": regret,
                    "seconds": round(time.perf_counter() - start, 3),
                }
            )
    totals = defaultdict(lambda: [0, 0, 0.0])
    for row in rows:
        for key in (f"{row['set']} {row['cards']} cards", "all"):
            totals[key][0] += row["right"]
            totals[key][1] += 1
            totals[key][2] += row["regret"]
    for key, (right, count, regret) in totals.items():
        print(f"{key}: {right}/{count} right, regret {regret / count:.3f}")
    if args.out:
        args.out.write_text(json.dumps(rows))


if __name__ == "__main__":
    main()
