"""Two benchmark runs compared position by position.

``python -m benchmarks.compare BEFORE.json AFTER.json`` reads two reports
of ``benchmarks.solver`` or ``benchmarks.maxn`` and prints, for each size,
the nodes of each run in all and the geometric mean of the per-position
ratio of nodes (after / before, over the positions both runs finished),
with how many took over 10% fewer or more nodes. Totals and
medians alone hide what a change to the search did: a small change to the
order of moves moves single positions by several times, both ways, and a
few heavy positions outweigh the rest. Run both with ``--threads 1``, where
nodes repeat exactly. It exits with status 1 when the two runs disagree on
a value (a change to the search must not change an answer: intervals
proven for a seat must meet),
and 2 when a file is not such a report.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

from rich import box
from rich.console import Console
from rich.table import Table

from .solver import short_number

# a position whose nodes changed by less than this factor either way counts as unchanged
SAME_WITHIN = 1.1


class NotAReport(Exception):
    """A file that is not a benchmark report."""


def load_report(path: Path) -> tuple[int, dict[tuple[str, str], dict]]:
    """The report's search threads and positions, keyed by size and position text."""
    try:
        report = json.loads(path.read_text())
        records = {
            (str(r["cards"]), r["position"]): r
            for r in report["positions"]
            if isinstance(r["nodes"], int) and isinstance(r["exact"], bool)
        }
        return int(report["options"]["threads"]), records
    except OSError as error:
        raise NotAReport(f"cannot read {path}: {error.strerror}") from None
    except (ValueError, KeyError, TypeError):
        raise NotAReport(
            f"{path} is not a report of benchmarks.solver or benchmarks.maxn (a JSON "
            'object whose "positions" hold cards, position, nodes and exact)'
        ) from None


def proven_intervals(record: dict) -> list:
    """What a record proved, seat by seat: the interval of each guaranteed
    value (None for a seat not asked) in the paranoid benchmark, the
    equilibrium in max^n's (nothing when it was cut short)."""
    if "all_bounds" in record:
        return record["all_bounds"]
    return [(v, v) for v in record["equilibrium"]] if record["exact"] else []


def disagreements(before: dict, after: dict) -> list[str]:
    """Positions for which the two runs proved intervals that do not meet."""
    found = []
    for key in before.keys() & after.keys():
        a, b = proven_intervals(before[key]), proven_intervals(after[key])
        if any(
            x is not None and y is not None and (x[1] < y[0] or y[1] < x[0]) for x, y in zip(a, b)
        ):
            found.append(f"{key[1]}: {a} before, {b} after")
    return sorted(found)


def compare(before: dict, after: dict) -> dict[str, dict]:
    """Per size, over the positions both runs hold: nodes in all, the geometric
    mean of the node ratios where both finished, and how many took fewer
    nodes, more, or the same within ``SAME_WITHIN``."""
    sizes: dict[str, dict] = {}
    for key in sorted(before.keys() & after.keys(), key=lambda k: (len(k[0]), k)):
        a, b = before[key], after[key]
        size = sizes.setdefault(
            key[0],
            {
                "positions": 0,
                "finished": 0,
                "nodes_before": 0,
                "nodes_after": 0,
                "log_ratios": [],
                "less": 0,
                "more": 0,
                "same": 0,
            },
        )
        size["positions"] += 1
        size["nodes_before"] += a["nodes"]
        size["nodes_after"] += b["nodes"]
        if not (a["exact"] and b["exact"] and a["nodes"] > 0 and b["nodes"] > 0):
            continue
        size["finished"] += 1
        ratio = b["nodes"] / a["nodes"]
        size["log_ratios"].append(math.log(ratio))
        kind = "less" if ratio < 1 / SAME_WITHIN else "more" if ratio > SAME_WITHIN else "same"
        size[kind] += 1
    for size in sizes.values():
        logs = size.pop("log_ratios")
        size["geometric_mean_ratio"] = math.exp(sum(logs) / len(logs)) if logs else None
    return sizes


def table(sizes: dict[str, dict], before: Path, after: Path) -> Table:
    """The comparison for people, in 80 columns."""
    out = Table(
        title=f"Nodes: {after} against {before}",
        box=box.SIMPLE,
        pad_edge=False,
        caption=f"ratio: after / before. Over the positions both runs finished "
        f"(done): the geometric mean of their ratios, and how many took "
        f"fewer nodes (less), more or about as many (within "
        f"{100 * (SAME_WITHIN - 1):.0f}%)",
    )
    for heading in (
        "cards",
        "pos",
        "done",
        "before",
        "after",
        "ratio",
        "geomean",
        "less",
        "same",
        "more",
    ):
        out.add_column(heading, justify="right")
    for cards, size in sizes.items():
        geomean = size["geometric_mean_ratio"]
        out.add_row(
            cards,
            str(size["positions"]),
            str(size["finished"]),
            short_number(size["nodes_before"]),
            short_number(size["nodes_after"]),
            f"{size['nodes_after'] / max(size['nodes_before'], 1):.3f}",
            "-" if geomean is None else f"{geomean:.3f}",
            str(size["less"]),
            str(size["same"]),
            str(size["more"]),
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.compare",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("before", type=Path, help="the report to compare against")
    parser.add_argument("after", type=Path, help="the report of the change")
    args = parser.parse_args(argv)
    try:
        threads_before, before = load_report(args.before)
        threads_after, after = load_report(args.after)
    except NotAReport as error:
        parser.error(str(error))
    console = Console()
    if max(threads_before, threads_after) > 1:
        console.print(
            f"note: {threads_before} and {threads_after} search threads; only one "
            "repeats its nodes exactly"
        )
    if not before.keys() & after.keys():
        console.print("the two reports have no position in common")
        return 1
    console.print(table(compare(before, after), args.before, args.after))
    only_before, only_after = len(before.keys() - after.keys()), len(after.keys() - before.keys())
    if only_before or only_after:
        console.print(
            f"not compared: positions that only one run has ({only_before} only "
            f"before, {only_after} only after)"
        )
    conflicts = disagreements(before, after)
    for line in conflicts:
        console.print(f"[red]different value[/red] {line}")
    return 1 if conflicts else 0


if __name__ == "__main__":
    raise SystemExit(main())
