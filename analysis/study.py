"""Endgame studies: random endings under constraints, solved in a batch, and their statistics.

``study_lines(spec)`` makes the positions (reproducible by seed) as numbered
lines for ``analysis.batch.run_batch``; ``aggregate(records)`` reads the
batch's records (mode ``both`` with card values and lines, as ``coins
study`` runs it) and returns the statistics people ask for:

- ``by_seat``: for each seat counted from the leader (``leader``,
  ``second``, ``third``), the distribution and mean of its guaranteed and
  equilibrium points;
- ``lead``: the value of leading: the leader's mean points minus the mean of
  the other two seats', in both modes (positions with no trick on the table);
- ``coin_first``: how often the mover's equilibrium card (the first card of
  the max^n line) is a Coin, and how often some paranoid-optimal card is;
- ``card_worth``: for each card, the mean equilibrium points of the seat
  holding it, over the positions where some seat holds it.
"""

from __future__ import annotations

import csv
import io
import json
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import partial

from solver import Position, checks
from solver.cards import (
    COINS,
    COINS_MASK,
    DECK_SIZE,
    HAND_SIZE,
    RANKS_PER_SUIT,
    SEATS,
    Card,
    cards_in,
    popcount,
)

from .batch import MAX_LINES, BatchError, BatchOptions, GeneratedLines
from .drawing import pyplot, writing

RELATIVE_SEATS = ("leader", "second", "third")
MAX_ATTEMPTS = 10_000
STUDY_OPTIONS = BatchOptions("both", card_values=True, lines=True)


@dataclass(frozen=True)
class StudySpec:
    """Which random endings to study: ``count`` of them, ``cards`` a hand, from ``seed``.

    ``leader``: the seat to lead (None: a random seat each); ``coins_left``:
    exactly that many Coins in the hands (None: any); ``hold`` / ``not_hold``:
    per seat, a mask of cards it must / must not hold; ``trick``: 0-2 cards
    already played to the current trick (random cards of the seats to play
    first, never one they must hold), so that the study starts mid-trick.
    """

    count: int
    cards: int
    seed: int = 0
    leader: int | None = None
    coins_left: int | None = None
    hold: tuple[int, int, int] = (0, 0, 0)
    not_hold: tuple[int, int, int] = (0, 0, 0)
    trick: int = 0

    def __post_init__(self):
        checks.whole_number(self.count, "the number of positions", 0, MAX_LINES)
        checks.whole_number(self.cards, "cards per hand", 1, HAND_SIZE)
        checks.seed(self.seed)
        if self.leader is not None:
            checks.whole_number(self.leader, "the leader", 0, SEATS - 1)
        checks.whole_number(self.trick, "cards on the table", 0, SEATS - 1)
        if self.coins_left is not None:
            checks.whole_number(self.coins_left, "the Coins left", 0, RANKS_PER_SUIT)
            if self.coins_left > SEATS * self.cards:
                raise BatchError(
                    f"{self.coins_left} Coins cannot be left in {self.cards}-card hands"
                )
        for seat in range(SEATS):
            if popcount(self.hold[seat]) > self.cards:
                raise BatchError(f"seat {seat} must hold more than {self.cards} cards")
            if self.hold[seat] & self.not_hold[seat]:
                raise BatchError(f"seat {seat} must both hold and not hold a card")
            for other in range(seat + 1, SEATS):
                if self.hold[seat] & self.hold[other]:
                    raise BatchError(f"seats {seat} and {other} must hold the same card")
        if self.coins_left is not None and popcount(sum(self.hold) & COINS_MASK) > self.coins_left:
            raise BatchError(f"the seats must hold more than {self.coins_left} Coins")


def random_study_position(spec: StudySpec, rng: random.Random) -> Position:
    """One position of ``spec``: the held cards placed first, the rest dealt at random,
    then redealt until no seat holds a card it must not (at most ``MAX_ATTEMPTS``)."""
    held = spec.hold[0] | spec.hold[1] | spec.hold[2]
    free = [c for c in range(DECK_SIZE) if not held >> c & 1]
    need = SEATS * spec.cards - popcount(held)
    for _ in range(MAX_ATTEMPTS):
        if spec.coins_left is None:
            chosen = rng.sample(free, need)
        else:
            coins = [c for c in free if COINS_MASK >> c & 1]
            others = [c for c in free if not COINS_MASK >> c & 1]
            wanted = spec.coins_left - popcount(held & COINS_MASK)
            if wanted > len(coins) or need - wanted > len(others) or need < wanted:
                raise BatchError("no deal has that many Coins with those held cards")
            chosen = rng.sample(coins, wanted) + rng.sample(others, need - wanted)
            rng.shuffle(chosen)
        hands = list(spec.hold)
        for card in chosen:
            seat = min(
                (s for s in range(SEATS) if popcount(hands[s]) < spec.cards),
                key=lambda s: (rng.random(), s),
            )
            hands[seat] |= 1 << card
        if all(not hands[s] & spec.not_hold[s] for s in range(SEATS)):
            break
    else:
        raise BatchError(f"no deal met the constraints in {MAX_ATTEMPTS} tries")
    leader = spec.leader if spec.leader is not None else rng.randrange(SEATS)
    position = Position(tuple(hands), leader)
    for _ in range(spec.trick):
        seat = position.to_move
        playable = [c for c in position.hand(seat) if not spec.hold[seat] >> c & 1]
        if not playable:
            raise BatchError(f"seat {seat} holds only cards it must hold: none can go to the trick")
        position = position.play(rng.choice(playable))
    return position


def study_lines(spec: StudySpec) -> GeneratedLines:
    """The study's positions as numbered lines (from 1), made as they are read: the same
    spec, the same lines. The first is made at once, so that constraints no deal meets
    are refused before a batch starts."""
    lines = GeneratedLines(spec.count, spec.seed, partial(random_study_position, spec))
    next(iter(lines), None)
    return lines


# ----- statistics -------------------------------------------------------------------


@dataclass
class StudyStats:
    """What ``aggregate`` found (see the module's docstring); ``to_json`` for export."""

    positions: int = 0
    errors: int = 0
    not_exact: int = 0
    by_seat: dict = field(default_factory=dict)
    lead: dict = field(default_factory=dict)
    coin_first: dict = field(default_factory=dict)
    card_worth: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {
            "positions": self.positions,
            "errors": self.errors,
            "not_exact": self.not_exact,
            "by_seat": self.by_seat,
            "lead": self.lead,
            "coin_first": self.coin_first,
            "card_worth": self.card_worth,
        }

    def card_worth_csv(self) -> str:
        """``card,positions,mean_equilibrium`` a card, in index order."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["card", "positions", "mean_equilibrium"])
        for card, row in self.card_worth.items():
            writer.writerow([card, row["positions"], row["mean_equilibrium"]])
        return out.getvalue()

    def by_seat_csv(self) -> str:
        """``seat,mode,points,count`` rows: the distributions of ``by_seat``."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["seat", "mode", "points", "count"])
        for seat, modes in self.by_seat.items():
            for mode in ("guaranteed", "equilibrium"):
                for points, count in modes[mode]["histogram"].items():
                    writer.writerow([seat, mode, points, count])
        return out.getvalue()


def _mean(values) -> float | None:
    values = list(values)
    return round(sum(values) / len(values), 4) if values else None


def aggregate(records: Iterable[dict]) -> StudyStats:
    """The statistics of a study's batch records (mode ``both``; card values and lines make
    ``coin_first``). Error records are counted, records not exact are left out."""
    stats = StudyStats()
    per_seat = {name: {"guaranteed": [], "equilibrium": []} for name in RELATIVE_SEATS}
    lead = {"guaranteed": [], "equilibrium": []}
    first = Counter()
    worth: dict[int, list[int]] = {card: [] for card in range(DECK_SIZE)}
    for record in records:
        if "error" in record:
            stats.errors += 1
            continue
        if not record.get("exact") or record.get("equilibrium") is None:
            stats.not_exact += 1
            continue
        stats.positions += 1
        position = Position.parse(record["position"])
        guaranteed, equilibrium = record["guaranteed"], record["equilibrium"]
        for offset, name in enumerate(RELATIVE_SEATS):
            seat = (position.leader + offset) % SEATS
            per_seat[name]["guaranteed"].append(guaranteed[seat])
            per_seat[name]["equilibrium"].append(equilibrium[seat])
        if not position.trick:
            for mode, values in (("guaranteed", guaranteed), ("equilibrium", equilibrium)):
                others = [values[s] for s in range(SEATS) if s != position.leader]
                lead[mode].append(values[position.leader] - sum(others) / 2)
        line = record.get("equilibrium_line")
        if line:
            first["equilibrium"] += Card.parse(line[0]).suit == COINS
            first["with_line"] += 1
        if record.get("optimal"):
            first["paranoid"] += any(Card.parse(c).suit == COINS for c in record["optimal"])
            first["with_optimal"] += 1
        for seat in range(SEATS):
            for card in cards_in(position.hands[seat]):
                worth[int(card)].append(equilibrium[seat])
    for name, modes in per_seat.items():
        stats.by_seat[name] = {
            mode: {
                "mean": _mean(values),
                "histogram": {str(p): n for p, n in sorted(Counter(values).items())},
            }
            for mode, values in modes.items()
        }
    stats.lead = {
        mode: {"positions": len(v), "mean_advantage": _mean(v)} for mode, v in lead.items()
    }
    stats.coin_first = {
        "equilibrium_card_is_a_coin": _share(first["equilibrium"], first["with_line"]),
        "some_optimal_card_is_a_coin": _share(first["paranoid"], first["with_optimal"]),
    }
    stats.card_worth = {
        str(Card(card)): {"positions": len(v), "mean_equilibrium": _mean(v)}
        for card, v in worth.items()
    }
    return stats


def _share(hits: int, total: int) -> dict:
    return {"count": hits, "of": total, "share": round(hits / total, 4) if total else None}


# ----- files ------------------------------------------------------------------------


def csv_paths(prefix: str) -> list[str]:
    """The files ``write_exports`` writes for a CSV prefix: the seats', the cards'."""
    return [f"{prefix}-seats.csv", f"{prefix}-cards.csv"]


def plot_paths(prefix: str) -> list[str]:
    """The files ``plot_study`` draws for a prefix: the histograms, the box plots."""
    return [f"{prefix}-histograms.png", f"{prefix}-seats.png"]


def export_paths(json_file=None, csv_prefix=None, plot_prefix=None) -> list[str]:
    """The files ``write_exports`` writes for these exports (each when given)."""
    paths = [] if json_file is None else [json_file]
    paths += [] if csv_prefix is None else csv_paths(csv_prefix)
    return paths + ([] if plot_prefix is None else plot_paths(plot_prefix))


def check_exports(json_file=None, csv_prefix=None, plot_prefix=None, results=None) -> None:
    """Refuse, before a study runs, exports it could not write: a file that cannot be
    written, or that is the ``results`` file or another export (``PathError``), plots
    without matplotlib (``BatchError``)."""
    paths = export_paths(json_file, csv_prefix, plot_prefix)
    for number, path in enumerate(paths):
        others = {"the results file": results} | {f"also the export {p}": p for p in paths[:number]}
        checks.output_file(path, "the export", others)
    if plot_prefix is not None:
        pyplot()


def write_exports(
    stats: StudyStats, json_file=None, csv_prefix=None, plot_prefix=None
) -> list[str]:
    """Write the statistics as JSON to ``json_file``, as CSV to ``csv_paths(csv_prefix)``
    and drawn to ``plot_paths(plot_prefix)`` (each when given); return the paths."""
    check_exports(json_file, csv_prefix, plot_prefix)
    texts = {} if json_file is None else {json_file: json.dumps(stats.to_json(), indent=1)}
    if csv_prefix is not None:
        texts |= dict(zip(csv_paths(csv_prefix), (stats.by_seat_csv(), stats.card_worth_csv())))
    with writing():
        for path, text in texts.items():
            with open(path, "w", encoding="utf-8") as file:
                file.write(text)
    return [*texts, *([] if plot_prefix is None else plot_study(stats, plot_prefix))]


def plot_study(stats: StudyStats, prefix: str) -> list[str]:
    """Write ``PREFIX-histograms.png`` (each seat's points, by place from the leader, in both
    modes) and ``PREFIX-seats.png`` (box plots of the same); return the paths. Needs
    matplotlib (``pip install ".[plots]"``)."""
    check_exports(plot_prefix=prefix)
    plt = pyplot()
    modes = ("guaranteed", "equilibrium")
    samples = {
        (name, mode): [
            int(p) for p, n in stats.by_seat[name][mode]["histogram"].items() for _ in range(n)
        ]
        for name in RELATIVE_SEATS
        if name in stats.by_seat
        for mode in modes
    }
    top = max((max(v) for v in samples.values() if v), default=0)
    paths = plot_paths(prefix)
    figure, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for axis, mode in zip(axes, modes):
        bins = [b - 0.5 for b in range(top + 2)]
        data = [samples.get((name, mode), []) for name in RELATIVE_SEATS]
        axis.hist(data, bins=bins, label=list(RELATIVE_SEATS))
        axis.set_title(f"{mode} points")
        axis.set_xlabel("Coins won from the position on")
        axis.set_xticks(range(top + 1))
    axes[0].set_ylabel("positions")
    axes[0].legend(title="seat")
    figure.suptitle(f"{stats.positions} positions")
    figure.tight_layout()
    with writing():
        figure.savefig(paths[0], dpi=100)
    plt.close(figure)
    figure, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for axis, mode in zip(axes, modes):
        axis.boxplot([samples.get((name, mode), []) for name in RELATIVE_SEATS], showmeans=True)
        axis.set_xticks(range(1, len(RELATIVE_SEATS) + 1), list(RELATIVE_SEATS))
        axis.set_title(f"{mode} points by seat (triangle: mean)")
    axes[0].set_ylabel("Coins won from the position on")
    figure.tight_layout()
    with writing():
        figure.savefig(paths[1], dpi=100)
    plt.close(figure)
    return paths
