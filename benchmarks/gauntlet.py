"""Strength against a pool: the candidate in duplicate hands against every member.

``python -m benchmarks.gauntlet`` plays the candidate (today's hint as a bot,
at ``--samples`` deals and ``--time-limit`` seconds a decision, or with
``--candidate NAME`` a member of the pool) against each
member of ``benchmarks.pool.POOL`` in two line-ups: the candidate beside two
copies of the member, and two copies of the candidate beside one member.
Each deal is played in every seating of the line-up: all six where three
different bots sit, the three rotations where two are copies (those are all
the seatings then). The deals come from the frozen sets of
``gauntlet_seeds.json``: ``report`` by default, ``tune`` only with
``--tune`` (whose results never go to the report's file), so that what is
tuned on is never what is reported.

A line-up's score is the candidate's points a hand minus the fair share of
4 (12 Coins, three seats), each deal's the mean over its seatings (paired by
deal: the luck of the cards is the same for every bot), with a 95% interval
over deals; then the mean over the pool (per deal, over the line-ups) and
the worst line-up. The exploitability probe plays a ``BestResponder`` built
against a bot (a member, or the candidate) beside two copies of it: how far
above 4 it scores.

A long run can be split: ``--members`` plays some members, ``--skip N``
the deals after the first N, and ``--combine`` joins such reports (same
candidate and budget) into one, as if played at once. ``--compare NEW OLD``
pairs two reports on the same deals, line-up by line-up, deal by deal.

Results: ``results/gauntlet.json``, a plot beside it, and a table on the
terminal; ``--quick`` (one deal, a small budget, the probe against greedy)
writes ``results/gauntlet_quick.json.tmp`` and its plot, in about a minute.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table

from analysis.arena import SEATINGS, duplicate, mean_and_half_width
from analysis.bots import PimcBot
from analysis.hint import OPPONENTS, SAMPLERS
from solver.compiled import ensure_compiled

from . import pool as gauntlet_pool
from . import solver as paranoid
from .incumbent import INCUMBENT_COMMIT
from .pool import BestResponder, HintBudget
from .strength import save_report

HERE = Path(__file__).resolve().parent
SEEDS = HERE / "gauntlet_seeds.json"
RESULTS = HERE / "results" / "gauntlet.json"
FAIR_SHARE = 4.0  # 12 Coins a hand, three seats
CANDIDATE = "candidate"
RESPONDER = "responder"
HINT = "hint"  # the default candidate: hint() of the working tree, as PimcBot
DEFAULT_BUDGET = HintBudget(200, 0.1)
QUICK_BUDGET = HintBudget(20, 0.02)
# The probe's responder: deals a decision, and the tricks its model plays (None: all;
# the hints answer in a tenth of a second or more, so they play the current trick only).
PROBE_SAMPLES = 6
PROBE_MODEL_TRICKS = {"incumbent": 0, HINT: 0}
DEFAULT_PROBE = ("greedy", "incumbent", CANDIDATE)
QUICK = {"deals": 1, "probe": ("greedy",)}


def seatings(lineup: Sequence[str]) -> tuple[tuple[int, int, int], ...]:
    """Every distinct seating of the line-up (seat s holds bot ``seating[s]``): all
    six orders of three different bots; with copies, the rotations that differ."""
    if len(set(lineup)) == 3:
        return tuple(itertools.permutations(range(3)))
    distinct = {}
    for seating in SEATINGS:
        distinct.setdefault(tuple(lineup[b] for b in seating), seating)
    return tuple(distinct.values())


def make_candidate(name: str, budget: HintBudget, options: dict | None = None):
    """The candidate: ``hint()`` of the working tree as a bot (``options``: more
    of ``PimcBot``'s settings), or a pool member."""
    if name == HINT:
        return PimcBot(budget.samples, budget.time_limit, **(options or {}))
    return gauntlet_pool.members([name])[0].make(budget)


def probe_targets(names: Sequence[str]) -> list[str]:
    """The bots to probe among ``names``: the candidate, and the pool members
    that are available (ValueError on a name that is neither)."""
    available = {m.name for m in gauntlet_pool.members([n for n in names if n != CANDIDATE])}
    return [name for name in names if name == CANDIDATE or name in available]


def make_probed(target: str, candidate: str, budget: HintBudget, options: dict | None):
    """A new player of the probed bot ``target``: the candidate or a pool member."""
    return make_candidate(candidate if target == CANDIDATE else target, budget, options)


def deal_seeds(which: str, path: Path = SEEDS) -> list[int]:
    """The frozen deal seeds of set ``which`` (``tune`` or ``report``)."""
    return json.loads(path.read_text())[which]


@dataclass
class Score:
    """A mean with its 95% interval over deals (normal approximation)."""

    mean: float
    low: float
    high: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Score:
        mean, half = mean_and_half_width(values)
        return cls(mean, mean - half, mean + half)

    def to_json(self) -> dict:
        """The mean and its interval (None from a single deal, which has none)."""
        ci = None if math.isnan(self.low) else [round(self.low, 4), round(self.high, 4)]
        return {"mean": round(self.mean, 4), "ci95": ci}


def excess_by_deal(result, names: Sequence[str], bot: str) -> list[float]:
    """Each deal's points a hand of ``bot`` (its copies averaged) minus the fair share."""
    copies = [b for b, name in enumerate(names) if name == bot]
    return [
        sum(result.per_deal[b][deal] for b in copies) / len(copies) - FAIR_SHARE
        for deal in range(result.deals)
    ]


def play_lineup(names: Sequence[str], players: Sequence, seeds: Sequence[int], bot: str) -> dict:
    """The line-up ``names`` (its ``players``) on the deals of ``seeds``, every
    seating; ``bot``'s excess over the fair share, deal by deal and in all."""
    start = time.perf_counter()
    result = duplicate(
        list(names), len(seeds), players=players, seatings=seatings(names), deal_seeds=seeds
    )
    excess = excess_by_deal(result, names, bot)
    return {
        "lineup": list(names),
        "seatings": len(seatings(names)),
        "hands": result.hands,
        "seconds": round(time.perf_counter() - start, 1),
        "seconds_per_move": {s.name: round(s.seconds_per_move, 4) for s in result.scores},
        "excess": Score.of(excess).to_json(),
        "excess_by_deal": [round(x, 4) for x in excess],
    }


def pool_mean(by_lineup: Sequence[Sequence[float]]) -> dict | None:
    """The mean over the pool, deal by deal over the line-ups, with its interval
    (None with no line-up)."""
    by_deal = [sum(deal) / len(deal) for deal in zip(*by_lineup)]
    return Score.of(by_deal).to_json() if by_deal else None


def worst_lineup(rows: Sequence[dict]) -> dict | None:
    """The line-up of the lowest score, with its score (None with no line-up)."""
    worst = min(rows, key=lambda row: row["excess"]["mean"], default=None)
    return {"lineup": worst["lineup"], **worst["excess"]} if worst else None


def run(
    seeds: Sequence[int],
    budget: HintBudget,
    member_names: list[str] | None,
    probe: Sequence[str],
    probe_deals: int,
    probe_samples: int = PROBE_SAMPLES,
    log=print,
    candidate: str = HINT,
    options: dict | None = None,
    single: bool = False,
) -> dict:
    """The gauntlet on ``seeds`` and the probe on the first ``probe_deals`` of
    them; the report as a dict. ``candidate``: the hint of the working tree
    (with ``options``), or a pool member's name; ``single``: only the
    line-ups of the candidate beside two copies of a member."""
    members = gauntlet_pool.members(member_names)
    left_out = [
        f"{m.name} (needs {m.requires})"
        for m in gauntlet_pool.POOL
        if not m.available and (member_names is None or m.name in member_names)
    ]
    ensure_compiled()
    lineups = []
    for member in members:
        for names in (
            (CANDIDATE, member.name, member.name),
            (CANDIDATE, CANDIDATE, member.name),
        )[: 1 if single else 2]:
            players = [
                make_candidate(candidate, budget, options)
                if name == CANDIDATE
                else member.make(budget)
                for name in names
            ]
            row = play_lineup(names, players, seeds, CANDIDATE)
            lineups.append(row)
            log(f"{' '.join(names)}: {_text(row['excess'])} ({row['seconds']:.0f} s)")
    probes = []
    for target in probe_targets(probe):
        players = [make_probed(target, candidate, budget, options) for _ in range(3)]
        tricks = PROBE_MODEL_TRICKS.get(candidate if target == CANDIDATE else target)
        players[0] = BestResponder(players[0], probe_samples, tricks)
        names = (RESPONDER, target, target)
        row = play_lineup(names, players, seeds[:probe_deals], RESPONDER)
        row["model_tricks"] = tricks
        probes.append(row)
        log(f"probe, {' '.join(row['lineup'])}: {_text(row['excess'])} ({row['seconds']:.0f} s)")
    return {
        "machine": paranoid.machine(),
        "deals": len(seeds),
        "deal_seeds": list(seeds),
        "fair_share": FAIR_SHARE,
        "candidate": {"bot": candidate} | budget.to_json() | (options or {}),
        "incumbent_commit": INCUMBENT_COMMIT,
        "pool": [{"name": m.name, "about": m.about} for m in members],
        "left_out": left_out,
        "lineups": lineups,
        "pool_mean": pool_mean([row["excess_by_deal"] for row in lineups]),
        "worst": worst_lineup(lineups),
        "probe": {
            "responder": f"BestResponder: {probe_samples} deals a decision, the other seats "
            "playing the bot's policy in the playouts (model_tricks: the current trick and "
            "that many more, greedy after; null: to the end), its own later cards greedy",
            "samples": probe_samples,
            "deals": min(probe_deals, len(seeds)),
            "lineups": probes,
        },
    }


def combine(reports: Sequence[dict], names: Sequence[str]) -> dict:
    """One report from runs of the same candidate, budget and deal set
    (``names``: where each came from), each on some members or some deals:
    each line-up's deals joined in the set's order, then the pool's mean and
    worst as ``run`` computes them. ValueError when they do not fit together:
    another candidate or set, a deal played twice, or line-ups that end up
    on different deals (the pool's mean pairs them deal by deal)."""
    first = reports[0]
    for key in ("candidate", "deal_set", "double", "fair_share", "incumbent_commit"):
        if any(report.get(key) != first.get(key) for report in reports):
            raise ValueError(f"the reports differ in {key!r}: only runs of one candidate combine")
    order = {seed: i for i, seed in enumerate(deal_seeds(first["deal_set"]))}
    lineups = _joined(
        ((row, report["deal_seeds"]) for report in reports for row in report["lineups"]), order
    )
    probes = _joined(
        (
            (row, report["deal_seeds"][: report["probe"]["deals"]])
            for report in reports
            for row in report["probe"]["lineups"]
        ),
        order,
    )
    seeds = sorted({seed for _, played in lineups for seed in played}, key=order.__getitem__)
    for row, played in lineups:
        if played != seeds:
            raise ValueError(
                f"line-up {' '.join(row['lineup'])} has {len(played)} of the {len(seeds)} deals"
            )
    rows = [row for row, _ in lineups]
    pool = {m["name"]: m for report in reports for m in report["pool"]}
    return first | {
        "machine": first["machine"]
        | {"commits": sorted({report["machine"]["commit"] for report in reports})},
        "deals": len(seeds),
        "deal_seeds": seeds,
        "pool": list(pool.values()),
        "left_out": sorted({name for report in reports for name in report["left_out"]}),
        "lineups": rows,
        "pool_mean": pool_mean([row["excess_by_deal"] for row in rows]),
        "worst": worst_lineup(rows),
        "probe": first["probe"]
        | {
            "deals": max((len(played) for _, played in probes), default=0),
            "lineups": [row for row, _ in probes],
        },
        "run": "combined from " + ", ".join(names),
    }


def _joined(rows_and_seeds, order: dict[int, int]) -> list[tuple[dict, list[int]]]:
    """Rows of the same line-up from several runs as one row, its deals in the
    frozen set's ``order`` (seed: place), with the seeds it covers."""
    groups: dict[tuple, list[tuple[dict, list[int]]]] = {}
    for row, seeds in rows_and_seeds:
        groups.setdefault(tuple(row["lineup"]), []).append((row, list(seeds)))
    joined = []
    for lineup, parts in groups.items():
        pairs = [pair for row, seeds in parts for pair in zip(seeds, row["excess_by_deal"])]
        played = [seed for seed, _ in pairs]
        if len(set(played)) != len(played):
            raise ValueError(f"line-up {' '.join(lineup)} plays a deal in two reports")
        excess = [x for _, x in sorted(pairs, key=lambda pair: order[pair[0]])]
        hands = sum(row["hands"] for row, _ in parts)
        names = {name for row, _ in parts for name in row["seconds_per_move"]}
        row = parts[0][0] | {
            "hands": hands,
            "seconds": round(sum(row["seconds"] for row, _ in parts), 1),
            "seconds_per_move": {
                name: round(
                    sum(row["seconds_per_move"][name] * row["hands"] for row, _ in parts) / hands,
                    4,
                )
                for name in names
            },
            "excess": Score.of(excess).to_json(),
            "excess_by_deal": excess,
        }
        joined.append((row, sorted(played, key=order.__getitem__)))
    return joined


def paired(new: dict, old: dict) -> dict:
    """``new`` minus ``old`` (two reports on the same deals, say today's hint and
    the incumbent in its place), line-up by line-up and over the pool, deal by
    deal: the luck of the cards drops out. Line-ups of one report only are left
    out, and named. ValueError on reports of different deals."""
    if new["deal_seeds"] != old["deal_seeds"]:
        raise ValueError("the reports were played on different deals: nothing to pair")
    before = {tuple(row["lineup"]): row for row in old["lineups"]}
    matched = [
        (row, before[tuple(row["lineup"])])
        for row in new["lineups"]
        if tuple(row["lineup"]) in before
    ]
    both = {tuple(row["lineup"]) for row, _ in matched}
    left_out = [
        row["lineup"] for row in new["lineups"] + old["lineups"] if tuple(row["lineup"]) not in both
    ]
    differences = [
        [a - b for a, b in zip(row["excess_by_deal"], other["excess_by_deal"])]
        for row, other in matched
    ]
    rows = [
        {
            "lineup": row["lineup"],
            "new": row["excess"],
            "old": other["excess"],
            "difference": Score.of(difference).to_json(),
            "difference_by_deal": [round(x, 4) for x in difference],
        }
        for (row, other), difference in zip(matched, differences)
    ]

    return {
        "deals": len(new["deal_seeds"]),
        "new": new["candidate"],
        "old": old["candidate"],
        "lineups": rows,
        "left_out": left_out,
        "pool_mean": {
            "new": pool_mean([row["excess_by_deal"] for row, _ in matched]),
            "old": pool_mean([other["excess_by_deal"] for _, other in matched]),
            "difference": pool_mean(differences),
        },
        "worst": min(rows, key=lambda row: row["difference"]["mean"], default=None),
    }


def _text(score: dict) -> str:
    if score["ci95"] is None:
        return f"{score['mean']:+.2f} (no interval from one deal)"
    low, high = score["ci95"]
    return f"{score['mean']:+.2f} ({low:+.2f} to {high:+.2f})"


def print_table(report: dict, console: Console) -> None:
    if report["lineups"]:
        _print_lineups(report, console)
    if report["left_out"]:
        console.print(f"left out of the pool: {', '.join(report['left_out'])}")
    for row in report["probe"]["lineups"]:
        console.print(
            f"probe ({report['probe']['deals']} deals): best responder beside two "
            f"{row['lineup'][1]}: {_text(row['excess'])}"
        )


def _print_lineups(report: dict, console: Console) -> None:
    table = Table(
        title=f"The candidate's ({report['candidate']['bot']}) points a hand minus 4: "
        f"{report['deals']} deals, every seating; hint budget {report['candidate']['samples']} "
        f"deals / {report['candidate']['time_limit']} s"
    )
    for heading in ("opponent", "candidate + 2 x opponent", "2 x candidate + opponent"):
        table.add_column(heading)
    rows = iter(report["lineups"])
    for row in rows:
        double = next(rows) if report.get("double", True) else None
        table.add_row(
            row["lineup"][1], _text(row["excess"]), _text(double["excess"]) if double else ""
        )
    console.print(table)
    console.print(f"mean over the pool: {_text(report['pool_mean'])}")
    worst = report["worst"]
    console.print(f"worst line-up: {' '.join(worst['lineup'])}: {_text(worst)}")


def plot(report: dict, path: Path) -> None:
    """Each line-up's score with its interval, and the probe's, as horizontal bars."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [(" ".join(r["lineup"]), r["excess"]) for r in report["lineups"]]
    rows += [(f"probe: {' '.join(r['lineup'])}", r["excess"]) for r in report["probe"]["lineups"]]
    if report["pool_mean"]:
        rows.append(("mean over the pool", report["pool_mean"]))
    figure, axes = plt.subplots(figsize=(8, 0.35 * len(rows) + 1.2))
    for y, (_, score) in enumerate(reversed(rows)):
        low, high = score["ci95"] or (score["mean"], score["mean"])
        axes.errorbar(
            score["mean"], y, xerr=[[score["mean"] - low], [high - score["mean"]]], fmt="o"
        )
    axes.set_yticks(range(len(rows)), [label for label, _ in reversed(rows)], fontsize=8)
    axes.axvline(0, color="grey", linewidth=0.8)
    axes.set_xlabel("points a hand minus the fair share of 4 (95% interval over deals)")
    axes.set_title(f"Gauntlet, {report['deals']} deals, commit {report['machine']['commit']}")
    figure.tight_layout()
    figure.savefig(path, format="png", dpi=110)
    plt.close(figure)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.gauntlet",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--candidate", default=HINT, help="hint (the working tree's, default) or a pool member"
    )
    parser.add_argument("--deals", type=int, help="the first N deals of the set (default all)")
    parser.add_argument(
        "--skip",
        type=int,
        default=0,
        help="leave out the first N deals of the set: --deals counts from there "
        "(to extend a run on more deals, then --combine)",
    )
    parser.add_argument("--samples", type=int, help="the candidate's and incumbent's deals")
    parser.add_argument("--time-limit", type=float, help="their seconds a decision (0: none)")
    parser.add_argument(
        "--sampler", choices=SAMPLERS, help="the candidate hint's sampler (default: hint's)"
    )
    parser.add_argument(
        "--opponents", choices=OPPONENTS, help="how its playouts play the others (default: hint's)"
    )
    parser.add_argument(
        "--threads", type=int, help="the candidate hint's threads (default: hint's)"
    )
    parser.add_argument(
        "--horizon",
        type=int,
        help="cards a hand its playouts stop at, then exact (default: hint's)",
    )
    parser.add_argument(
        "--policy-weight",
        type=float,
        help="the card policy's share in its cards' values (default: hint's)",
    )
    parser.add_argument(
        "--single", action="store_true", help="only the candidate beside two copies of a member"
    )
    parser.add_argument(
        "--members", help="comma-separated pool members (default all; '' for none: the probe alone)"
    )
    parser.add_argument(
        "--probe",
        help="comma-separated bots to probe: pool members or 'candidate' "
        "(default greedy,incumbent,candidate; '' for none)",
    )
    parser.add_argument("--probe-deals", type=int, help="the probe's deals (default: all)")
    parser.add_argument(
        "--probe-samples", type=int, default=PROBE_SAMPLES, help="the responder's deals a decision"
    )
    parser.add_argument("--tune", action="store_true", help="play the tune set, not the report set")
    parser.add_argument("--quick", action="store_true", help="one deal, a small budget")
    parser.add_argument(
        "--combine",
        nargs="+",
        type=Path,
        metavar="REPORT",
        help="play nothing: join these reports of one candidate (split by members "
        "or by --skip) into one, saved to --output",
    )
    parser.add_argument(
        "--compare",
        nargs=2,
        type=Path,
        metavar=("NEW", "OLD"),
        help="play nothing: NEW minus OLD, two reports on the same deals, paired deal "
        "by deal (with --output, also saved there)",
    )
    parser.add_argument("--output", type=Path)
    args = parser.parse_args(argv)
    if args.combine:
        return _combine_files(args.combine, args.output, parser)
    if args.compare:
        return _compare_files(*args.compare, args.output, parser)
    if args.tune and args.output is not None and args.output.resolve() == RESULTS.resolve():
        parser.error("results of the tune set never go to the report's file")
    if args.skip < 0:
        parser.error(f"--skip must be 0 or more, not {args.skip}")
    budget = QUICK_BUDGET if args.quick else DEFAULT_BUDGET
    budget = HintBudget(
        args.samples or budget.samples,
        budget.time_limit if args.time_limit is None else args.time_limit,
    )
    options = {
        name: getattr(args, name)
        for name in ("sampler", "opponents", "threads", "horizon", "policy_weight")
        if getattr(args, name) is not None
    }
    seeds = deal_seeds("tune" if args.tune else "report")[args.skip :]
    if not seeds:
        parser.error(f"--skip {args.skip} leaves no deal of the set")
    deals = args.deals or (QUICK["deals"] if args.quick else len(seeds))
    probe = (
        [name for name in args.probe.split(",") if name]
        if args.probe is not None
        else list(QUICK["probe"] if args.quick else DEFAULT_PROBE)
    )
    if args.output is None:
        args.output = RESULTS
        if args.quick:
            args.output = paranoid.quick_path(RESULTS)
        if args.tune:
            args.output = RESULTS.with_name("gauntlet_tune.json.tmp")
    console = Console()
    member_names = (
        [name for name in args.members.split(",") if name] if args.members is not None else None
    )
    try:
        gauntlet_pool.members(member_names)
        probe_targets(probe)
        if args.candidate != HINT and not gauntlet_pool.members([args.candidate]):
            parser.error(f"the candidate {args.candidate} needs a package not installed")
    except ValueError as error:
        parser.error(str(error))
    probe_deals = args.probe_deals or deals
    report = run(
        seeds[:deals],
        budget,
        member_names,
        probe,
        probe_deals,
        args.probe_samples,
        console.print,
        args.candidate,
        options,
        args.single,
    )
    report["deal_set"] = "tune" if args.tune else "report"
    report["double"] = not args.single
    _save(report, args.output, console)
    return report


def _from_files(what: str, paths: Sequence[Path], join, parser) -> dict:
    """``join`` of the reports in ``paths``; a one-line error (exit 2) where a
    file cannot be read or the reports do not fit (``what``: the verb)."""
    try:
        return join([json.loads(path.read_text()) for path in paths])
    except KeyError as error:
        parser.error(f"cannot {what} the reports: one has no {error} (not a gauntlet report?)")
    except (OSError, ValueError, TypeError) as error:
        parser.error(f"cannot {what} the reports: {error}")


def _combine_files(paths: Sequence[Path], output: Path | None, parser) -> dict:
    if output is None:
        parser.error("--combine needs --output")
    names = [path.name for path in paths]
    report = _from_files("combine", paths, lambda reports: combine(reports, names), parser)
    if report["deal_set"] == "tune" and output.resolve() == RESULTS.resolve():
        parser.error("results of the tune set never go to the report's file")
    _save(report, output, Console())
    return report


def _compare_files(new: Path, old: Path, output: Path | None, parser) -> dict:
    difference = _from_files("pair", [new, old], lambda reports: paired(*reports), parser)
    print_paired(difference, Console())
    if output is not None:
        save_report(output, difference)
    return difference


def print_paired(difference: dict, console: Console) -> None:
    """The paired differences as a table: each side's mean, the difference with its interval."""
    table = Table(
        title=f"{difference['new']['bot']} (new) minus {difference['old']['bot']} (old): "
        f"points a hand, {difference['deals']} deals, paired deal by deal"
    )
    for heading in ("line-up", "new", "old", "new - old"):
        table.add_column(heading)
    for row in difference["lineups"]:
        names = row["lineup"]
        label = f"beside two {names[2]}" if names[1] != CANDIDATE else f"two beside {names[2]}"
        means = (f"{row[key]['mean']:+.2f}" for key in ("new", "old"))
        table.add_row(label, *means, _text(row["difference"]))
    pool = difference["pool_mean"]
    if pool["difference"]:
        means = (f"{pool[key]['mean']:+.2f}" for key in ("new", "old"))
        table.add_row("mean over the pool", *means, _text(pool["difference"]))
    console.print(table)
    for lineup in difference["left_out"]:
        console.print(f"in one report only, left out: {' '.join(lineup)}")


def _save(report: dict, output: Path, console: Console) -> None:
    """The report to ``output``, its plot beside it, and its table on the terminal."""
    save_report(output, report)
    picture = output.with_name(output.name.replace(".json", ".png"))
    plot(report, picture)
    print_table(report, console)
    console.print(f"saved {output} and {picture}")


if __name__ == "__main__":
    main()
