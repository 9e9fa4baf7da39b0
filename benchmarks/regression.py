"""The benchmark suites as a regression set: their endings with both modes' values, committed.

``regression.jsonl`` holds the 6- and 8-card endings of ``suite_paranoid.txt``
and the 7-card ones of ``suite_maxn.txt``, one JSON object a line: the
position, each seat's guaranteed value and the equilibrium. ``python -m
benchmarks.regression --make`` wrote it with ``coins batch``'s code
(``analysis.batch``, mode both); ``python -m benchmarks.regression`` solves
them again and lists any value that changed (``tests/test_regression_benchmark.py``
does the same). Remake it only when a value is shown to be wrong.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from analysis.batch import BatchOptions, load_output, read_lines, run_batch

HERE = Path(__file__).resolve().parent
REGRESSION = HERE / "regression.jsonl"
SOURCES = ((HERE / "suite_paranoid.txt", (6, 8)), (HERE / "suite_maxn.txt", (7,)))
VALUES = ("position", "guaranteed", "equilibrium")


def positions(max_cards: int | None = None) -> list[str]:
    """The regression set's positions, in file order (``max_cards``: only the smaller ones)."""
    out = []
    for path, sizes in SOURCES:
        for _, text in read_lines(path.read_text().splitlines()):
            cards = len(text.split(" ")[0].replace(".", ""))  # seat 0 leads: a full hand
            if cards in sizes and (max_cards is None or cards <= max_cards):
                out.append(text)
    return out


def solve_all(texts: list[str], workers: int | None = None) -> list[dict]:
    """``VALUES`` of each position, in order, solved as ``coins batch --mode both`` does."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "out.jsonl"
        run_batch(list(enumerate(texts, start=1)), out, BatchOptions("both"), workers=workers)
        done, _ = load_output(out)
    if any("error" in r or not r["exact"] for r in done.values()):
        raise RuntimeError("a regression position failed to solve exactly")
    return [{k: done[n][k] for k in VALUES} for n in range(1, len(texts) + 1)]


def read() -> list[dict]:
    return [json.loads(line) for line in REGRESSION.read_text().splitlines()]


def differences(expected: list[dict], found: list[dict]) -> list[str]:
    return [f"{e['position']}: expected {e}, found {f}" for e, f in zip(expected, found) if e != f]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.regression", description=__doc__)
    parser.add_argument("--make", action="store_true", help="write regression.jsonl afresh")
    parser.add_argument("--workers", type=int, help="worker processes (default: all cores)")
    args = parser.parse_args(argv)
    found = solve_all(positions(), args.workers)
    if args.make:
        REGRESSION.write_text("".join(json.dumps(r) + "\n" for r in found))
        print(f"wrote {REGRESSION}: {len(found)} positions")
        return 0
    changed = differences(read(), found)
    print("\n".join(changed) or f"all {len(found)} positions keep their values")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
