"""Position sets from several sources, with exact answers, kept apart by role.

An estimate chosen on positions from one generator may fail on positions
players reach. These sets draw 8- to 10-card positions from several
*sources*, each labelled with every card's exact max^n result for the mover
(``solver.solve_maxn``) and tagged with its source, so that a benchmark
(``python -m benchmarks.evaluator --suite benchmarks/sets/choose.jsonl``)
reports each source apart.

Sources, each from its own seed:

- ``random``, ``greedy``, ``slips``, ``pimc``, ``hint``, ``match``: a full
  deal (any dealer) played down to the size by that kind of play, then 0, 1
  or 2 more cards by the same play. ``slips`` is greedy play with a random
  card at probability ``SLIP``; ``pimc`` the pimc bot at a small budget;
  ``hint`` the hint with its other options (weighted deals from the record,
  the learned evaluation); ``match`` the pimc bot playing for the match, at
  scores drawn at random below the target.
- ``ending``, ``ending-taken``, ``ending-coins``: random endings, any leader,
  then 0, 1 or 2 random cards: the cards dealt uniformly with no Coins
  taken; the same with the earlier tricks' Coins taken by random seats; and
  every Coin still in the hands (none played before).

Roles: ``train`` (labels to train on), ``choose`` (to choose among
estimates) and ``test`` (generated once, after the choices, from seeds
nothing was tuned on; ``test2`` a second one, drawn after the first had been
looked at three times; ``test3`` a third, drawn after the committee was
chosen). Each role has its own seed range, disjoint from the
others' and from the project's other sets; the file's first line records it.
A train or choose file is resumed where it stopped; a test set is written to
a ``.partial`` file and renamed when complete, and is never written over::

    python -m benchmarks.sources --role choose --sizes 8:16,9:12,10:6
    python -m benchmarks.sources --role train --sizes 8:10,9:8
    python -m benchmarks.sources --role test --sizes 8:8,9:12,10:16   # once, last (hours)
    python -m benchmarks.sources --role test2 --sizes 8:4,9:12,10:16  # once, later
    python -m benchmarks.sources --role test3 --sizes 8:4,9:12,10:20  # once, later still
    python -m benchmarks.sources --summary benchmarks/sets/choose.jsonl
    python -m benchmarks.sources --check
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from analysis.bots import PimcBot, greedy_bot, random_bot
from solver import MatchState, Position, Record
from solver.cards import COINS_MASK, DECK_SIZE, HAND_SIZE, SEATS, cards_in
from solver.rules import deal, first_leader

from . import evaluator

SETS = Path(__file__).resolve().parent / "sets"
# Each role's seeds: position j of size K from source s has seed
# ROLES[role] + SOURCE_SPAN * s + SIZE_SPAN * K + j.
ROLES = {
    "train": 5_000_000,
    "choose": 6_000_000,
    "test": 7_000_000,
    "test2": 8_000_000,
    "test3": 9_000_000,
}
# Sets generated once and never written over: "test2" was drawn after the first
# test set had been looked at three times, "test3" after the estimate's committee
# was chosen (docs/experiments.md).
TEST_ROLES = ("test", "test2", "test3")
ROLE_SPAN = 1_000_000
SOURCE_SPAN = 20_000
SIZE_SPAN = 1_000
SIZES = (8, 9, 10)
SLIP = 0.2
PIMC_SAMPLES = 10
MATCH_TARGET = 15
PLAYED = ("random", "greedy", "slips", "pimc", "hint", "match")
ENDINGS = ("ending", "ending-taken", "ending-coins")
SOURCES = PLAYED + ENDINGS


def role_seeds(role: str) -> range:
    """Every seed ``role`` may use."""
    return range(ROLES[role], ROLES[role] + ROLE_SPAN)


def other_sets_seeds() -> dict[str, range]:
    """Seeds of the project's earlier sets with exact answers (benchmarks.evaluator)."""
    dev = evaluator.DEV_MADE
    return {
        "suite_evaluator": range(evaluator.FIRST_SEED, evaluator.FIRST_SEED + evaluator.SUITE_SIZE),
        "dev_positions": range(dev["first_seed"], dev["first_seed"] + dev["size"]),
    }


def seeds_overlap() -> list[tuple[str, str]]:
    """Pairs of roles or earlier sets whose seed ranges meet (none, if all is well)."""
    ranges = {role: role_seeds(role) for role in ROLES} | other_sets_seeds()
    names = list(ranges)
    return [
        (a, b)
        for i, a in enumerate(names)
        for b in names[i + 1 :]
        if max(ranges[a].start, ranges[b].start) < min(ranges[a].stop, ranges[b].stop)
    ]


def seed_of(role: str, source: str, cards: int, index: int) -> int:
    if not 0 <= index < SIZE_SPAN or cards not in SIZES:
        raise ValueError(f"no seed for position {index} of {cards} cards")
    return ROLES[role] + SOURCE_SPAN * SOURCES.index(source) + SIZE_SPAN * cards + index


# ----- the kinds of play --------------------------------------------------------------------

# A player here: (record so far, rng) -> card for the seat to move.
Player = Callable[[Record, random.Random], object]


def _slips(position: Position, seat: int, rng: random.Random):
    """Greedy, but a random card with probability SLIP."""
    bot = random_bot if rng.random() < SLIP else greedy_bot
    return bot(position, seat, rng)


def _by_position(bot) -> Player:
    return lambda record, rng: bot(record.final, record.to_move, rng)


def _player(source: str, rng: random.Random) -> tuple[Player, dict]:
    """The play of a played source, and what to record about it (a match's scores)."""
    if source == "random":
        return _by_position(random_bot), {}
    if source == "greedy":
        return _by_position(greedy_bot), {}
    if source == "slips":
        return _by_position(_slips), {}
    if source == "pimc":
        bot = PimcBot(samples=PIMC_SAMPLES, time_limit=0)
        return lambda record, rng: bot.choose_record(record, record.to_move, rng), {}
    if source == "hint":
        bot = PimcBot(samples=PIMC_SAMPLES, time_limit=0, evaluation="search", sampler="weighted")
        return lambda record, rng: bot.choose_record(record, record.to_move, rng), {}
    if source == "match":
        match = MatchState(MATCH_TARGET, tuple(rng.randrange(MATCH_TARGET) for _ in range(SEATS)))
        bot = PimcBot(samples=PIMC_SAMPLES, time_limit=0)
        return (
            lambda record, rng: bot.choose_for_match(record, record.to_move, rng, match),
            {"match": match.to_json()},
        )
    raise ValueError(f"{source} is not a played source")


def _play(
    start: Position, player: Player, moves: int, rng: random.Random, about: dict
) -> Position | None:
    """The position ``moves`` cards after ``start``, each chosen by ``player``;
    None if a match in ``about`` ends on the way (a seat reaches the target)."""
    played = []
    position = start
    for _ in range(moves):
        played.append(player(Record.of(start, played), rng))
        position = position.play(played[-1])
        if "match" in about and not _match_goes_on(position, about["match"]):
            return None
    return position


def _match_goes_on(position: Position, match: dict) -> bool:
    """No seat's total (score plus taken) has reached the target."""
    return all(s + t < match["target"] for s, t in zip(match["scores"], position.taken))


def _ending(source: str, cards: int, rng: random.Random) -> Position:
    """A random ending of ``cards`` a hand, dealt as ``source`` says, any leader."""
    leader = rng.randrange(SEATS)
    deck = list(range(DECK_SIZE))
    if source == "ending-coins":
        coins = cards_in(COINS_MASK)
        others = [c for c in deck if c not in coins]
        chosen = coins + rng.sample(others, SEATS * cards - len(coins))
        rng.shuffle(chosen)
    else:
        chosen = rng.sample(deck, SEATS * cards)
    hands = [0, 0, 0]
    for i, card in enumerate(chosen):
        hands[i % SEATS] |= 1 << card
    taken = [0, 0, 0]
    if source == "ending-taken":
        played_coins = sum(1 for c in cards_in(COINS_MASK) if c not in chosen)
        for _ in range(played_coins):
            taken[rng.randrange(SEATS)] += 1
    return Position(tuple(hands), leader, (), tuple(taken))


def source_position(source: str, cards: int, seed: int) -> tuple[Position, dict]:
    """The position ``source`` reaches from ``seed``: ``cards`` a hand and
    ``seed % 3`` cards on the table; with what to record about how."""
    rng = random.Random(seed)
    on_table = seed % 3
    if source in ENDINGS:
        start = _ending(source, cards, rng)
        return _play(start, _by_position(random_bot), on_table, rng, {}), {}
    moves = SEATS * (HAND_SIZE - cards) + on_table
    while True:  # a match may end before the position: deal again from the same stream
        player, about = _player(source, rng)
        dealer = rng.randrange(SEATS)
        start = Position(deal(dealer, rng), first_leader(dealer))
        position = _play(start, player, moves, rng, about)
        if position is not None:
            return position, about


# ----- the files ----------------------------------------------------------------------------


def set_path(role: str) -> Path:
    return SETS / f"{role}.jsonl"


def header(role: str) -> dict:
    """The file's first line: its role and seeds (``--summary`` counts what it holds)."""
    seeds = role_seeds(role)
    return {
        "set": role,
        "seeds": [seeds.start, seeds.stop - 1],
        "seed_rule": f"{ROLES[role]} + {SOURCE_SPAN} * source number + {SIZE_SPAN} * cards + j",
        "sources": list(SOURCES),
        "made_by": "python -m benchmarks.sources",
    }


def planned(
    role: str, sizes: dict[int, int], sources: tuple[str, ...] | None = None
) -> list[tuple[str, int, int]]:
    """(source, cards, seed) of every position of ``sources`` (default all),
    round robin over sources and sizes so that a run stopped early leaves
    every source alike."""
    return [
        (source, cards, seed_of(role, source, cards, j))
        for j in range(max(sizes.values()))
        for cards in sorted(sizes)
        if j < sizes[cards]
        for source in sources or SOURCES
    ]


class SetExists(Exception):
    """A test set is never written over."""


def make_set(
    role: str,
    sizes: dict[int, int],
    path: Path | None = None,
    threads: int = 2,
    sources: tuple[str, ...] | None = None,
) -> Path:
    """Label every planned position of ``role`` into ``path`` (resuming a train
    or choose file; a test set only from nothing, through a ``.partial`` file);
    ``sources`` tops up some sources only (default all)."""
    path = path or set_path(role)
    target = path
    if role in TEST_ROLES:
        if path.exists():
            raise SetExists(f"{path} exists: a test set is generated once and never again")
        target = path.with_name(path.name + ".partial")
    records = read_records(target) if target.exists() else []
    if target.exists():
        if read_header(target)["set"] != role:
            raise SetExists(f"{target} holds another role's set")
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(header(role)) + "\n")
    done = {r["seed"] for r in records}
    for source, cards, seed in planned(role, sizes, sources):
        if seed in done:
            continue
        position, about = source_position(source, cards, seed)
        record = {"index": len(done), "source": source, "seed": seed, "position": str(position)}
        record |= about | evaluator.exact_answers(position, threads)
        with target.open("a") as out:
            out.write(json.dumps(record) + "\n")
        done.add(seed)
        print(record["index"], source, cards, record["seconds"], flush=True)
    if target != path:
        target.rename(path)
    return path


def read_header(path: Path) -> dict:
    with path.open() as lines:
        return json.loads(next(lines))


def read_records(path: Path) -> list[dict]:
    """The positions of a set (the header left out)."""
    return evaluator.read_suite(path)


def set_files() -> list[Path]:
    """Every set file under ``SETS``, a test set's ``.partial`` part included."""
    return sorted(SETS.glob("*.jsonl*"))


def misplaced_seeds(path: Path) -> list[int]:
    """Seeds in the file outside its role's range (none, if all is well)."""
    seeds = role_seeds(read_header(path)["set"])
    return [r["seed"] for r in read_records(path) if r["seed"] not in seeds]


def summary(path: Path) -> dict[str, dict]:
    """Per source: positions, decisive ones, positions per size."""
    rows: dict[str, dict] = {}
    for record in read_records(path):
        row = rows.setdefault(record["source"], {"positions": 0, "decisive": 0, "sizes": Counter()})
        row["positions"] += 1
        row["decisive"] += evaluator.differs(record)
        row["sizes"][Position.parse(record["position"]).cards_per_hand] += 1
    return rows


def parse_sizes(text: str) -> dict[int, int]:
    """``8:16,9:16,10:3`` -> positions per source of each size."""
    pairs = (part.split(":") for part in text.split(","))
    return {int(cards): int(count) for cards, count in pairs}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.sources", description=__doc__.partition("\n\n")[0]
    )
    parser.add_argument("--role", choices=list(ROLES), help="make (or resume) this role's set")
    parser.add_argument(
        "--sizes",
        type=parse_sizes,
        default={8: 16, 9: 12, 10: 6},
        help="per source (8:16,9:12,10:6)",
    )
    parser.add_argument(
        "--sources",
        type=lambda text: tuple(text.split(",")),
        help="only these sources (to top up those short of decisive positions)",
    )
    parser.add_argument("--output", type=Path, help="default benchmarks/sets/ROLE.jsonl")
    parser.add_argument("--threads", type=int, default=2, help="threads of each exact solve")
    parser.add_argument("--summary", type=Path, help="positions and decisive ones per source")
    parser.add_argument(
        "--check", action="store_true", help="role seeds disjoint, every set file within its own"
    )
    args = parser.parse_args(argv)
    if args.role:
        make_set(args.role, args.sizes, args.output, args.threads, args.sources)
    if args.summary:
        for source, row in summary(args.summary).items():
            sizes = ", ".join(f"{k}: {n}" for k, n in sorted(row["sizes"].items()))
            print(f"{source}: {row['positions']} positions, {row['decisive']} decisive ({sizes})")
    if args.check:
        overlaps = seeds_overlap()
        misplaced = {p.name: misplaced_seeds(p) for p in set_files()}
        print("seed ranges:", "disjoint" if not overlaps else f"overlap {overlaps}")
        for name, seeds in misplaced.items():
            print(f"{name}: {'every seed in its range' if not seeds else seeds}")
        if overlaps or any(misplaced.values()):
            raise SystemExit(1)


if __name__ == "__main__":
    main()
