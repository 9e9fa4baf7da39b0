"""A value network file with the given exact-label members for hands of up to
9 cards and the shipped file's bootstrapped members beyond (zero-padded to
the new members' widths, which leaves what they compute unchanged).

    python training/candidates/with_shipped_large.py data/vn_c.npz training/candidates/net_c.npz
"""

import argparse
from pathlib import Path

import numpy as np

from solver.evaluator import ValueNet, stacked

SHIPPED = Path(__file__).resolve().parents[2] / "solver" / "value_net.npz"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("out")
    parser.add_argument("small", nargs="+", help="train_value_net.py outputs for up to 9 cards")
    args = parser.parse_args(argv)
    with np.load(SHIPPED) as shipped:
        first_large = int(shipped["small"])
        arrays = {}
        for name in ("w1", "b1", "w2", "b2", "w3", "b3"):
            parts = [stacked(np.load(path)[name], name) for path in args.small]
            large = stacked(shipped[name], name)[first_large:]
            pad = [(0, 0)] + [(0, a - b) for a, b in zip(parts[0].shape[1:], large.shape[1:])]
            arrays[name] = np.concatenate([*parts, np.pad(large, pad)])
        split = shipped["split"]
    members = sum(stacked(np.load(path)["b1"], "b1").shape[0] for path in args.small)
    np.savez(args.out, **arrays, split=split, small=np.int64(members))
    ValueNet.load(args.out)  # checks the shapes
    print(f"wrote {args.out}: {members} members up to {int(split)} cards a hand")


if __name__ == "__main__":
    main()
