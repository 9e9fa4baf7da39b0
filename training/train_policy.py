"""Train the card policy of ``solver.card_policy`` by self-play (Deep Monte Carlo).

As DouZero does: the network values each card of the seat to move (the
points it expects to win from there to the end of the hand); the learning
seats play its best card, or with probability ``--epsilon`` a random one;
every decision they take becomes a row (what the seat saw and the card) whose
target is the points the seat then won to the end of the hand (its Monte
Carlo return), and the network is fitted to those rows by mean squared
error (numpy, Adam). The other seats of a hand are drawn from ``--mix``:
more learners, greedy, noisy greedy (a random card with probability
``--noise``) and earlier snapshots of the network. Hands are dealt and
played in compiled code (``solver._policy_kernels``); a round plays
``--episodes`` hands, then fits their rows once.

Every ``--eval-minutes`` it writes a checkpoint, plays it (its best card
always) against two greedy bots on ``--eval-deals`` deals, each in the three
seats, and keeps the best in ``best.npz``. Those deals come from a seed of
their own, neither the training deals nor those of the measurement
(``analysis.arena.duplicate`` draws its deals another way).

    nice -n 10 python training/train_policy.py --minutes 100 --out data/policy
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

# one thread: the machine is shared, and these matrices are small (one BLAS
# thread trained 17 times faster than several here)
for _variable in (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "NUMBA_NUM_THREADS",
):
    os.environ.setdefault(_variable, "1")

import numba  # noqa: E402
import numpy as np  # noqa: E402
from mlp import Adam, Network  # noqa: E402

from solver import _kernels as k  # noqa: E402
from solver import _policy_kernels as pk  # noqa: E402

njit = numba.njit(cache=True)

# what plays a seat of a training hand
LEARNER, NET, GREEDY, NOISY_GREEDY = 0, 1, 2, 3
KINDS = {"learner": LEARNER, "snapshot": NET, "greedy": GREEDY, "noisy": NOISY_GREEDY}
EVAL_SEED = 20_261_206  # the checkpoints' evaluation deals
TRAIN_SEED = 7  # the default of --seed: training deals, exploration, initial weights


@njit
def random_deal(state):
    """(three hands of 16 cards and a first leader, dealt by the playouts' LCG; the next state)."""
    deck = np.arange(48)
    for i in range(47, 0, -1):
        state = k.lcg_next(state)
        j = ((state >> 33) & 0x7FFFFFFF) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    hands = np.zeros(3, dtype=np.int64)
    for i in range(48):
        hands[i % 3] |= 1 << deck[i]
    state = k.lcg_next(state)
    return hands, ((state >> 33) & 0x7FFFFFFF) % 3, state


@njit
def _chance(state, p):
    """(True with probability ``p``, the next state)."""
    state = k.lcg_next(state)
    return ((state >> 33) & 0x7FFFFFFF) < p * 2147483648.0, state


@njit
def play_hand(hands, leader, kinds, net, other, epsilon, noise, state, x_out, y_out, rows):
    """Play one hand to the end, seat s played by ``kinds[s]``: LEARNER (``net``,
    epsilon-greedy; its decisions go to ``x_out``/``y_out`` from row ``rows``),
    NET (``other``'s best card), GREEDY or NOISY_GREEDY. Returns the points of
    the three seats, the LCG state and the rows written so far."""
    taken = np.zeros(3, dtype=np.int64)
    trick = np.array([-1, -1, -1], dtype=np.int64)
    x = np.empty(pk.POLICY_FEATURES)
    hidden = np.empty((2, net.b1.shape[0]))
    values = np.empty(48)
    row_seat = np.empty(48, dtype=np.int64)
    row_taken = np.empty(48, dtype=np.int64)
    first = rows
    n = 0
    while hands[0] | hands[1] | hands[2]:
        seat = (leader + n) % 3
        hand = hands[seat]
        kind = kinds[seat]
        card = -1
        if kind == GREEDY or kind == NOISY_GREEDY:
            if kind == NOISY_GREEDY:
                noisy, state = _chance(state, noise)
                if noisy:
                    card, state = k._random_card(hand, state)
            if card < 0:
                card = k.greedy_card(hand, trick[0], trick[1], n)
        else:
            chosen = net if kind == LEARNER else other
            card = pk.policy_card(
                hands, leader, n, trick[0], trick[1], taken, chosen, x, hidden, values
            )
        if kind == LEARNER:
            explore, state = _chance(state, epsilon)
            if explore:
                card, state = k._random_card(hand, state)
            table = (1 << trick[0] if n >= 1 else 0) | (1 << trick[1] if n == 2 else 0)
            gone = pk.FULL_DECK & ~(hands[0] | hands[1] | hands[2] | table)
            unseen = pk.state_features(
                hand,
                gone,
                n,
                trick[0],
                trick[1],
                taken[seat],
                taken[(seat + 1) % 3],
                taken[(seat + 2) % 3],
                x,
            )
            pk.card_features(card, hand, unseen, n, trick[0], trick[1], x)
            for i in range(pk.POLICY_FEATURES):
                x_out[rows, i] = x[i]
            row_seat[rows - first] = seat
            row_taken[rows - first] = taken[seat]
            rows += 1
        hands[seat] = hand & ~(1 << card)
        trick[n] = card
        n += 1
        if n == 3:
            leader = (leader + k.trick_winner(trick[0], trick[1], trick[2])) % 3
            taken[leader] += (
                k.coin_count(trick[0]) + k.coin_count(trick[1]) + k.coin_count(trick[2])
            )
            n = 0
            trick[0] = -1
            trick[1] = -1
    for r in range(first, rows):
        seat = row_seat[r - first]
        y_out[r] = taken[seat] - row_taken[r - first]
    return taken, state, rows


@njit
def play_episodes(kinds, seed, net, other, epsilon, noise, x_out, y_out):
    """One training hand per row of ``kinds`` (a deal of its own each); the
    learners' decisions go to ``x_out``/``y_out`` (room for 16 rows a
    learner). Returns the rows written."""
    state = seed
    rows = 0
    for e in range(kinds.shape[0]):
        hands, leader, state = random_deal(state)
        _, state, rows = play_hand(
            hands, leader, kinds[e], net, other, epsilon, noise, state, x_out, y_out, rows
        )
    return rows


@njit
def versus_greedy(seeds, net):
    """For each deal (one per seed): the network's points minus the mean of the two
    greedy bots', over the three seats it can hold, it playing its best card."""
    out = np.empty(len(seeds))
    no_rows = np.empty((0, pk.POLICY_FEATURES), dtype=np.float32)
    no_targets = np.empty(0, dtype=np.float32)
    kinds = np.empty(3, dtype=np.int64)
    for i in range(len(seeds)):
        total = 0.0
        for seat in range(3):
            hands, leader, _ = random_deal(seeds[i])
            kinds[:] = GREEDY
            kinds[seat] = NET
            points, _, _ = play_hand(
                hands, leader, kinds, net, net, 0.0, 0.0, 0, no_rows, no_targets, 0
            )
            total += points[seat] - (12 - points[seat]) / 2.0
        out[i] = total / 3.0
    return out


class PolicyNetwork(Network):
    """Two hidden layers and one output: a card's value."""

    @classmethod
    def load(cls, path) -> PolicyNetwork:
        net = cls.__new__(cls)
        with np.load(path) as weights:
            net.weights = [weights["w1"], weights["w2"], weights["w3"][:, None]]
            net.biases = [weights["b1"], weights["b2"], weights["b3"]]
        net.weights = [w.astype(np.float32) for w in net.weights]
        net.biases = [b.astype(np.float32) for b in net.biases]
        return net

    def arrays(self) -> dict:
        """The weights as ``solver.card_policy`` reads them."""
        w1, w2, w3 = self.weights
        b1, b2, b3 = self.biases
        return {"w1": w1, "b1": b1, "w2": w2, "b2": b2, "w3": w3[:, 0], "b3": b3}

    def kernel_net(self) -> pk.PolicyNet:
        arrays = self.arrays()
        return pk.PolicyNet(
            *(np.ascontiguousarray(arrays[n], dtype=np.float64) for n in pk.PolicyNet._fields)
        )

    def save(self, path) -> None:
        np.savez(path, **self.arrays())


def fit_rows(net: PolicyNetwork, adam: Adam, x, y, batch: int, rng) -> float:
    """One pass of Adam over the rows in random order; their mean squared error
    before each step."""
    order = rng.permutation(len(x))
    loss = 0.0
    for s in range(0, len(x), batch):
        rows = order[s : s + batch]
        layers = net.layers(x[rows])
        error = layers[-1][:, 0] - y[rows]
        loss += float((error * error).sum())
        adam.step(net.gradients(layers, (2 * error / len(rows))[:, None]))
    return loss / max(1, len(x))


def parse_mix(text: str) -> tuple[np.ndarray, np.ndarray]:
    """``--mix`` as (kinds, probabilities)."""
    kinds, weights = [], []
    for part in text.split(","):
        name, _, weight = part.partition(":")
        kinds.append(KINDS[name.strip()])
        weights.append(float(weight))
    weights = np.array(weights)
    return np.array(kinds), weights / weights.sum()


def draw_kinds(episodes: int, mix, have_snapshots: bool, rng) -> np.ndarray:
    """Who plays each seat of each hand, at least one learner a hand; with no
    snapshot yet, a snapshot seat is a learner."""
    kinds = rng.choice(mix[0], size=(episodes, 3), p=mix[1])
    if not have_snapshots:
        kinds[kinds == NET] = LEARNER
    none = ~(kinds == LEARNER).any(1)
    kinds[none, rng.integers(0, 3, none.sum())] = LEARNER
    return kinds


def evaluate(net: PolicyNetwork, seeds) -> tuple[float, float]:
    """Mean and 95% half-width of ``versus_greedy`` over the deals."""
    diffs = versus_greedy(seeds, net.kernel_net())
    return float(diffs.mean()), float(1.96 * diffs.std(ddof=1) / np.sqrt(len(diffs)))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("--out", required=True, help="directory for checkpoints and best.npz")
    parser.add_argument("--minutes", type=float, default=60.0, help="training time")
    parser.add_argument("--rounds", type=int, help="stop after this many rounds")
    parser.add_argument("--hidden", default="128,64", help="hidden layer sizes")
    parser.add_argument("--episodes", type=int, default=64, help="hands a round")
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--rate", type=float, default=3e-4, help="Adam's step size")
    parser.add_argument("--epsilon", type=float, default=0.03, help="learners' random cards")
    parser.add_argument("--noise", type=float, default=0.2, help="noisy greedy's random cards")
    parser.add_argument(
        "--mix",
        default="learner:0.45,greedy:0.25,noisy:0.1,snapshot:0.2",
        help="who plays the seats: learner, greedy, noisy (greedy), snapshot",
    )
    parser.add_argument("--snapshots", type=int, default=5, help="earlier versions kept")
    parser.add_argument("--eval-minutes", type=float, default=5.0)
    parser.add_argument("--eval-deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=TRAIN_SEED)
    parser.add_argument("--init", help="start from these weights instead of random ones")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    eval_seeds = np.random.default_rng(EVAL_SEED).integers(0, 2**62, args.eval_deals)
    mix = parse_mix(args.mix)
    hidden = [int(h) for h in args.hidden.split(",")]
    net = (
        PolicyNetwork.load(args.init)
        if args.init
        else PolicyNetwork([pk.POLICY_FEATURES, *hidden, 1], rng)
    )
    adam = Adam(net, args.rate)
    x = np.zeros((args.episodes * 48, pk.POLICY_FEATURES), dtype=np.float32)
    y = np.zeros(args.episodes * 48, dtype=np.float32)
    snapshots: list[pk.PolicyNet] = []
    start = time.perf_counter()
    best = -np.inf
    rounds = hands = decisions = 0
    losses = []
    next_eval = 0.0

    def checkpoint(final: bool) -> None:
        nonlocal best
        minutes = (time.perf_counter() - start) / 60
        name = out / f"checkpoint_{rounds:07d}.npz"
        net.save(name)
        mean, half = evaluate(net, eval_seeds)
        if mean > best:
            best = mean
            net.save(out / "best.npz")
        snapshots.append(net.kernel_net())
        del snapshots[: -args.snapshots]
        loss = np.mean(losses) if losses else float("nan")
        losses.clear()
        print(
            f"{minutes:7.1f} min  round {rounds}  hands {hands}  decisions {decisions}  "
            f"loss {loss:.3f}  vs greedy {mean:+.3f} +- {half:.3f}  {name.name}"
            + ("  (final)" if final else ""),
            flush=True,
        )

    while True:
        elapsed = (time.perf_counter() - start) / 60
        if elapsed >= args.minutes or (args.rounds is not None and rounds >= args.rounds):
            break
        if elapsed >= next_eval:
            checkpoint(False)
            next_eval = elapsed + args.eval_minutes
        kinds = draw_kinds(args.episodes, mix, bool(snapshots), rng)
        other = snapshots[rng.integers(len(snapshots))] if snapshots else net.kernel_net()
        seed = int(rng.integers(0, 2**62))
        rows = play_episodes(kinds, seed, net.kernel_net(), other, args.epsilon, args.noise, x, y)
        losses.append(fit_rows(net, adam, x[:rows], y[:rows], args.batch, rng))
        rounds += 1
        hands += args.episodes
        decisions += rows
    checkpoint(True)
    print(f"best vs greedy {best:+.3f} (evaluation deals); weights in {out / 'best.npz'}")


if __name__ == "__main__":
    main()
