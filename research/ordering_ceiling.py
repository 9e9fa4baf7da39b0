"""How many nodes perfect move ordering over the first tricks would save, at most.

``python -m research.ordering_ceiling [SIZE:INDEX:NEED ...] [--tricks T]``
runs single tests of the guaranteed value ("can seat 0 be sure of NEED
points?") on endings of ``suite_paranoid.txt``, one thread, three ways:

- as the search runs them (its own order: outcome, history, table card);
- in outcome order: a driver plays the first T tricks itself, trying each
  node's cards in the search's outcome order without history
  (``paranoid.outcome_order``) and stopping at the first that decides the
  node, and hands the positions after T tricks to the search;
- in perfect order: the same driver, but a second search (not counted)
  first tells it which cards decide each node, so it visits one deciding
  card, or every card when none decides: the fewest nodes any order of the
  first T tricks could search, given how the rest is searched.

Counted: the search's nodes plus the driver's positions (each once: it
remembers them as the table would). Over the driver's nodes of the pair
and of the seat where some card decides, it also counts how often the
outcome order puts a deciding card first. The driver's searches share one
table, as one search would. See research/README.md.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

from rich import box
from rich.table import Table

from benchmarks.solver import short_number
from solver import Position
from solver.cards import popcount
from solver.paranoid import ParanoidSearch, outcome_order
from solver.policy import SearchPolicy
from solver.table import TranspositionTable

from .proof_shape import HERE, parse_tests, run_tests, table_megabytes

RESULTS = HERE / "results" / "ordering_ceiling.json"
SEAT = 0
# 12-card endings worth 0, 0, 1 and 1 to seat 0: the tests that decide their values
DEFAULT_TESTS = ("12:10:1", "12:11:1", "12:3:1", "12:18:1")
DEFAULT_TRICKS = 3


def new_search(cards: int) -> ParanoidSearch:
    """One thread, a fresh table with room for a whole proof, no budget, the
    real game only (not the relaxed game first: its order is what is measured)."""
    return ParanoidSearch(
        TranspositionTable(table_megabytes(cards)),
        None,
        None,
        threads=1,
        policy=SearchPolicy(relaxed_game=False),
    )


@dataclass
class Driver:
    """Plays the first tricks of a test itself, in outcome order or, given an
    ``oracle`` search, in perfect order; the rest goes to ``search``."""

    search: ParanoidSearch
    boundary_cards: int  # the search takes over at trick boundaries with this many cards or fewer
    oracle: ParanoidSearch | None = None
    nodes: int = 0
    # side ("pair" or "seat") -> [nodes where some card decides, those where the first does]
    first_decides: dict = field(default_factory=lambda: {"pair": [0, 0], "seat": [0, 0]})
    _known: dict = field(default_factory=dict)

    def holds(self, position: Position, need: int) -> bool:
        """Can seat 0 be sure of ``need`` more points from ``position``?"""
        key = (position.hands, position.leader, position.trick, need)
        if key not in self._known:
            self._known[key] = self._search(position, need)
        return self._known[key]

    def _search(self, position: Position, need: int) -> bool:
        if not position.trick and sum(map(popcount, position.hands)) <= self.boundary_cards:
            return self.search.wins_at_least(position, SEAT, need)
        self.nodes += 1
        if settled(position, need):
            return need <= 0
        seat_moves = position.to_move == SEAT
        children = [
            (child, need - (child.taken[SEAT] - position.taken[SEAT]))
            for child in map(position.play, outcome_order(position, SEAT))
        ]
        if self.oracle is not None:
            children = self._perfect_order(children, seat_moves)
        # the seat needs one card that holds, the pair one that does not
        for child, child_need in children:
            if self.holds(child, child_need) == seat_moves:
                return seat_moves
        return not seat_moves

    def _perfect_order(self, children: list, seat_moves: bool) -> list:
        """The first deciding child alone, or every child when none decides."""
        deciding = [
            i
            for i, (child, child_need) in enumerate(children)
            if self._oracle_holds(child, child_need) == seat_moves
        ]
        if not deciding:
            return children
        counts = self.first_decides["seat" if seat_moves else "pair"]
        counts[0] += 1
        counts[1] += deciding[0] == 0
        return [children[deciding[0]]]

    def _oracle_holds(self, position: Position, need: int) -> bool:
        if settled(position, need):
            return need <= 0
        return self.oracle.wins_at_least(position, SEAT, need)


def settled(position: Position, need: int) -> bool:
    """Is the answer known without a search: nothing more needed, or too few Coins left?"""
    return need <= 0 or position.coins_left < need


def run_test(position: Position, need: int, tricks: int) -> dict:
    """One test three ways (see the module's docstring), each in fresh tables."""
    cards = position.cards_per_hand
    boundary_cards = 3 * max(cards - tricks, 0)
    plain = new_search(cards)
    holds = plain.wins_at_least(position, SEAT, need)
    record = {
        "position": str(position),
        "cards": cards,
        "need": need,
        "tricks": tricks,
        "holds": holds,
        "search_nodes": plain.nodes,
    }
    del plain  # its table, before the drivers take two more
    for name, oracle in (("outcome_order", None), ("perfect_order", new_search(cards))):
        driver = Driver(new_search(cards), boundary_cards, oracle)
        if driver.holds(position, need) != holds:
            raise AssertionError(f"{name} disagrees with the search on {position}, need {need}")
        record[name] = {"nodes": driver.search.nodes + driver.nodes, "driver_nodes": driver.nodes}
        if oracle is not None:
            record[name]["oracle_nodes"] = oracle.nodes
            record[name]["first_decides"] = driver.first_decides
    return record


def share(counts: list[int]) -> str:
    decided, first = counts
    return f"{100 * first / decided:.0f}%/{decided}" if decided else "-"


def table(records: list[dict]) -> Table:
    """The tests for people: nodes three ways, and how often the outcome order's first card decides."""
    tricks = ", ".join(sorted({str(r["tricks"]) for r in records}))
    out = Table(
        title=f"A test's nodes: as searched, and with the first {tricks} tricks in outcome "
        "or perfect order",
        box=box.SIMPLE,
        pad_edge=False,
        caption="gain: search / perfect. 1st: of the driver's nodes of the pair (of the seat) "
        "where some card decides, the share where the outcome order's first card "
        "does / how many",
    )
    for heading in (
        "cards",
        "need",
        "holds",
        "search",
        "outcome",
        "perfect",
        "gain",
        "pair 1st",
        "seat 1st",
    ):
        out.add_column(heading, justify="right")
    for r in records:
        perfect = r["perfect_order"]
        out.add_row(
            str(r["cards"]),
            str(r["need"]),
            "yes" if r["holds"] else "no",
            short_number(r["search_nodes"]),
            short_number(r["outcome_order"]["nodes"]),
            short_number(perfect["nodes"]),
            f"{r['search_nodes'] / perfect['nodes']:.2f}",
            share(perfect["first_decides"]["pair"]),
            share(perfect["first_decides"]["seat"]),
        )
    return out


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(
        prog="python -m research.ordering_ceiling",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--tricks",
        type=int,
        default=DEFAULT_TRICKS,
        metavar="T",
        help=f"tricks the driver plays itself (default {DEFAULT_TRICKS})",
    )
    args, tests = parse_tests(parser, DEFAULT_TESTS, RESULTS, argv)
    if args.tricks < 1:
        parser.error(f"--tricks must be at least 1, not {args.tricks}")
    return run_tests(
        tests, lambda position, need: run_test(position, need, args.tricks), args.output, table
    )


if __name__ == "__main__":
    main()
