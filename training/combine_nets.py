"""Stack two trained ensembles into the shipped value network: ``SMALL`` values
positions of up to ``--split`` cards a hand, ``LARGE`` the bigger ones
(``solver.evaluator.ValueNet``).

    python training/combine_nets.py data/net_8.npz data/net_16.npz --split 9 --out solver/value_net.npz
"""

from __future__ import annotations

import argparse

import numpy as np

from solver.evaluator import ValueNet, stacked


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("small")
    parser.add_argument("large")
    parser.add_argument("--split", type=int, default=9, help="cards a hand the small one takes")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    with np.load(args.small) as small, np.load(args.large) as large:
        arrays = {
            name: np.concatenate([stacked(small[name], name), stacked(large[name], name)])
            for name in ("w1", "b1", "w2", "b2", "w3", "b3")
        }
    members = stacked(np.load(args.small)["b1"], "b1").shape[0]
    np.savez(args.out, **arrays, split=np.int64(args.split), small=np.int64(members))
    ValueNet.load(args.out)  # checks the shapes
    print(
        f"wrote {args.out}: {members} members up to {args.split} cards a hand, "
        f"{arrays['b1'].shape[0] - members} beyond"
    )


if __name__ == "__main__":
    main()
