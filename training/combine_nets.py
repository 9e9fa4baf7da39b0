"""Stack trained ensembles into the shipped value network: the ``SMALL`` files'
members value positions of up to ``--split`` cards a hand, ``LARGE``'s the
bigger ones (``solver.evaluator.ValueNet``). ``LARGE`` may itself be such a
stacked file (the shipped one, say), whose members beyond its own split are
taken; narrower members are zero-padded to the small ones' widths, which
leaves what they compute unchanged.

    python training/combine_nets.py data/net_8.npz data/net_16.npz --split 9 --out solver/value_net.npz
    python training/combine_nets.py solver/committee/net_c.npz solver/value_net.npz --out data/vn_c.npz
"""

from __future__ import annotations

import argparse

import numpy as np

from solver.evaluator import ValueNet, stack_members


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("small", nargs="+", help="ensembles for up to --split cards a hand")
    parser.add_argument("large", help="the ensemble beyond (or a stacked file's large members)")
    parser.add_argument("--split", type=int, default=9, help="cards a hand the small ones take")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    smalls = [dict(np.load(path)) for path in args.small]
    arrays = stack_members(smalls, dict(np.load(args.large)), args.split)
    np.savez(args.out, **arrays)
    ValueNet.load(args.out)  # checks the shapes
    members = int(arrays["small"])
    print(
        f"wrote {args.out}: {members} members up to {args.split} cards a hand, "
        f"{arrays['b1'].shape[0] - members} beyond"
    )


if __name__ == "__main__":
    main()
