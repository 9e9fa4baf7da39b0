"""The next-hands model of RULES.md: each seat's chance of winning a match from the
points each seat still needs at the start of a hand and the seat that leads it.

Hands are sampled by self-play of the greedy bot (``solver.playouts``) from
random deals: each sampled hand is its sixteen tricks, as (winner counted
from the leader, Coins in the trick). A dynamic programme over the needs
then gives the chances: for needs (a, b, c) of the leader, the next seat and
the third, each sampled hand is walked trick by trick; the first seat whose
Coins reach its need wins the match there (mid-hand too), and a hand that
leaves every need unmet hands on to the state its totals leave, led by the
winner of its last trick (whose sum of needs is 12 smaller, so it is
already known). The chances of a state are the mean over the sampled hands.

Sampling error: the hands are split into ``--groups`` groups and the table
is made again from each group alone; the spread of those tables over
sqrt(groups) estimates the standard error of the full table, state by
state (the error of the next states carried along). The run prints it, and
the data file keeps its maximum and mean.

The model's own approximation is larger than that: every hand is played
as greedy plays it, whatever the scores, while real players (and the
match-aware bots) play for the match.

    python training/make_next_hands.py --hands 60000 --seed 1 --out solver/next_hands.npz
"""

from __future__ import annotations

import argparse
import random
import time

import numba
import numpy as np

from solver.playouts import play_until
from solver.rules import deal, first_leader

TRICKS = 16


def sample_hands(count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``count`` greedy self-play hands: the winner of each trick counted from
    the hand's leader (0 the leader, 1 the next seat, 2 the third) and its Coins."""
    rng = random.Random(seed)
    winners = np.empty((count, TRICKS), dtype=np.int64)
    points = np.empty((count, TRICKS), dtype=np.int64)
    for h in range(count):
        dealer = rng.randrange(3)
        hands, leader = list(deal(dealer, rng)), first_leader(dealer)
        first = leader
        for t in range(TRICKS):
            hands, leader, _, won = play_until(hands, leader, (), rng, 0.0, TRICKS - 1 - t)
            winners[h, t] = (leader - first) % 3
            points[h, t] = sum(won)
    return winners, points


@numba.njit(cache=False)
def chances_table(winners, points, most):
    """The chances of (leader, next, third) for needs 1..``most`` each:
    ``table[a - 1, b - 1, c - 1]``; see the module docstring."""
    count = winners.shape[0]
    # the trick (0-15) at which each seat's Coins in the hand first reach k (1-12); 16: never
    reach = np.full((count, 3, 13), TRICKS, dtype=np.int64)
    totals = np.zeros((count, 3), dtype=np.int64)
    for h in range(count):
        for t in range(TRICKS):
            w = winners[h, t]
            for k in range(totals[h, w] + 1, totals[h, w] + points[h, t] + 1):
                reach[h, w, k] = t
            totals[h, w] += points[h, t]
    table = np.zeros((most, most, most, 3))
    for total in range(3, 3 * most + 1):
        for a in range(1, most + 1):
            for b in range(1, most + 1):
                c = total - a - b
                if c < 1 or c > most:
                    continue
                needs = (a, b, c)
                sums = np.zeros(3)
                for h in range(count):
                    first, who = TRICKS, -1
                    for s in range(3):
                        if needs[s] <= 12 and reach[h, s, needs[s]] < first:
                            first, who = reach[h, s, needs[s]], s
                    if who >= 0:
                        sums[who] += 1.0
                        continue
                    last = winners[h, TRICKS - 1]  # leads the next hand
                    n0 = needs[last] - totals[h, last]
                    n1 = needs[(last + 1) % 3] - totals[h, (last + 1) % 3]
                    n2 = needs[(last + 2) % 3] - totals[h, (last + 2) % 3]
                    for j in range(3):
                        sums[(last + j) % 3] += table[n0 - 1, n1 - 1, n2 - 1, j]
                for s in range(3):
                    table[a - 1, b - 1, c - 1, s] = sums[s] / count
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("--hands", type=int, default=60_000, help="greedy hands to sample")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--most", type=int, default=30, help="the largest need in the table")
    parser.add_argument("--groups", type=int, default=10, help="groups for the standard error")
    parser.add_argument("--out", required=True, help="the .npz file to write")
    args = parser.parse_args()

    start = time.perf_counter()
    winners, points = sample_hands(args.hands, args.seed)
    assert (points.sum(axis=1) == 12).all()
    sampled = time.perf_counter()
    table = chances_table(winners, points, args.most)
    groups = np.array_split(np.arange(args.hands), args.groups)
    parts = np.stack([chances_table(winners[g], points[g], args.most) for g in groups])
    stderr = parts.std(axis=0, ddof=1) / np.sqrt(args.groups)
    np.savez_compressed(
        args.out,
        chances=table.astype(np.float32),
        hands=args.hands,
        seed=args.seed,
        policy="greedy",
        stderr_max=stderr.max(),
        stderr_mean=stderr.mean(),
    )
    by_leader = np.bincount(winners[:, -1], minlength=3) / args.hands
    coins = np.array([points[winners == s].sum() for s in range(3)]) / args.hands
    print(
        f"{args.hands} greedy hands in {sampled - start:.1f} s, table of needs 1-{args.most} "
        f"in {time.perf_counter() - sampled:.1f} s"
    )
    print(
        f"Coins a hand by seat from the leader: {np.round(coins, 3).tolist()}; "
        f"last trick won: {np.round(by_leader, 3).tolist()}"
    )
    print(
        f"standard error over {args.groups} groups: max {stderr.max():.4f}, "
        f"mean {stderr.mean():.4f}, 95th percentile {np.quantile(stderr, 0.95):.4f}"
    )
    for needs in ((1, 1, 1), (2, 5, 8), (15, 15, 15), (30, 30, 30)):
        a, b, c = needs
        print(f"needs {needs} (leader first): {np.round(table[a - 1, b - 1, c - 1], 4).tolist()}")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
