"""Exact max^n values of trick-boundary positions, to train the value network on.

Each round deals a root ending (``--sizes`` cards a hand: a random deal, or a
full deal played down to that size by greedy play with trembles or by random
play), solves it exactly, then solves ``--children`` positions one random
trick on and as many two random tricks on (cheap: the root's search left
most of their values in the table). Every trick boundary along each solved
position's equilibrium line is a labelled row: the three hands, the leader
and the points each seat wins from there to the end. Rows are appended to
``OUT.npy`` every 20 rounds (columns h0 h1 h2 leader v0 v1 v2 round).

    python training/make_labels.py --seed 11 --sizes 8,9 --rounds 2000 --out data/labels_11.npy
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from solver import Position
from solver.maxn import solve_maxn
from solver.playouts import play_until


def root_position(rng: random.Random, cards: int) -> Position:
    """A trick-boundary ending of ``cards`` a hand: dealt at random, or reached by play."""
    kind = rng.randrange(3)
    if kind == 0:
        return Position.random(rng, cards, rng.randrange(3))
    deal = Position.random(rng, 16, rng.randrange(3))
    epsilon = 0.25 if kind == 1 else 1.0  # greedy with trembles, or random play
    hands, leader, _, _ = play_until(deal.hands, deal.leader, (), rng, epsilon, cards)
    return Position(tuple(hands), leader)


def random_tricks(position: Position, tricks: int, rng: random.Random) -> Position:
    for _ in range(3 * tricks):
        if position.is_terminal:
            break
        position = position.play(rng.choice(position.legal_cards()))
    return position


def line_rows(position: Position, line) -> list[tuple[int, ...]]:
    """(h0, h1, h2, leader, v0, v1, v2) at each trick boundary of ``line`` from ``position``."""
    visited = [position]
    for card in line:
        visited.append(visited[-1].play(card))
    final = visited[-1].taken
    return [
        (*p.hands, p.leader, *(final[s] - p.taken[s] for s in range(3)))
        for p in visited
        if not p.trick and not p.is_terminal
    ]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--sizes", default="8,9", help="root sizes, cards a hand (comma-separated)")
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--children", type=int, default=40)
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    rng = random.Random(args.seed)
    rows: list[tuple[int, ...]] = []
    start = time.time()
    for round_ in range(args.rounds):
        root = root_position(rng, rng.choice(sizes))
        solved = [root] + [
            random_tricks(root, depth, rng) for depth in (1, 2) for _ in range(args.children)
        ]
        for position in solved:
            if not position.is_terminal:
                line = solve_maxn(position, card_results=False, line=True, threads=1).line
                rows += [row + (round_,) for row in line_rows(position, line)]
        if (round_ + 1) % 20 == 0 or round_ + 1 == args.rounds:
            np.save(args.out, np.array(rows, dtype=np.int64))
            print(f"{round_ + 1} rounds, {len(rows)} rows, {time.time() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
