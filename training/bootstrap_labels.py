"""Estimated max^n values of larger positions, to extend the value network beyond exact reach.

Exact labels stop at about nine cards a hand. For larger trick-boundary
positions this labels each with the search the network serves
(``solver.evaluator.search_card_results``): max^n over the next trick with
the current network beyond, the value being the result of the card the
mover takes. Trained on these, the network learns at ``n`` cards what the
search sees from ``n - 1``, one size after another (temporal difference
learning: ``build_value_net.sh`` runs the chain). Positions are dealt as ``make_labels.py`` deals its
roots. Writes ``OUT.npz`` with ``rows`` (h0 h1 h2 leader round) and
``values`` (the three seats' points, real numbers) every 200 positions.

    python training/bootstrap_labels.py --seed 21 --sizes 10,11,12 --count 20000 --out data/boot_21.npz
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
from make_labels import root_position

from analysis import preferred_card
from solver.evaluator import ValueNet, search_card_results

TRICKS = 1  # tricks searched before the network: milliseconds a position at any size


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--sizes", default="10,11,12,13,14,15,16")
    parser.add_argument("--count", type=int, default=10000)
    parser.add_argument("--net", help="weights to search with (default: the package's)")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    net = ValueNet.load(args.net)
    sizes = [int(s) for s in args.sizes.split(",")]
    rng = random.Random(args.seed)
    rows, values = [], []
    start = time.time()
    for index in range(args.count):
        position = root_position(rng, rng.choice(sizes))
        # the hard max^n choice, as when the shipped network was trained
        results, _ = search_card_results(position, TRICKS, net=net, softness=0)
        rows.append((*position.hands, position.leader, index))
        values.append(results[preferred_card(results, position.to_move)])
        if (index + 1) % 200 == 0 or index + 1 == args.count:
            np.savez(args.out, rows=np.array(rows, dtype=np.int64), values=np.array(values))
            print(f"{index + 1} positions, {time.time() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
