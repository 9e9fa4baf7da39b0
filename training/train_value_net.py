"""Train the value network of ``solver.evaluator`` on max^n labels.

Reads the exact labels of ``make_labels.py`` (``.npy``) and the estimated
ones of ``bootstrap_labels.py`` (``.npz``), drops repeated positions, holds
out every tenth round for validation, and
fits a two-hidden-layer network (Adam, mean squared error on each seat's
points, the outputs a softmax share of the Coins left) in numpy. It prints
the validation error by hand size beside that of an equal split, and writes
the weights (float32) to ``--out`` (default: the package's value_net.npz).

    python training/train_value_net.py data/labels_*.npy --hidden 128,64 --epochs 30
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

# one BLAS thread: these matrices are small, and on a busy machine more threads
# spin against each other (17 times slower, measured)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numba  # noqa: E402
import numpy as np  # noqa: E402
from mlp import Adam, Network  # noqa: E402

from solver import _kernels as k  # noqa: E402
from solver.evaluator import stacked  # noqa: E402

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "solver" / "value_net.npz"


@numba.njit
def _features(positions, x, coins):
    for i in range(positions.shape[0]):
        leader = positions[i, 3]
        hands = (
            positions[i, leader],
            positions[i, (leader + 1) % 3],
            positions[i, (leader + 2) % 3],
        )
        k.value_features(hands[0], hands[1], hands[2], x[i])
        coins[i] = k.popcount((positions[i, 0] | positions[i, 1] | positions[i, 2]) & k.COINS_MASK)


def read_labels(paths) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Positions (h0 h1 h2 leader), their values (three seats) and rounds (numbered
    apart per file), repeated positions dropped: from ``make_labels.py``'s
    ``.npy`` rows and ``bootstrap_labels.py``'s ``.npz`` files."""
    positions, values, rounds, offset = [], [], [], 0
    for path in paths:
        if str(path).endswith(".npz"):
            with np.load(path) as data:
                rows, found = data["rows"], data["values"]
            positions.append(rows[:, :4])
            values.append(found)
            rounds.append(rows[:, 4] + offset)
        else:
            rows = np.load(path)
            positions.append(rows[:, :4])
            values.append(rows[:, 4:7].astype(np.float64))
            rounds.append(rows[:, 7] + offset)
        offset = rounds[-1].max() + 1
    positions, values, rounds = map(np.concatenate, (positions, values, rounds))
    _, first = np.unique(positions, axis=0, return_index=True)
    first = np.sort(first)
    return positions[first], values[first], rounds[first]


def prepare(positions: np.ndarray, values: np.ndarray):
    """Features, Coins left and the values seen from the leader."""
    x = np.zeros((len(positions), k.VALUE_FEATURES))
    coins = np.zeros(len(positions))
    _features(positions, x, coins)
    leader = positions[:, 3]
    order = np.stack([leader, (leader + 1) % 3, (leader + 2) % 3], 1)
    targets = np.take_along_axis(values, order, 1)
    return x.astype(np.float32), coins.astype(np.float32), targets.astype(np.float32)


class ShareNetwork(Network):
    """ReLU layers, then a softmax share of the Coins left."""

    @staticmethod
    def shares(z):
        e = np.exp(z - z.max(1, keepdims=True))
        return e / e.sum(1, keepdims=True)

    def predict(self, x, coins):
        return self.shares(self.layers(x)[-1]) * coins[:, None]


def fit(net, x, coins, targets, valid, epochs, rate, batch, rng, report):
    adam = Adam(net, rate)
    for epoch in range(epochs):
        order = rng.permutation(len(x))
        adam.rate = rate * 0.5 * (1 + np.cos(np.pi * epoch / epochs))
        for s in range(0, len(x), batch):
            rows = order[s : s + batch]
            layers = net.layers(x[rows])
            p = net.shares(layers[-1])
            c = coins[rows][:, None]
            grad_p = 2 * (p * c - targets[rows]) * c / len(rows)
            adam.step(net.gradients(layers, p * (grad_p - (grad_p * p).sum(1, keepdims=True))))
        report(epoch, net.predict(*valid[:2]), valid[2])


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("labels", nargs="+", help="row files written by make_labels.py")
    parser.add_argument("--hidden", default="128,64", help="hidden layer sizes")
    parser.add_argument(
        "--members",
        type=int,
        default=2,
        help="networks in the ensemble, each from its own seed (default 2)",
    )
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--rate", type=float, default=1e-3)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--init", help="start from these weights (same sizes) instead of random ones"
    )
    parser.add_argument("--out", default=str(DEFAULT_OUT))
    args = parser.parse_args(argv)
    positions, values, rounds = read_labels(args.labels)
    x, coins, targets = prepare(positions, values)
    held_out = rounds % 10 == 0
    train = ~held_out
    sizes = np.array([bin(int(h)).count("1") for h in positions[:, 0]])
    print(f"{len(positions)} positions, {held_out.sum()} held out")
    hidden = [int(h) for h in args.hidden.split(",")]
    valid = (x[held_out], coins[held_out], targets[held_out])

    def report(epoch, predicted, truth):
        print(
            f"epoch {epoch + 1}: held-out mean error {np.abs(predicted - truth).mean():.4f}",
            flush=True,
        )

    members = []
    for member in range(args.members):
        rng = np.random.default_rng(args.seed + member)
        net = ShareNetwork([k.VALUE_FEATURES, *hidden, 3], rng)
        if args.init:
            with np.load(args.init) as start:
                init = {name: stacked(start[name], name).astype(np.float32) for name in start}
            same = member % init["b1"].shape[0]  # the member of the same number, or the first
            net.weights = [init[f"w{i}"][same] for i in (1, 2, 3)]
            net.biases = [init[f"b{i}"][same] for i in (1, 2, 3)]
        print(f"member {member + 1} of {args.members}")
        fit(
            net,
            x[train],
            coins[train],
            targets[train],
            valid,
            args.epochs,
            args.rate,
            args.batch,
            rng,
            report,
        )
        members.append(net)
    predicted = sum(net.predict(*valid[:2]) for net in members) / len(members)
    print("cards  positions  ensemble  equal split   (held-out mean error, points a seat)")
    for cards in range(1, 17):
        here = sizes[held_out] == cards
        if here.any():
            equal = np.abs(coins[held_out][here, None] / 3 - targets[held_out][here]).mean()
            error = np.abs(predicted[here] - targets[held_out][here]).mean()
            print(f"{cards:5}  {here.sum():9}  {error:8.3f}  {equal:11.3f}")
    arrays = {f"w{i + 1}": np.stack([net.weights[i] for net in members]) for i in range(3)}
    arrays |= {f"b{i + 1}": np.stack([net.biases[i] for net in members]) for i in range(3)}
    np.savez(args.out, **arrays)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
