"""How large a proof is, trick by trick, against the ways the pair can spend its cards.

``python -m research.proof_shape`` runs single tests of the guaranteed
value ("can seat 0 be sure of NEED points?") on endings of
``suite_paranoid.txt``, each on one thread in a fresh table large enough
to keep every entry, and counts the trick-boundary positions the table then
holds by cards left in each hand. Beside each count it puts C(n, k)**2:
the ways the pair can have spent k cards each of its n, since with no duty
to follow suit any card can go at any trick. A proof that the seat can
score has to answer all of them, so its size follows C(2n, n) (their sum
over the hand) however well the moves are ordered: 2.7 million at 12 cards
a hand, 40 million at 14, 601 million at 16. The default tests are the two
that decide the value of four endings, the one that holds and the one that
fails. See research/README.md.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable
from pathlib import Path

import numpy as np
from rich import box
from rich.console import Console
from rich.table import Table

from benchmarks.solver import machine, read_suite, short_number
from solver._kernels import _SHORTER_CODES
from solver.compiled import warm_up
from solver.paranoid import ParanoidSearch
from solver.policy import SearchPolicy
from solver.table import TranspositionTable

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "proof_shape.json"
_READ_SLOTS = 1 << 22  # slots ``cards_left`` reads at a time (64 MiB)
# SIZE:INDEX:NEED, the value's two deciding tests of endings worth 2, 2, 1 and 2 to seat 0
DEFAULT_TESTS = ("10:10:2", "10:10:3", "12:1:2", "12:1:3", "12:3:1", "12:3:2", "14:8:2", "14:8:3")


def table_megabytes(cards: int) -> int:
    """Room for every entry of a proof (2 GiB from 14 cards a hand, half as
    much for each card fewer, at least 16 MiB): the default tests' proofs
    fill under a tenth of it, so that replacements lose few entries."""
    return max(16, 2048 >> max(0, 14 - cards))


def cards_left(table: TranspositionTable) -> np.ndarray:
    """Cards each seat holds in the position of each entry of ``table``
    (entries are trick boundaries, where the three hands are equal), read
    off the keys: each suit's code tells its live cards by the count of
    shorter codes it passes (``solver._kernels._suit_code``). A block of
    slots at a time, so that reading a table of gigabytes takes little more
    memory."""
    return np.concatenate(
        [
            _cards_left(table.slots[start : start + _READ_SLOTS])
            for start in range(0, table.entries, _READ_SLOTS)
        ]
    )


def _cards_left(slots: np.ndarray) -> np.ndarray:
    word_a, word_b = slots[:, 0], slots[:, 1]
    used = (word_b >> 24) & 0xFF != 0  # the entry's worth: 0 marks an empty slot
    key_a, key_b = (word_a ^ word_b)[used], (word_b >> 32)[used]
    codes = [(key_a >> (20 * suit)) & 0xFFFFF for suit in range(3)] + [key_b & 0xFFFFF]
    live = sum(np.searchsorted(_SHORTER_CODES, code, side="right") - 1 for code in codes)
    return live // 3


def pair_spendings(cards: int, left: int) -> int:
    """The ways the pair can have spent its cards when ``left`` of ``cards`` remain in each hand."""
    return math.comb(cards, cards - left) ** 2


def run_test(position, need: int) -> dict:
    """One test of seat 0 in a fresh table, and the table's entries by cards left."""
    n = position.cards_per_hand
    table = TranspositionTable(table_megabytes(n))
    search = ParanoidSearch(
        table, None, None, threads=1, policy=SearchPolicy(relaxed_game=False)
    )  # the real game's proof
    holds = search.wins_at_least(position, 0, need)
    left = cards_left(table)
    levels, counts = np.unique(left, return_counts=True)
    by_cards_left = dict(zip(levels.tolist(), counts.tolist()))
    return {
        "position": str(position),
        "cards": n,
        "need": need,
        "holds": holds,
        "nodes": search.nodes,
        "entries": left.size,
        "table_load": left.size / table.entries,
        "by_cards_left": by_cards_left,
        "pair_spendings": {c: pair_spendings(n, c) for c in by_cards_left},
        "entries_per_spending": left.size / math.comb(2 * n, n),
    }


def parse_test(parser: argparse.ArgumentParser, suite: dict, text: str) -> tuple:
    """``SIZE:INDEX:NEED`` as (position, need), or a one-line usage error."""
    try:
        size, index, need = (int(part) for part in text.split(":"))
    except ValueError:
        parser.error(f'test "{text}" is not SIZE:INDEX:NEED, e.g. 12:3:1')
    if size not in suite or not 0 <= index < len(suite[size]):
        sizes = ", ".join(f"{s} ({len(p)} endings)" for s, p in suite.items())
        parser.error(
            f'test "{text}": the suite has no ending #{index} of {size} cards '
            f"(it has {sizes}; counted from 0)"
        )
    if need < 1:
        parser.error(f'test "{text}": NEED must be at least 1 point')
    return suite[size][index], need


def table(records: list[dict]) -> Table:
    """The tests for people, with a warning for any table too full to keep its proof."""
    caption = (
        "peak: the cards left where the proof stored most positions, and those "
        "positions over C(n, k)**2, the ways the pair can have spent k cards each"
    )
    caption += "".join(
        f"; the table of the {r['cards']}-card test of {r['need']} was "
        f"{100 * r['table_load']:.0f}% full: its counts are low"
        for r in records
        if r["table_load"] > 0.25
    )
    out = Table(
        title="Trick-boundary positions a proof stored, against C(2n, n)",
        box=box.SIMPLE,
        pad_edge=False,
        caption=caption,
    )
    for heading in (
        "cards",
        "need",
        "holds",
        "nodes",
        "entries",
        "/ C(2n,n)",
        "peak at",
        "peak ratio",
    ):
        out.add_column(heading, justify="right")
    for r in records:
        peak = max(r["by_cards_left"], key=r["by_cards_left"].get)
        out.add_row(
            str(r["cards"]),
            str(r["need"]),
            "yes" if r["holds"] else "no",
            short_number(r["nodes"]),
            short_number(r["entries"]),
            f"{r['entries_per_spending']:.2f}",
            str(peak),
            f"{r['by_cards_left'][peak] / r['pair_spendings'][peak]:.2f}",
        )
    return out


def parse_tests(
    parser: argparse.ArgumentParser,
    default_tests: tuple[str, ...],
    results: Path,
    argv: list[str] | None,
) -> tuple[argparse.Namespace, list[tuple]]:
    """Add the SIZE:INDEX:NEED tests and ``--output`` to ``parser``, parse
    ``argv``, and read the tests (one-line usage errors for bad ones)."""
    parser.add_argument(
        "tests",
        nargs="*",
        metavar="SIZE:INDEX:NEED",
        help="ending INDEX (from 0) of the suite's SIZE-card ones: can seat 0 be "
        f"sure of NEED points? (default: {' '.join(default_tests)})",
    )
    parser.add_argument(
        "--output",
        type=Path,
        metavar="PATH",
        default=results,
        help=f"where to save the JSON (default {results.relative_to(HERE.parent)})",
    )
    args = parser.parse_args(argv)
    suite = read_suite()
    return args, [parse_test(parser, suite, text) for text in args.tests or default_tests]


def run_tests(tests: list[tuple], run: Callable, output: Path, people_table: Callable) -> dict:
    """``run(position, need)`` for each test, saved to ``output`` with the
    machine, and printed as ``people_table(records)``."""
    console = Console()
    warm_up()  # compile (or load) the kernels before the first test
    records = []
    for position, need in tests:
        console.print(f"{position.cards_per_hand} cards, {position}: can seat 0 be sure of {need}?")
        records.append(run(position, need))
    report = {"machine": machine(), "tests": records}
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(report, indent=1) + "\n")
    console.print(people_table(records))
    console.print(f"saved {output}")
    return report


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(
        prog="python -m research.proof_shape",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    args, tests = parse_tests(parser, DEFAULT_TESTS, RESULTS, argv)
    return run_tests(tests, run_test, args.output, table)


if __name__ == "__main__":
    main()
