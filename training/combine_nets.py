"""Stack trained ensembles into the shipped value network: the ``SMALL`` files'
members value positions of up to ``--split`` cards a hand, ``LARGE``'s the
bigger ones (``solver.evaluator.ValueNet``). ``LARGE`` may itself be such a
stacked file (the shipped one, say), whose members beyond its own split are
taken; narrower members are zero-padded to the small ones' widths, which
leaves what they compute unchanged.

    python training/combine_nets.py data/net_8.npz data/net_16.npz --split 9 --out solver/value_net.npz
    python training/combine_nets.py training/candidates/net_c.npz solver/value_net.npz --out data/vn_c.npz
"""

from __future__ import annotations

import argparse

import numpy as np

from solver.evaluator import ValueNet, stacked

LAYERS = ("w1", "b1", "w2", "b2", "w3", "b3")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("small", nargs="+", help="ensembles for up to --split cards a hand")
    parser.add_argument("large", help="the ensemble beyond (or a stacked file's large members)")
    parser.add_argument("--split", type=int, default=9, help="cards a hand the small ones take")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    smalls = [dict(np.load(path)) for path in args.small]
    with np.load(args.large) as large:
        first_large = int(large["small"]) if "small" in large else 0
        arrays = {}
        for name in LAYERS:
            parts = [stacked(small[name], name) for small in smalls]
            beyond = stacked(large[name], name)[first_large:]
            pad = [(0, 0)] + [(0, a - b) for a, b in zip(parts[0].shape[1:], beyond.shape[1:])]
            arrays[name] = np.concatenate([*parts, np.pad(beyond, pad)])
    members = sum(stacked(small["b1"], "b1").shape[0] for small in smalls)
    np.savez(args.out, **arrays, split=np.int64(args.split), small=np.int64(members))
    ValueNet.load(args.out)  # checks the shapes
    print(
        f"wrote {args.out}: {members} members up to {args.split} cards a hand, "
        f"{arrays['b1'].shape[0] - members} beyond"
    )


if __name__ == "__main__":
    main()
