"""The ``analyze``, ``review`` and ``graph`` commands, and the rich rendering of their data.

``coins.cli`` registers them with ``analysis_commands.register(add)``, where
``add(name, function)`` is its helper that makes a sub-parser from a
command function's docstring. The work is done in ``analysis``; this module
only parses arguments and prints.
"""

from __future__ import annotations

import argparse
import json

from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from analysis.report import EXACT_CARDS
from analysis import (
    Analysis,
    Review,
    equivalent_cards,
    write_graph,
)
from analysis.graph import DEFAULT_MAX_POSITIONS, MOST_POSITIONS
from solver import Position
from solver.cards import DECK_SIZE, SEATS, Card

from . import api, options, render
from .notice import compile_notice
from .status import search_status

BEST_MARK = "+"  # max^n: the most own points for the mover
MATCH_MARK = "^"  # the best chance of winning the match for the mover
CHOICE_STYLE = "bold underline"  # the card the main line plays


# ----- commands ---------------------------------------------------------------------------


def analyze_command(args: argparse.Namespace) -> None:
    """Play a position out along the max^n line, valuing every card at every decision in
    both modes.

    The main line is the max^n equilibrium: how the deal goes when every seat
    plays for its own points, knowing the others do the same. At each card of
    it, every card the mover holds gets its paranoid value (the mover's
    guaranteed points after it, the other two playing together against it;
    * marks the optimal ones) and its max^n result (the mover's own points
    when everyone then plays for themselves; + marks the best). Decisions
    where the max^n card is not paranoid-optimal are flagged. With --target
    (and --scores) the main line is the match line instead (every seat plays
    to win the match, until the hand or the match ends) and every card also
    gets the mover's chance of winning the match (^ marks the best).
    """
    compile_notice()
    result = api.analyze_position(args)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        Console().print(analysis_report(result))
    if result.interrupted:
        raise KeyboardInterrupt  # after the decisions finished: exit status 130


def review_command(args: argparse.Namespace) -> None:
    """Review a record of play: what each card cost its player in both modes.

    The record is a position, " | ", then the cards played ("... 0 - | JO KC
    AO"), quoted. For each card: its paranoid cost (the mover's guaranteed
    value with its best card minus with the card played) and its max^n cost
    (the mover's own points with its best card minus with the card played,
    everyone playing for themselves), the running score, and a summary per
    seat. With --target (and --scores, the match scores when the record's
    hand began) also its cost in the chance of winning the match, until a
    seat reaches the target.
    """
    compile_notice()
    result = api.review_record(args)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        Console().print(review_report(result))


def graph_command(args: argparse.Namespace) -> None:
    """Write the decision graph of a position: positions as nodes, cards as edges.

    Nodes carry the values of the chosen mode (paranoid: each seat's
    guaranteed points; maxn: the equilibrium points), edges the card played
    (equivalent cards share one edge) with the mover's value after it;
    optimal edges are bold. The file's extension picks the format: .svg,
    .png or .pdf (drawn by Graphviz's dot), .dot/.gv, .graphml, .json
    (networkx node-link). A status line shows progress; Ctrl-C writes the
    graph found so far.
    """
    compile_notice()
    with search_status() as progress:
        graph = api.graph_of(args, progress)
    path = write_graph(graph, args.out)
    stopped = graph.graph.get("interrupted", False)
    print(
        f"wrote {path}: {graph.number_of_nodes()} positions, {graph.number_of_edges()} edges "
        f"({args.mode}, depth {args.depth} {args.unit})"
        + ("; stopped by Ctrl-C: positions not yet solved have no values" if stopped else "")
    )
    if stopped:
        raise KeyboardInterrupt  # after writing what was found: exit status 130


def register(add) -> None:
    """Add the analysis commands through ``coins.cli``'s ``add(name, function)`` helper."""

    def position_argument(parser):
        parser.add_argument(
            "position", nargs="+", metavar="POSITION",
            help='the position, quoted ("AK9.N32.75.J84 ... 0 -") or as separate words',
        )  # fmt: skip

    analyze_parser = add("analyze", analyze_command)
    position_argument(analyze_parser)
    options.add_limits(analyze_parser, "the analysis (what is done so far is shown)")
    options.add_match(analyze_parser, "follow the match line and value every card")
    analyze_parser.add_argument(
        "--exact-cards", type=options.cards_per_hand(0), default=EXACT_CARDS, metavar="K",
        help=f"solve decisions exactly up to K cards a hand, estimate beyond (default {EXACT_CARDS})",
    )  # fmt: skip
    analyze_parser.add_argument(
        "--json", action="store_true", help="print one JSON object instead of tables"
    )

    review_parser = add("review", review_command)
    review_parser.add_argument(
        "record", nargs="+", metavar="RECORD",
        help='the record of play, quoted: "<position> | <card> <card> ..."',
    )  # fmt: skip
    options.add_limits(review_parser, "the review (the cards reviewed so far are shown)")
    options.add_match(review_parser, "also review every card")
    review_parser.add_argument(
        "--json", action="store_true", help="print one JSON object instead of tables"
    )

    graph_parser = add("graph", graph_command)
    position_argument(graph_parser)
    graph_parser.add_argument(
        "--depth", type=options.whole_number("the depth", 0, DECK_SIZE), default=1, metavar="D",
        help=f"cards (or tricks) deep, 0-{DECK_SIZE} (default 1)",
    )  # fmt: skip
    graph_parser.add_argument(
        "--out", required=True, type=options.graph_file, metavar="FILE",
        help="the file to write: .svg .png .pdf (Graphviz), .dot .gv .graphml .json",
    )  # fmt: skip
    graph_parser.add_argument(
        "--mode", choices=("paranoid", "maxn"), default="paranoid",
        help="paranoid: guaranteed values (default); maxn: each for themselves",
    )  # fmt: skip
    graph_parser.add_argument(
        "--unit", choices=("cards", "tricks"), default="cards",
        help="what --depth counts (default cards)",
    )  # fmt: skip
    graph_parser.add_argument(
        "--optimal-only", action="store_true",
        help="below the first card, follow only optimal cards",
    )  # fmt: skip
    graph_parser.add_argument(
        "--max-positions", type=options.whole_number("the most positions", 1, MOST_POSITIONS),
        default=DEFAULT_MAX_POSITIONS, metavar="N",
        help=f"refuse graphs of more than N positions (default {DEFAULT_MAX_POSITIONS}, "
             f"at most {MOST_POSITIONS:,})",
    )  # fmt: skip
    options.add_limits(graph_parser, "the solver")
    options.add_force(graph_parser, "the graph", lambda args: [args.out])


# ----- rendering --------------------------------------------------------------------------


def _table(*columns: tuple[str, str]) -> Table:
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for heading, justify in columns:
        table.add_column(heading, justify=justify)
    return table


def _runs_cell(position: Position, value_of, mark_of, played: Card | None) -> Text:
    """The mover's cards, equivalent ones together (``JC/9C``), each run with its value."""
    parts = []
    runs = sorted(equivalent_cards(position), key=lambda run: (run[0].suit, -run[0].rank))
    for run in runs:
        cards = Text("/").join(
            Text(str(card), style=f"{render.SUIT_STYLES[card.suit]} {CHOICE_STYLE}")
            if card == played else render.card_text(card)
            for card in run
        )
        parts.append(Text.assemble(cards, f":{value_of(run[0])}{mark_of(run[0])}"))
    return Text("  ").join(parts)


def analysis_report(result: Analysis) -> Group:
    """Everything ``coins analyze`` shows for people."""
    position = result.position
    columns = {
        "taken": [str(t) for t in position.taken],
        "guaranteed": [_seat_value(result.guaranteed, s) for s in range(SEATS)],
        "max^n": [_seat_value(result.equilibrium, s) for s in range(SEATS)],
    }
    match = result.match is not None
    if match:
        columns["win"] = ["-" if result.chances is None else f"{100 * c:.1f}%"
                          for c in result.chances]  # fmt: skip
    parts: list[RenderableType] = [
        Text.assemble(("Position ", "bold"), str(position)),
        Text(""),
        render.hands_table(position, columns),
        Text(""),
        Text("The hand is over.") if position.is_terminal else render.trick_text(position),
        Text(
            "guaranteed: Coins sure to be won from here on against the other two; "
            "max^n: Coins won when everyone plays for themselves.",
            style="dim",
        ),
        *([render.match_legend(result.match)] if match else []),
        Text(""),
        Text(f"Main line: the {result.main_line}.", style="bold"),
        Text(
            f"card:value. paranoid: the mover's guaranteed value after the card "
            f"({render.OPTIMAL_MARK} optimal); max^n: its own points after it ({BEST_MARK} "
            "best); " + (f"win: its chance of winning the match after it, in % ({MATCH_MARK} "
                         "best); " if match else "")
            + "equivalent cards go together (A/B); the card played is underlined; modes "
            f"disagree: -N where the {'match' if match else 'max^n'} card gives up N "
            "guaranteed points" + ("; for the match: -N where it gives up N own points "
                                   "(max^n)." if match else "."),
            style="dim",
        ),
    ]
    table = _table(("#", "right"), ("seat", "right"), ("plays", "left"),
                   ("paranoid", "left"), ("max^n", "left"),
                   *((("win", "left"),) if match else ()), ("", "left"))  # fmt: skip
    for d in result.decisions:
        by_card = {c.card: c for c in d.cards}
        paranoid = Text("-", style="dim") if d.guaranteed is None else _runs_cell(
            d.position, lambda c: by_card[c].paranoid,
            lambda c: render.OPTIMAL_MARK if by_card[c].paranoid_optimal else "", d.played,
        )  # fmt: skip
        maxn = _runs_cell(
            d.position, lambda c: render.number(by_card[c].maxn[d.seat]),
            lambda c: BEST_MARK if by_card[c].maxn_best else "", d.played,
        )  # fmt: skip
        win = () if not match else (_runs_cell(
            d.position, lambda c: f"{'~' if d.chances_estimated else ''}"
                                  f"{100 * by_card[c].chances[d.seat]:.1f}",
            lambda c: MATCH_MARK if round(by_card[c].chances[d.seat], 9)
                                    == round(d.chances[d.seat], 9) else "", d.played,
        ),)  # fmt: skip
        notes = []
        if d.disagree:
            notes.append(Text(f"modes disagree: -{d.paranoid_cost}", style="bold"))
        if match and d.points_cost > 0:
            notes.append(Text(f"for the match: -{render.number(d.points_cost)}", style="bold"))
        if d.trick_winner is not None:
            notes.append(Text(f"trick {d.trick}: seat {d.trick_winner} +{d.trick_points}"))
        table.add_row(str(d.number), str(d.seat), render.card_text(d.played), paranoid, maxn,
                      *win, Text("\n").join(notes))  # fmt: skip
    parts.append(table)
    if result.decisions:
        disagree = [str(d.number) for d in result.disagreements]
        parts.append(Text(
            f"Modes disagree at move{'s' if len(disagree) > 1 else ''} {', '.join(disagree)}."
            if disagree else f"The {'match' if match else 'max^n'} line plays paranoid-optimal "
                             "cards throughout."
        ))  # fmt: skip
    estimated = [d.number for d in result.decisions if d.estimated]
    if estimated:
        parts.append(Text(
            f"Estimated, not proven (~): the max^n values of moves {estimated[0]}-{estimated[-1]}"
            f"{'' if len(estimated) == estimated[-1] - estimated[0] + 1 else ' (some)'}, "
            "beyond exact reach; the main line follows the estimate there.", style="bold",
        ))  # fmt: skip
    guessed = [d.number for d in result.decisions if d.chances_estimated]
    if guessed:
        parts.append(Text(
            f"Estimated, not proven (~): the chances of winning at moves {guessed[0]}-"
            f"{guessed[-1]}, beyond exact reach; the match line follows the estimate there.",
            style="bold",
        ))  # fmt: skip
    if not result.complete:
        stopped = "it was stopped (Ctrl-C)" if result.interrupted else "the node or time limit ran out"
        parts.append(Text(
            f"Not complete: {stopped}; the decisions above are the ones finished.", style="bold",
        ))  # fmt: skip
    parts.append(Text(f"{'exact' if result.exact else 'not exact'}, {result.nodes:,} nodes, "
                      f"{result.seconds:.2f} s", style="dim"))  # fmt: skip
    return Group(*parts)


def _seat_value(values, seat: int) -> str:
    return "-" if values is None or values[seat] is None else render.number(values[seat])


def review_report(result: Review) -> Group:
    """Everything ``coins review`` shows for people."""
    position = result.position
    match = result.match is not None
    parts: list[RenderableType] = [
        Text.assemble(("Record ", "bold"), result.record),
        Text(""),
        render.hands_table(position, {"taken": [str(t) for t in position.taken]}),
        Text(""),
        render.trick_text(position),
        Text(
            "cost: what the card lost its player against its best card, in points from that "
            "decision on. paranoid: guaranteed points (the other two against it); "
            "max^n: own points (everyone for themselves)"
            + ("; win: the chance of winning the match, in percentage points." if match else "."),
            style="dim",
        ),
        *([render.match_legend(result.match)] if match else []),
        Text(""),
    ]
    win = (("win\ncost", "right"), ("win\nbest", "left")) if match else ()
    table = _table(("#", "right"), ("seat", "right"), ("card", "left"),
                   ("paranoid\ncost", "right"), ("paranoid\nbest", "left"),
                   ("max^n\ncost", "right"), ("max^n\nbest", "left"), *win, ("taken", "left"),
                   ("trick\nwon by", "left"))  # fmt: skip
    for m in result.moves:
        win_cells = () if not match else (
            ("-", "") if m.chances is None else
            (_cost_text(_percent(m.match_cost)), render.cards_text(_high_first(m.match_best)))
        )  # fmt: skip
        table.add_row(
            str(m.number), str(m.seat), render.card_text(m.card),
            _cost_text(m.paranoid_cost), render.cards_text(_high_first(m.paranoid_optimal)),
            _cost_text(m.maxn_cost), render.cards_text(_high_first(m.maxn_best)), *win_cells,
            ",".join(map(str, m.taken)),
            f"seat {m.trick_winner} +{m.trick_points}" if m.trick_winner is not None else "",
        )  # fmt: skip
    parts.append(table)
    summary = _table(("seat", "right"), ("cards", "right"), ("paranoid\nlost", "right"),
                     ("paranoid\nbiggest", "left"), ("max^n\nlost", "right"),
                     ("max^n\nbiggest", "left"),
                     *((("win\nlost", "right"), ("win\nbiggest", "left")) if match else ()))
    for s in result.summary:
        win_cells = () if not match else (_percent(s.match_lost), _biggest(
            s.biggest_match, s.biggest_match and _percent(s.biggest_match.match_cost)))
        summary.add_row(
            str(s.seat), str(s.moves),
            str(s.paranoid_lost), _biggest(s.biggest_paranoid, s.biggest_paranoid
                                           and s.biggest_paranoid.paranoid_cost),
            str(s.maxn_lost), _biggest(s.biggest_maxn, s.biggest_maxn
                                       and s.biggest_maxn.maxn_cost),
            *win_cells,
        )  # fmt: skip
    final = result.final
    parts += [
        Text(""),
        Text("Summary per seat (points lost: the sum of its costs)", style="bold"),
        summary,
        Text(""),
        Text(f"Score after the record (taken): {','.join(map(str, final.taken))}"
             + (" (the hand is over)" if final.is_terminal else "")),
    ]
    if not result.exact:
        parts.append(Text(
            f"Not exact: the node or time limit ran out after {len(result.moves)} of "
            f"{len(result.cards)} cards.", style="bold",
        ))  # fmt: skip
    parts.append(Text(f"{'exact' if result.exact else 'not exact'}, {result.nodes:,} nodes, "
                      f"{result.seconds:.2f} s", style="dim"))  # fmt: skip
    return Group(*parts)


def _high_first(cards):
    return sorted(cards, key=lambda c: (c.suit, -c.rank))


def _cost_text(cost: int | str) -> Text:
    return Text(str(cost), style="bold" if cost not in (0, "0.0") else "dim")


def _percent(chance: float) -> str:
    """A chance (or a difference of chances) in percent, one decimal."""
    return f"{100 * chance:.1f}"


def _biggest(move, cost) -> Text:
    if move is None:
        return Text("-")
    return Text.assemble(f"move {move.number} ", render.card_text(move.card), f" -{cost}")
