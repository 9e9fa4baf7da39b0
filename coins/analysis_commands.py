"""The ``analyze``, ``review`` and ``graph`` commands, and the rich rendering of their data.

``coins.commands`` registers them with ``analysis_commands.register(add)``, where
``add(name, function)`` is its helper that makes a sub-parser from a
command function's docstring. The work is done in ``analysis``; this module
only parses arguments and prints.
"""

from __future__ import annotations

import argparse
import json
import sys

from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from analysis import (
    Analysis,
    Review,
    equivalent_cards,
    write_graph,
)
from analysis.graph import DEFAULT_MAX_POSITIONS, MOST_POSITIONS
from analysis.hint import MAX_SAMPLES
from analysis.reach import EXACT_REACH
from analysis.reviews import LABELS, MARKS, plot_review
from solver import Position
from solver.cards import DECK_SIZE, HAND_SIZE, SEATS, Card

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
    """Review a record of play: what each card cost its player, every hand open and,
    with --seat, with what that seat knew.

    The record is a position, " | ", then the cards played ("... 0 - | JO KC
    AO"), quoted: a whole hand of 48 cards or any part of one. For each card:
    its max^n cost (the mover's own points with its best card minus with the
    card played, everyone playing for themselves) and its paranoid cost (the
    same for guaranteed points), exact where the search finishes and
    estimated (~) beyond, a label (inaccuracy, mistake, blunder), the running
    score, and a summary per seat with its accuracy. The review works from
    the last card backward, so a time limit leaves the first cards
    unreviewed, and says which; Ctrl-C keeps what was reviewed. With --seat,
    that seat's cards are also valued by a hint from its view at the time,
    and labelled by that. With --target (and --scores, the match scores when
    the record's hand began) also each card's cost in the chance of winning
    the match, until a seat reaches the target.
    """
    compile_notice()
    with search_status() as progress:
        result = api.review_record(args, progress)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        Console().print(review_report(result))
    if args.plot is not None:
        print(
            f"wrote {plot_review(result, args.plot)}", file=sys.stderr if args.json else sys.stdout
        )
    if result.interrupted:
        raise KeyboardInterrupt  # after the report: exit status 130


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
    why = (
        "Ctrl-C"
        if stopped
        else "the node or time limit"
        if graph.graph.get("out_of_budget")
        else None
    )
    print(
        f"wrote {path}: {graph.number_of_nodes()} positions, {graph.number_of_edges()} edges "
        f"({args.mode}, depth {args.depth} {args.unit})"
        + (f"; stopped by {why}: positions not yet solved have no values" if why else "")
    )
    if stopped:
        raise KeyboardInterrupt  # after writing what was found: exit status 130


def register(add) -> None:
    """Add the analysis commands through ``coins.commands``' ``add(name, function)`` helper."""

    def position_argument(parser):
        parser.add_argument(
            "position",
            nargs="+",
            metavar="POSITION",
            help='the position, quoted ("AK9.N32.75.J84 ... 0 -") or as separate words',
        )

    analyze_parser = add("analyze", analyze_command)
    position_argument(analyze_parser)
    options.add_limits(analyze_parser, "the analysis (what is done so far is shown)")
    options.add_match(analyze_parser, "follow the match line and value every card")
    analyze_parser.add_argument(
        "--exact-cards",
        type=options.cards_per_hand(0),
        default=EXACT_REACH.analyze_points,
        metavar="K",
        help="solve decisions exactly up to K cards a hand, estimate beyond "
        f"(default {EXACT_REACH.analyze_points})",
    )
    analyze_parser.add_argument(
        "--json", action="store_true", help="print one JSON object instead of tables"
    )

    review_parser = add("review", review_command)
    review_parser.add_argument(
        "record",
        nargs="+",
        metavar="RECORD",
        help='the record of play, quoted: "<position> | <card> <card> ..."',
    )
    options.add_limits(review_parser, "the review (the cards reviewed so far are shown)")
    options.add_match(review_parser, "also review every card")
    review_parser.add_argument(
        "--seat",
        type=int,
        choices=(0, 1, 2),
        help="also review this seat's cards with what it knew (a hint at each of its decisions)",
    )
    review_parser.add_argument(
        "--samples",
        type=options.whole_number("samples", 1, MAX_SAMPLES),
        metavar="N",
        help="with --seat: N deals for each of its hints, with no time limit, so that every "
        "run gives the same answer (default: the deals that fit in the time)",
    )
    review_parser.add_argument(
        "--exact-cards",
        type=options.cards_per_hand(0),
        default=HAND_SIZE,
        metavar="K",
        help="estimate every decision of more than K cards a hand (default: solve exactly "
        "as far back as the time allows)",
    )
    review_parser.add_argument(
        "--json", action="store_true", help="print one JSON object instead of tables"
    )
    review_parser.add_argument(
        "--plot",
        type=options.plot_file,
        metavar="FILE",
        help="also draw the hand's evaluation curve, its marked cards on it, to FILE "
        "(.png .svg .pdf; needs matplotlib: the [plots] extra)",
    )
    options.add_force(
        review_parser, "the plot", lambda args: [] if args.plot is None else [args.plot]
    )

    graph_parser = add("graph", graph_command)
    position_argument(graph_parser)
    graph_parser.add_argument(
        "--depth",
        type=options.whole_number("the depth", 0, DECK_SIZE),
        default=1,
        metavar="D",
        help=f"cards (or tricks) deep, 0-{DECK_SIZE} (default 1)",
    )
    graph_parser.add_argument(
        "--out",
        required=True,
        type=options.graph_file,
        metavar="FILE",
        help="the file to write: .svg .png .pdf (Graphviz), .dot .gv .graphml .json",
    )
    graph_parser.add_argument(
        "--mode",
        choices=("paranoid", "maxn"),
        default="paranoid",
        help="paranoid: guaranteed values (default); maxn: each for themselves",
    )
    graph_parser.add_argument(
        "--unit",
        choices=("cards", "tricks"),
        default="cards",
        help="what --depth counts (default cards)",
    )
    graph_parser.add_argument(
        "--optimal-only",
        action="store_true",
        help="below the first card, follow only optimal cards",
    )
    graph_parser.add_argument(
        "--max-positions",
        type=options.whole_number("the most positions", 1, MOST_POSITIONS),
        default=DEFAULT_MAX_POSITIONS,
        metavar="N",
        help=f"refuse graphs of more than N positions (default {DEFAULT_MAX_POSITIONS}, "
        f"at most {MOST_POSITIONS:,})",
    )
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
            if card == played
            else render.card_text(card)
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
        columns["win"] = [
            "-" if result.chances is None else f"{100 * c:.1f}%" for c in result.chances
        ]
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
            "best); "
            + (
                f"win: its chance of winning the match after it, in % ({MATCH_MARK} best); "
                if match
                else ""
            )
            + "equivalent cards go together (A/B); the card played is underlined; modes "
            f"disagree: -N where the {'match' if match else 'max^n'} card gives up N "
            "guaranteed points"
            + ("; for the match: -N where it gives up N own points (max^n)." if match else "."),
            style="dim",
        ),
    ]
    table = _table(
        ("#", "right"),
        ("seat", "right"),
        ("plays", "left"),
        ("paranoid", "left"),
        ("max^n", "left"),
        *((("win", "left"),) if match else ()),
        ("", "left"),
    )
    for d in result.decisions:
        by_card = {c.card: c for c in d.cards}
        paranoid = (
            Text("-", style="dim")
            if d.guaranteed is None
            else _runs_cell(
                d.position,
                lambda c: by_card[c].paranoid,
                lambda c: render.OPTIMAL_MARK if by_card[c].paranoid_optimal else "",
                d.played,
            )
        )
        maxn = _runs_cell(
            d.position,
            lambda c: render.number(by_card[c].maxn[d.seat]),
            lambda c: BEST_MARK if by_card[c].maxn_best else "",
            d.played,
        )
        win = (
            ()
            if not match
            else (
                _runs_cell(
                    d.position,
                    lambda c: (
                        f"{'~' if d.chances_estimated else ''}"
                        f"{100 * by_card[c].chances[d.seat]:.1f}"
                    ),
                    lambda c: (
                        MATCH_MARK
                        if round(by_card[c].chances[d.seat], 9) == round(d.chances[d.seat], 9)
                        else ""
                    ),
                    d.played,
                ),
            )
        )
        notes = []
        if d.disagree:
            notes.append(Text(f"modes disagree: -{d.paranoid_cost}", style="bold"))
        if match and d.points_cost > 0:
            notes.append(Text(f"for the match: -{render.number(d.points_cost)}", style="bold"))
        if d.trick_winner is not None:
            notes.append(Text(f"trick {d.trick}: seat {d.trick_winner} +{d.trick_points}"))
        table.add_row(
            str(d.number),
            str(d.seat),
            render.card_text(d.played),
            paranoid,
            maxn,
            *win,
            Text("\n").join(notes),
        )
    parts.append(table)
    if result.decisions:
        parts.append(Text(_modes_text(result, match)))
    estimated = [d.number for d in result.decisions if d.estimated]
    if estimated:
        parts.append(
            Text(
                f"Estimated, not proven (~): the max^n values of moves {estimated[0]}-{estimated[-1]}"
                f"{'' if len(estimated) == estimated[-1] - estimated[0] + 1 else ' (some)'}, "
                "beyond exact reach; the main line follows the estimate there.",
                style="bold",
            )
        )
    guessed = [d.number for d in result.decisions if d.chances_estimated]
    if guessed:
        parts.append(
            Text(
                f"Estimated, not proven (~): the chances of winning at moves {guessed[0]}-"
                f"{guessed[-1]}, beyond exact reach; the match line follows the estimate there.",
                style="bold",
            )
        )
    if not result.complete:
        stopped = (
            "it was stopped (Ctrl-C)" if result.interrupted else "the node or time limit ran out"
        )
        parts.append(
            Text(
                f"Not complete: {stopped}; the decisions above are the ones finished.",
                style="bold",
            )
        )
    parts.append(
        Text(
            f"{'exact' if result.exact else 'not exact'}, {result.nodes:,} nodes, "
            f"{result.seconds:.2f} s",
            style="dim",
        )
    )
    return Group(*parts)


def _seat_value(values, seat: int) -> str:
    return "-" if values is None or values[seat] is None else render.number(values[seat])


def review_report(result: Review) -> Group:
    """Everything ``coins review`` shows for people."""
    position = result.position
    match = result.match is not None
    known = result.seat is not None
    parts: list[RenderableType] = [
        Text.assemble(("Record ", "bold"), result.record),
        Text(""),
        render.hands_table(position, {"taken": [str(t) for t in position.taken]}),
        Text(""),
        render.trick_text(position),
        Text(
            "cost: what the card lost its player against its best card, in points from that "
            "decision on. m: own points, everyone for themselves (max^n); g: guaranteed points, "
            "the other two against it (paranoid), where proven; ~: estimated"
            + (
                f"; knew: seat {result.seat}'s cost on the deals it could not rule out, from a "
                "hint from its view at the time, ± its standard error"
                if known
                else ""
            )
            + ("; win: the chance of winning the match, in percentage points" if match else "")
            + ". "
            + _labels_legend(known),
            style="dim",
        ),
        *([render.match_legend(result.match)] if match else []),
        Text(""),
    ]
    win = (("win\ncost", "right"), ("win\nbest", "left")) if match else ()
    table = _table(
        ("#", "right"),
        ("seat", "right"),
        ("card", "left"),
        ("m\ncost", "right"),
        ("m\nbest", "left"),
        ("g\ncost", "right"),
        *((("knew", "right"),) if known else ()),
        *win,
        ("taken", "left"),
        ("trick\nwon", "left"),
    )
    reviewed = {m.number: m for m in result.moves}
    for number, card, seat in _numbered(result):
        m = reviewed.get(number)
        if m is None:
            table.add_row(
                str(number), str(seat), render.card_text(card), Text("not reviewed", style="dim")
            )
            continue
        win_cells = (
            ()
            if not match
            else (
                ("-", "")
                if m.chances is None
                else (
                    _cost_text(_percent(m.match_cost)),
                    render.cards_text(_high_first(m.match_best)),
                )
            )
        )
        table.add_row(
            str(m.number),
            str(m.seat),
            Text.assemble(render.card_text(m.card), _mark_text(m.label)),
            _cost_text(render.number(m.maxn_cost) if m.estimated else str(m.maxn_cost)),
            render.cards_text(_high_first(m.maxn_best)),
            _cost_text("-" if m.paranoid_cost is None else str(m.paranoid_cost)),
            *(() if not known else (_known_text(m.known),)),
            *win_cells,
            ",".join(map(str, m.taken)),
            f"{m.trick_winner} +{m.trick_points}" if m.trick_winner is not None else "",
        )
    parts.append(table)
    summary = _table(
        ("seat", "right"),
        ("cards", "right"),
        ("accuracy", "right"),
        *((MARKS[name], "right") for name, _ in reversed(LABELS)),
        ("m lost", "right"),
        ("m biggest", "left"),
        ("g lost", "right"),
        *((("knew lost", "right"),) if known else ()),
        *((("win lost", "right"), ("win biggest", "left")) if match else ()),
    )
    for s in result.summary:
        knew_cells = () if not known else (f"{s.known_lost:.2f}" if s.seat == result.seat else "",)
        win_cells = (
            ()
            if not match
            else (
                _percent(s.match_lost),
                _biggest(s.biggest_match, s.biggest_match and _percent(s.biggest_match.match_cost)),
            )
        )
        biggest = s.biggest_maxn
        summary.add_row(
            str(s.seat),
            str(s.moves),
            "-" if s.accuracy is None else f"{s.accuracy:.0f}%",
            *(str(s.labels[name]) for name, _ in reversed(LABELS)),
            render.number(float(s.maxn_lost)) if s.estimated else str(s.maxn_lost),
            _biggest(
                biggest,
                biggest
                and (render.number(biggest.maxn_cost) if biggest.estimated else biggest.maxn_cost),
            ),
            str(s.paranoid_lost),
            *knew_cells,
            *win_cells,
        )
    final = result.final
    parts += [
        Text(""),
        Text(
            "Summary per seat (points lost: the sum of its costs; g over the proven ones)",
            style="bold",
        ),
        summary,
        Text(""),
        Text(
            f"Score after the record (taken): {','.join(map(str, final.taken))}"
            + (" (the hand is over)" if final.is_terminal else "")
        ),
    ]
    estimated = [m.number for m in result.moves if m.estimated]
    if estimated:
        parts.append(
            Text(
                f"Estimated (~): moves {_numbers_text(estimated)}, beyond what the exact search "
                "finished in the time; their g costs are not proven."
            )
        )
    if result.missing:
        why = "stopped by Ctrl-C" if result.interrupted else "the node or time limit ran out"
        parts.append(
            Text(
                f"Not reviewed: moves {_numbers_text(result.missing)} of {len(result.cards)} "
                f"({why}; the review works from the last card backward).",
                style="bold",
            )
        )
    parts.append(
        Text(
            f"{'exact' if result.exact else 'not exact'}, {result.nodes:,} nodes, "
            f"{result.seconds:.2f} s",
            style="dim",
        )
    )
    return Group(*parts)


MARK_STYLES = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}


def _labels_legend(known: bool) -> str:
    thresholds = ", ".join(
        f"{MARKS[name]} {name} from {least:g}" for name, least in reversed(LABELS)
    )
    by = "by what it knew for that seat, else by the m cost" if known else "by the m cost"
    return (
        f"Marks: {thresholds} points, {by} (an estimated m cost counts as the whole "
        "number of points nearest it, as exact ones are whole; none for a tie in the hint); "
        "accuracy: the share of a seat's choices (its cards not all giving the same) that "
        "earned no mark."
    )


def _modes_text(result: Analysis, match: bool) -> str:
    """Where the modes part, said only of the decisions whose paranoid values exist."""
    compared = [d.number for d in result.compared]
    if not compared:
        return "The modes were not compared: no decision's paranoid values were computed."
    disagree = [d.number for d in result.disagreements]
    some = len(compared) < len(result.decisions)
    where = f" of the moves with paranoid values ({_numbers_text(compared)})" if some else ""
    if disagree:
        return (
            f"Modes disagree at move{'s' if len(disagree) > 1 else ''} "
            f"{', '.join(map(str, disagree))}{where}."
        )
    line = "match" if match else "max^n"
    if some:
        return f"The {line} line plays paranoid-optimal cards at every move{where}."
    return f"The {line} line plays paranoid-optimal cards throughout."


def _numbered(result: Review):
    """(number, card, seat) for every card of the record."""
    position = result.position
    for number, card in enumerate(result.cards, start=1):
        yield number, card, position.to_move
        position = position.play(card)


def _mark_text(label: str | None) -> Text:
    return Text("") if label is None else Text(" " + MARKS[label], style=MARK_STYLES[label])


def _known_text(known) -> Text:
    if known is None:
        return Text("")
    spread = "" if known.stderr is None else f"±{known.stderr:.2f}"
    return Text(
        f"{known.cost:.2f}{spread}" + ("=" if known.tied else ""),
        style="dim" if known.label is None else "bold",
    )


def _numbers_text(numbers: list[int]) -> str:
    """Move numbers as runs: ``1-12, 15``."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


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
    return Text.assemble(f"#{move.number} ", render.card_text(move.card), f" -{cost}")
