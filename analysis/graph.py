"""Decision graphs: the positions reachable from a position, cards as edges, with values.

``decision_graph`` builds a networkx ``DiGraph``. Nodes are positions, keyed
by their RULES.md text (positions reached by different orders of the same
cards are one node), with the values of the chosen mode:

- ``mode="paranoid"``: each seat's guaranteed value from the node on (the
  other two play together against it); an edge's ``value`` is the mover's
  card value, ``optimal`` when it keeps the mover's guaranteed value;
- ``mode="maxn"``: the equilibrium points of the three seats from the node
  on (everyone for themselves); an edge's ``value`` is the three-seat result
  after the card, ``optimal`` when it gives the mover the most own points,
  ``choice`` for the one card the RULES.md tie-break plays.

Equivalent cards (a run in the mover's hand with no live card between them:
they win and lose the same tricks) share one edge labelled with all of them;
it leads to the position after the lowest of them. ``write_graph`` saves a
graph as GraphML, DOT, node-link JSON, or a picture through Graphviz.

Node attributes: ``position``, ``to_move`` (None when the hand is over),
``values`` (three ints), ``trick`` (cards on the table), ``taken``,
``level`` (cards or tricks from the root), ``expanded``, and when the card
that led here closed a trick, ``trick_winner`` and ``trick_points`` (else
None and 0). Edge attributes: ``card`` (text, e.g. ``"JC/9C"``), ``cards``,
``seat``, ``value``, ``own`` (the mover's part of ``value``), ``optimal``,
``choice``.
"""

from __future__ import annotations

import html
import json
import shutil
import subprocess
from pathlib import Path

import networkx as nx

from solver import CoinsError, Position, checks
from solver.cards import DECK_SIZE, SEATS, SUIT_LETTERS, SUIT_NAMES, Card, format_hand
from solver.equivalence import equivalent_runs
from solver.errors import PathError

from ._common import Budget, BudgetSpent, as_position, points_won, preferred_card

MODES = ("paranoid", "maxn")
UNITS = ("cards", "tricks")
DEFAULT_MAX_POSITIONS = 2000
# The largest graph one may ask for: beyond it neither networkx's memory nor dot's
# layout is of any use.
MOST_POSITIONS = 100_000

# Suit colours of the Spanish deck, dark enough to read on white
# (the terminal's are in coins/render.py).
SUIT_COLOURS = ("#c62828", "#b8860b", "#1565c0", "#2e7d32")
SEAT_FILLS = ("#e3f2fd", "#fff3e0", "#f3e5f5")  # the seat to move, as node fill
DOT_EXTENSIONS = (".dot", ".gv")
PICTURE_EXTENSIONS = (".svg", ".png", ".pdf")
NO_GRAPHVIZ = (
    "Graphviz's dot program is not installed: apt-get install graphviz, "
    "or write .dot/.graphml/.json"
)


class GraphvizMissing(CoinsError):
    """A picture was asked for but Graphviz's ``dot`` program is not on PATH."""


class GraphTooLarge(CoinsError):
    """The graph would hold more positions than allowed."""


class GraphInterrupted(CoinsError):
    """Ctrl-C stopped ``decision_graph``; ``graph`` holds the positions found so far
    (those not yet solved have ``values`` None)."""

    def __init__(self, graph: nx.DiGraph):
        super().__init__(f"the graph was stopped (Ctrl-C) at {graph.number_of_nodes()} positions")
        self.graph = graph


def decision_graph(
    position: Position | str,
    depth: int = 1,
    mode: str = "paranoid",
    unit: str = "cards",
    optimal_only_after_first: bool = False,
    *,
    max_positions: int = DEFAULT_MAX_POSITIONS,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    progress=None,
) -> nx.DiGraph:
    """The decision graph of ``position`` to ``depth`` cards or tricks (``unit``).

    With ``unit="tricks"`` every card is still a node; ``depth`` counts the
    tricks that close (finishing the trick on the table counts as one).
    ``optimal_only_after_first`` draws every card at the root and only the
    optimal edges below it. ``max_positions`` stops a graph that grows too
    big (``GraphTooLarge``); ``max_nodes``/``time_limit`` bound the solver
    work of the whole graph: when they run out the graph so far is returned,
    its ``out_of_budget`` attribute set and the positions not yet solved
    without values. ``progress``
    is called with a line of text at each position solved; Ctrl-C raises
    ``GraphInterrupted`` holding the graph so far.

    >>> g = decision_graph("7...2 K.3.. J.6.. 0 - 0,1,0", depth=1)
    >>> sorted((d["card"], d["value"], d["optimal"]) for _, _, d in g.edges(data=True))
    [('2B', 0, True), ('7C', 0, True)]
    """
    position = as_position(position)
    if mode not in MODES:
        raise CoinsError(f'mode must be "paranoid" or "maxn", not {mode!r}')
    if unit not in UNITS:
        raise CoinsError(f'unit must be "cards" or "tricks", not {unit!r}')
    checks.whole_number(depth, f"depth (in {unit})", 0, DECK_SIZE)
    checks.whole_number(max_positions, "max_positions", 1, MOST_POSITIONS)
    budget = Budget(max_nodes, time_limit)
    graph = nx.DiGraph(
        root=str(position),
        mode=mode,
        unit=unit,
        depth=depth,
        optimal_only_after_first=optimal_only_after_first,
    )
    try:
        _build(
            graph,
            position,
            depth,
            mode,
            unit,
            optimal_only_after_first,
            max_positions,
            budget,
            progress,
        )
    except KeyboardInterrupt:
        graph.graph["interrupted"] = True
        raise GraphInterrupted(_stamped(graph, budget)) from None
    except BudgetSpent:
        graph.graph["out_of_budget"] = True  # kept as Ctrl-C keeps it: unsolved positions bare
    return _stamped(graph, budget)


def _stamped(graph: nx.DiGraph, budget: Budget) -> nx.DiGraph:
    graph.graph["nodes"] = budget.nodes
    graph.graph["seconds"] = round(budget.seconds, 6)
    return graph


def _build(graph, root, depth, mode, unit, optimal_only, max_positions, budget, progress) -> None:
    _add_node(graph, root, level=0, winner=None, points=0)
    frontier = [root]
    while frontier:
        following = []
        for position in frontier:
            node = graph.nodes[str(position)]
            if progress is not None:
                progress(f"position {graph.number_of_nodes()}: level {node['level']} of {depth}")
            if position.is_terminal or node["level"] >= depth:
                _set_values(graph, position, mode, budget, children=False)
                continue
            cards = _set_values(graph, position, mode, budget, children=True)
            node["expanded"] = True
            mover = position.to_move
            for run in equivalent_runs(position):
                info = cards[run[0]]
                if optimal_only and position is not root and not info["optimal"]:
                    continue
                child = position.play(run[-1])  # the lowest card of the run
                winner, points = points_won(position, child)
                key = str(child)
                if key not in graph:
                    level = node["level"] + (1 if unit == "cards" or winner is not None else 0)
                    _add_node(graph, child, level, winner, points)
                    if graph.number_of_nodes() > max_positions:
                        raise GraphTooLarge(
                            f"the graph would hold more than {max_positions} positions: "
                            "lower the depth, or expand only optimal cards after the first"
                        )
                    following.append(child)
                graph.add_edge(
                    str(position),
                    key,
                    card="/".join(str(c) for c in run),
                    cards=[str(c) for c in run],
                    seat=mover,
                    **info,
                )
        frontier = following


def _add_node(graph, position: Position, level: int, winner, points: int) -> None:
    graph.add_node(
        str(position),
        position=str(position),
        to_move=None if position.is_terminal else position.to_move,
        values=None,
        trick=[str(c) for c in position.trick],
        taken=list(position.taken),
        level=level,
        expanded=False,
        trick_winner=winner,
        trick_points=points,
    )


def _set_values(graph, position: Position, mode: str, budget: Budget, children: bool) -> dict:
    """Set the node's values; with ``children`` return each card's edge attributes."""
    node = graph.nodes[str(position)]
    if position.is_terminal:
        node["values"] = [0, 0, 0]
        return {}
    mover = position.to_move
    cards = {}
    if mode == "paranoid":
        result = budget.paranoid(position, (0, 1, 2), card_values=children, line=False)
        node["values"] = list(result.guaranteed)
        for card, value in result.card_values.items():
            cards[card] = dict(value=value, own=value, optimal=card in result.optimal, choice=False)
    else:
        result = budget.maxn(position, card_results=children, line=False)
        node["values"] = list(result.equilibrium)
        if children:
            best = max(r[mover] for r in result.card_results.values())
            choice = preferred_card(result.card_results, mover)
            for card, values in result.card_results.items():
                cards[card] = dict(
                    value=list(values),
                    own=values[mover],
                    optimal=values[mover] == best,
                    choice=False,
                )
            for run in equivalent_runs(position):
                if choice in run:
                    for card in run:
                        cards[card]["choice"] = True
    return cards


# ----- writing --------------------------------------------------------------


def check_graph_file(path: str | Path) -> Path:
    """``path`` if ``write_graph`` can write there: a known extension, Graphviz's
    ``dot`` for a picture (``GraphvizMissing``), a file that can be written
    (``PathError``). ``coins graph`` checks this before building the graph."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".graphml", ".json", *DOT_EXTENSIONS, *PICTURE_EXTENSIONS):
        raise PathError(
            f'cannot write "{path}": the file name must end in .graphml, .json, .dot, .gv, '
            ".svg, .png or .pdf"
        )
    if suffix in PICTURE_EXTENSIONS and shutil.which("dot") is None:
        raise GraphvizMissing(NO_GRAPHVIZ)
    return checks.output_file(path, "the graph file")


def write_graph(graph: nx.DiGraph, path: str | Path) -> Path:
    """Write ``graph`` to ``path`` in the format its extension names.

    ``.graphml`` (lists become comma-separated text, None is left out),
    ``.json`` (networkx node-link data: ``nx.node_link_graph`` reads it
    back), ``.dot``/``.gv`` (Graphviz source with colours, bold optimal
    edges and a legend), ``.svg``/``.png``/``.pdf`` (drawn by Graphviz's
    ``dot`` program; ``GraphvizMissing`` when it is not installed).
    ``check_graph_file`` says what else is refused.
    """
    path = check_graph_file(path)
    suffix = path.suffix.lower()
    try:
        if suffix == ".graphml":
            nx.write_graphml(flat_graph(graph), path)
        elif suffix == ".json":
            path.write_text(json.dumps(nx.node_link_data(graph), indent=1) + "\n", encoding="utf-8")
        elif suffix in DOT_EXTENSIONS:
            path.write_text(to_dot(graph), encoding="utf-8")
        else:
            render(graph, path, suffix[1:])
    except OSError as error:  # the disk filled up, the folder went away ...
        raise PathError(f"cannot write the graph file {path}: {error.strerror}") from None
    return path


def render(graph: nx.DiGraph, path: Path, fmt: str) -> None:
    dot = shutil.which("dot")
    done = subprocess.run(
        [dot, f"-T{fmt}", "-o", str(path)], input=to_dot(graph).encode(), capture_output=True
    )
    if done.returncode != 0:
        message = done.stderr.decode(errors="replace").strip().splitlines()
        raise CoinsError(f"Graphviz's dot failed: {message[0] if message else done.returncode}")
    if fmt == "svg":
        # dot writes each piece of a label as its own text element; without this
        # viewers drop the spaces at their ends ("0: 2   1: 0" reads "0: 21: 0")
        svg = path.read_text(encoding="utf-8")
        path.write_text(svg.replace("<svg ", '<svg xml:space="preserve" ', 1), encoding="utf-8")


def flat_graph(graph: nx.DiGraph) -> nx.DiGraph:
    """A copy whose attributes GraphML can hold: lists as ``"1,2,0"``, no None."""

    def flat(data: dict) -> dict:
        out = {}
        for name, value in data.items():
            if value is None:
                continue
            if isinstance(value, (list, tuple)):
                value = ",".join(str(v) for v in value)
            out[name] = value
        return out

    copy = nx.DiGraph(**flat(graph.graph))
    copy.add_nodes_from((n, flat(d)) for n, d in graph.nodes(data=True))
    copy.add_edges_from((u, v, flat(d)) for u, v, d in graph.edges(data=True))
    return copy


# ----- DOT ------------------------------------------------------------------


def _card_html(text: str, bold: bool = False) -> str:
    card = Card.parse(text)
    inner = f"<b>{text}</b>" if bold else text
    return f'<font color="{SUIT_COLOURS[card.suit]}">{inner}</font>'


def _values_html(values, mover: int | None) -> str:
    if values is None:
        return "not solved"
    cells = []
    for seat, value in enumerate(values):
        text = f"{seat}: {value}"
        cells.append(f"<b>{text}</b>" if seat == mover else text)
    return " &nbsp; ".join(cells)


def _hands_html(position: Position) -> str:
    rows = [
        '<tr><td align="left"><b>seat</b></td>'
        + "".join(
            f'<td><font color="{SUIT_COLOURS[s]}"><b>{SUIT_LETTERS[s]}</b></font></td>'
            for s in range(4)
        )
        + "</tr>"
    ]
    for seat in range(SEATS):
        groups = format_hand(position.hands[seat]).split(".")
        rows.append(
            f'<tr><td align="left">{seat}</td>'
            + "".join(
                f'<td align="left"><font color="{SUIT_COLOURS[s]}">{html.escape(g) or "-"}</font></td>'
                for s, g in enumerate(groups)
            )
            + "</tr>"
        )
    return "".join(rows)


def _node_label(graph: nx.DiGraph, key: str, data: dict, is_root: bool) -> str:
    position = Position.parse(data["position"])
    rows = []
    if data.get("trick_winner") is not None:
        rows.append(f"seat {data['trick_winner']} wins the trick, +{data['trick_points']}")
    if data["to_move"] is None:
        rows.append("<b>hand over</b>")
    else:
        rows.append(f"<b>seat {data['to_move']} to move</b>")
    if data["trick"]:
        rows.append("on the table: " + " ".join(_card_html(c) for c in data["trick"]))
    if data["values"] is not None:
        rows.append(_values_html(data["values"], data["to_move"]))
    body = "".join(f'<tr><td colspan="5">{row}</td></tr>' for row in rows)
    if is_root:
        body = _hands_html(position) + body
        if any(position.taken):
            body += f'<tr><td colspan="5">taken {",".join(map(str, position.taken))}</td></tr>'
    return f'<<table border="0" cellborder="0" cellspacing="1" cellpadding="1">{body}</table>>'


def _edge_label(data: dict, mode: str) -> str:
    cards = "/".join(_card_html(c, data["optimal"]) for c in data["cards"])
    if mode == "paranoid":
        value = str(data["value"])
    else:
        value = "&middot;".join(
            f"<b>{v}</b>" if seat == data["seat"] else str(v)
            for seat, v in enumerate(data["value"])
        )
    mark = " *" if data.get("choice") else ""
    return f"<{cards} {value}{mark}>"


def _legend(mode: str, root: str | None) -> str:
    if mode == "paranoid":
        values = (
            "guaranteed points of seats 0, 1, 2 from here on "
            "(each against the other two together; the mover's in bold)"
        )
        edge = "card(s) played and the mover's guaranteed value after it"
        bold = "bold edge: optimal, keeps the mover's guaranteed value"
        extra = ""
    else:
        values = (
            "equilibrium points of seats 0, 1, 2 from here on "
            "(everyone plays for their own points; the mover's in bold)"
        )
        edge = "card(s) played and the points of seats 0&middot;1&middot;2 after it"
        bold = "bold edge: best for the mover (most own points)"
        extra = (
            '<tr><td align="left">thickest edge, *: the card the equilibrium plays '
            "(RULES.md tie-break)</td></tr>"
        )
    suits = " &nbsp; ".join(
        f'<font color="{SUIT_COLOURS[s]}"><b>{SUIT_LETTERS[s]}</b> {SUIT_NAMES[s]}</font>'
        for s in range(4)
    )
    fills = " ".join(
        f'<td bgcolor="{SEAT_FILLS[s]}" border="1">seat {s} to move</td>' for s in range(SEATS)
    )
    title = "paranoid (guaranteed)" if mode == "paranoid" else "max^n (each for themselves)"
    rows = [
        f"<b>{html.escape(root or '')}</b> &nbsp; {title} values",
        f"node: {values}",
        f"edge: {edge}; equivalent cards share one edge (A/B)",
        bold + "; grey dashed: not optimal",
        f"suits: {suits}",
    ]
    body = "".join(f'<tr><td align="left">{row}</td></tr>' for row in rows) + extra
    body += f'<tr><td><table border="0" cellspacing="3"><tr>{fills}</tr></table></td></tr>'
    return f'<<table border="0" cellborder="0" cellspacing="2">{body}</table>>'


def to_dot(graph: nx.DiGraph) -> str:
    """Graphviz source for ``graph``: suit-coloured cards, optimal edges bold,
    values on nodes (the mover's in bold), the root with its hands, a legend."""
    mode = graph.graph.get("mode", "paranoid")
    root = graph.graph.get("root")
    ids = {key: f"n{i}" for i, key in enumerate(graph.nodes)}
    lines = [
        "digraph coins {",
        '  graph [rankdir=LR, fontname="DejaVu Sans", fontsize=11, nodesep=0.15, ranksep=0.6];',
        '  node [shape=box, style="rounded,filled", fontname="DejaVu Sans", fontsize=10, '
        'color="#607d8b"];',
        '  edge [fontname="DejaVu Sans", fontsize=10];',
    ]
    for key, data in graph.nodes(data=True):
        fill = "#eeeeee" if data["to_move"] is None else SEAT_FILLS[data["to_move"]]
        extra = ", penwidth=2" if key == root else ""
        lines.append(
            f"  {ids[key]} [label={_node_label(graph, key, data, key == root)}, "
            f'fillcolor="{fill}"{extra}];'
        )
    for u, v, data in graph.edges(data=True):
        if data.get("choice"):
            style = 'style=bold, penwidth=4, color="#000000"'
        elif data["optimal"]:
            style = 'style=bold, penwidth=2.5, color="#212121"'
        else:
            style = 'style=dashed, color="#9e9e9e", fontcolor="#757575"'
        lines.append(f"  {ids[u]} -> {ids[v]} [label={_edge_label(data, mode)}, {style}];")
    lines += [f"  label={_legend(mode, root)};", "  labelloc=b; labeljust=l;", "}"]
    return "\n".join(lines) + "\n"


__all__ = [
    "NO_GRAPHVIZ",
    "GraphTooLarge",
    "GraphvizMissing",
    "decision_graph",
    "flat_graph",
    "to_dot",
    "write_graph",
]
