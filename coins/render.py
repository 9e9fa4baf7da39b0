"""Rich renderables for positions, cards and solver results, shared by the CLI commands.

Colours follow the Spanish deck (Cups red, Coins gold, Swords blue, Clubs
green) but never carry meaning alone: every card keeps its suit letter and
every hand column is headed by its suit, so the output reads the same with
``NO_COLOR`` or through a pipe. Markers are plain ASCII for the same reason.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich import box
from rich.console import Console, Group, RenderableType
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from analysis.estimate import ESTIMATE_TIE, Estimate
from solver import MatchState, MatchValues, SolveResult
from solver.cards import SEATS, SUIT_LETTERS, SUIT_NAMES, Card, format_hand
from solver.position import Position

SUIT_STYLES = ("red", "yellow", "blue", "green")
OPTIMAL_MARK = "*"


def card_text(card: Card) -> Text:
    """``AO`` in its suit's colour."""
    return Text(str(card), style=SUIT_STYLES[card.suit])


def cards_text(cards: Sequence[Card], separator: str = " ") -> Text:
    return Text(separator).join(card_text(card) for card in cards)


def suit_heading(suit: int) -> Text:
    """Column heading for a suit: its letter and name, e.g. ``O Coins``."""
    return Text(f"{SUIT_LETTERS[suit]} {SUIT_NAMES[suit]}", style=f"bold {SUIT_STYLES[suit]}")


def ranks_text(hand: int, suit: int) -> Text:
    """The ranks ``hand`` holds in ``suit``, high to low (``A K 9``), or ``-``."""
    group = format_hand(hand).split(".")[suit]
    return Text(" ".join(group) or "-", style=SUIT_STYLES[suit])


def hands_table(
    position: Position, extra: Mapping[str, Sequence[RenderableType]] | None = None
) -> Table:
    """One row per seat, one column per suit; ``extra`` adds columns (heading ->
    one cell per seat), e.g. points taken or values."""
    extra = extra or {}
    table = _suits_table("seat")
    for heading in extra:
        table.add_column(heading, justify="right")
    for seat in range(SEATS):
        moving = seat == position.to_move and not position.is_terminal
        label = f"{seat} to move" if moving else str(seat)
        table.add_row(
            label, *suit_cells(position.hands[seat]), *(cells[seat] for cells in extra.values())
        )
    return table


def hand_table(hand: int, label: str) -> Table:
    """One hand alone, by suit (what a player sees of the deal): ``label`` heads
    the first column and names the row."""
    table = _suits_table("")
    table.add_row(label, *suit_cells(hand))
    return table


def suit_cells(hand: int) -> list[Text]:
    """The ranks ``hand`` holds, one cell per suit."""
    return [ranks_text(hand, suit) for suit in range(len(SUIT_LETTERS))]


def _suits_table(first: str) -> Table:
    """A table with a first column ``first`` and one column per suit."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column(first)
    for suit in range(len(SUIT_LETTERS)):
        table.add_column(suit_heading(suit))
    return table


def trick_text(position: Position) -> Text:
    """The cards on the table and who led them, or who leads next."""
    if not position.trick:
        return Text(f"Trick: none on the table, seat {position.leader} leads.")
    return Text.assemble("Trick: ", cards_text(position.trick), f" (seat {position.leader} led).")


def shown_interval(result: SolveResult, seat: int) -> tuple[int, int] | None:
    """The proven interval shown for a seat whose search stopped short, if any."""
    return result.bounds[seat] if result.guaranteed[seat] is None else None


def value_text(result: SolveResult, seat: int) -> str:
    """A seat's guaranteed value, its proven interval ``low-high`` when the
    search stopped short, or ``-`` when the seat was not asked."""
    if result.guaranteed[seat] is not None:
        return str(result.guaranteed[seat])
    interval = shown_interval(result, seat)
    return "-" if interval is None else f"{interval[0]}-{interval[1]}"


def card_values_table(values: Mapping[Card, object], marked: Sequence[Card]) -> Table:
    """The mover's cards by suit, high to low, each with its value (a number,
    or a three-seat result); ``marked`` cards get the optimal mark."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    columns: list[list[Text]] = [[] for _ in SUIT_LETTERS]
    for card in sorted(values, key=lambda c: (c.suit, -c.rank)):
        value = values[card]
        shown = _vector(value) if isinstance(value, (list, tuple)) else str(value)
        mark = f" {OPTIMAL_MARK}" if card in marked else ""
        columns[card.suit].append(Text.assemble(card_text(card), f" {shown}{mark}"))
    for suit, cells in enumerate(columns):
        if cells:
            table.add_column(suit_heading(suit))
    table.add_row(*(Text("\n").join(cells) for cells in columns if cells))
    return table


def number(value) -> str:
    """A whole number as itself, an estimate (a float) to one decimal with ``~``."""
    return str(value) if isinstance(value, int) else f"~{value:.1f}"


def _vector(values) -> str:
    """Three seats' points: ``2-1-0``, or estimated ``~2.3-1.1-0.6``."""
    if all(isinstance(v, int) for v in values):
        return "-".join(map(str, values))
    return "~" + "-".join(f"{v:.1f}" for v in values)


def chances_text(chances, estimated: bool = False) -> str:
    """Three seats' chances of winning the match in percent: ``78.0-18.5-3.5``
    (``~`` first when estimated)."""
    return ("~" if estimated else "") + "-".join(f"{100 * c:.1f}" for c in chances)


def match_texts(match: MatchValues | None, estimate: Estimate | None) -> list[RenderableType]:
    """The mover's cards with the chances of winning the match after each, and the
    line every seat plays for it; estimated (``estimate``) where the exact
    search did not finish."""
    if match is None:
        return []
    position = match.position
    mover = position.to_move
    parts: list[RenderableType] = []
    if match.card_chances:
        parts += [
            Text(""),
            Text(
                f"Seat {mover}'s cards and the chances of seats 0-1-2 to win the match after "
                f"each, in % ({OPTIMAL_MARK} the card played for the match)",
                style="bold",
            ),
            card_values_table(
                {card: chances_text(chances) for card, chances in match.card_chances.items()},
                [match.best],
            ),
        ]
    elif estimate is not None:
        parts += [
            Text(""),
            Text(
                f"Estimated, not proven: seat {mover}'s cards and the chances of seats 0-1-2 "
                f"to win the match after each, in % ({OPTIMAL_MARK} the estimate's choice)",
                style="bold",
            ),
            card_values_table(
                {
                    card: chances_text(chances, True)
                    for card, chances in estimate.card_results.items()
                },
                [estimate.best],
            ),
            Text(
                f"Estimate: searched {estimate.depth} trick(s) ahead, then a network's points "
                "turned into chances; the next hands from the table.",
                style="dim",
            ),
        ]
    if match.line:
        parts += [
            Text(""),
            Text("Match line: every seat plays to win the match", style="bold"),
            line_table(position, match.line),
        ]
    return parts


def match_legend(state: MatchState) -> Text:
    """What the ``win`` column means."""
    return Text(
        f"Win: each seat's chance of winning the match to {state.target} (scores "
        f"{','.join(map(str, state.scores))} when the hand began), every seat playing "
        "for it; after this hand, the model of the next hands (RULES.md).",
        style="dim",
    )


def win_column(match: MatchValues | None, estimate: Estimate | None) -> list[str] | None:
    """The hands table's column of each seat's chance of winning the match."""
    if match is None:
        return None
    if match.chances is not None:
        return [f"{100 * c:.1f}%" for c in match.chances]
    if estimate is not None:
        return [f"~{100 * c:.1f}%" for c in estimate.card_results[estimate.best]]
    return ["-"] * SEATS


def line_table(position: Position, line: Sequence[Card]) -> Table:
    """``line`` played out from ``position``, one row per trick with its winner
    and points; cards already on the table start the first row, dimmed."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("trick", justify="right")
    table.add_column("cards (seat:card)")
    table.add_column("winner", justify="right")
    table.add_column("coins", justify="right")
    played = [
        Text.assemble(f"{(position.leader + i) % SEATS}:", card_text(card), style="dim")
        for i, card in enumerate(position.trick)
    ]
    for card in line:
        seat = position.to_move
        after = position.play(card)
        played.append(Text.assemble(f"{seat}:", card_text(card)))
        if not after.trick:  # the trick is complete and resolved
            winner = after.leader
            points = after.taken[winner] - position.taken[winner]
            table.add_row(
                str(table.row_count + 1), Text("  ").join(played), str(winner), str(points)
            )
            played = []
        position = after
    if played:  # a line that stops mid-trick
        table.add_row(str(table.row_count + 1), Text("  ").join(played), "", "")
    return table


def hint_table(
    entries: Sequence,
    context: Mapping[Card, object] | None = None,
    match: bool = False,
    width: int | None = None,
) -> Table:
    """A hint's cards, best first: mean points, standard error, how often best,
    how far behind the best card (deal by deal; ``=`` when that is within the
    noise, tied) and on how many deals; ``context`` adds a column of open-hand
    values. For a ``match`` the means are chances of winning it, in percent,
    with the mean points beside when the entries have them. Within ``width``
    columns the deals, then how often best, then the standard error are left
    out rather than any figure cut."""
    scale, unit = (100, "%") if match else (1, "")
    columns = {
        "card": [],
        "win" if match else "mean": [],
        "± stderr": [],
        "best": [],
        "behind": [],
        "deals": [],
    }
    if match and entries[0].points is not None:
        columns["points"] = []
    if context is not None:
        columns["open hand"] = []
    for number, entry in enumerate(entries):
        cells = [
            str(entry.card),
            f"{scale * entry.mean:.2f}{unit}",
            "-" if entry.stderr is None else f"{scale * entry.stderr:.2f}{unit}",
            f"{100 * entry.best_rate:.0f}%",
            "best" if number == 0 else f"{scale * entry.behind:.2f}{unit}" + "=" * entry.tied,
            str(entry.samples),
        ]
        if "points" in columns:
            cells.append(f"{entry.points:.2f}")
        if context is not None:
            value = context[entry.card]
            cells.append(f"{100 * value:.1f}%" if match else str(value))
        for cells_of, cell in zip(columns.values(), cells):
            cells_of.append(cell)
    table = _hint_rows(entries, columns)
    for optional in ("deals", "best", "± stderr"):
        if width is None or _natural_width(table) <= width:
            break
        del columns[optional]
        table = _hint_rows(entries, columns)
    return table


def ranking_note(entries: Sequence) -> Text | None:
    """Why a card ranks above one with a higher mean, when one does, in plain words."""
    for number, higher in enumerate(entries):
        for lower in entries[number + 1 :]:
            if lower.mean > higher.mean + 1e-9:
                return Text(
                    f"{lower.card} ranks below {higher.card} although its mean is higher: cards "
                    f"rank by how far the best card leads them on the same deals, and "
                    f"{lower.card}'s mean is over its {lower.samples} deals only (it left "
                    f"contention once clearly behind), {higher.card}'s over {higher.samples}.",
                    style="dim",
                )
    return None


def _hint_rows(entries: Sequence, columns: Mapping[str, list[str]]) -> Table:
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0))
    for heading in columns:
        table.add_column(heading, justify="left" if heading == "card" else "right", no_wrap=True)
    for number, entry in enumerate(entries):
        row = [cells[number] for cells in columns.values()]
        table.add_row(card_text(entry.card), *row[1:], style="bold" if entry.tied else None)
    return table


def _natural_width(renderable) -> int:
    """The columns ``renderable`` takes when nothing limits its width."""
    console = Console(width=10_000)
    return Measurement.get(console, console.options, renderable).maximum


def estimate_texts(estimate: Estimate) -> list[RenderableType]:
    """The mover's cards with their max^n points, marked as estimated unless exact."""
    mover = estimate.position.to_move
    values = {card: list(result) for card, result in estimate.card_results.items()}
    networks = sum(estimate.votes.values())
    if estimate.exact:
        return [
            Text(
                f"Seat {mover}'s cards and the points of seats 0-1-2 after each, all "
                f"playing for themselves ({OPTIMAL_MARK} the card the equilibrium plays)",
                style="bold",
            ),
            card_values_table(values, [estimate.best]),
        ]
    return [
        Text(
            f"Estimated, not proven: seat {mover}'s cards and the points of seats 0-1-2 "
            f"after each, all playing for themselves ({OPTIMAL_MARK} the estimate's choice "
            f"and any card less than {ESTIMATE_TIE} points behind it: too close to call)",
            style="bold",
        ),
        card_values_table(values, estimate.tied),
        Text(
            f"Estimate: max^n searched {estimate.depth} trick(s) ahead, then "
            + (
                f"{networks} networks trained on exact values, "
                "their points averaged and their best cards put to a vote"
                if networks > 1
                else "a network trained on exact values"
            )
            + f"; {estimate.seconds:.2f} s.",
            style="dim",
        ),
    ] + (
        [
            Text(
                f"The contenders for best searched {estimate.depth + 1} tricks ahead: "
                f"{' '.join(map(str, estimate.deeper))}.",
                style="dim",
            )
        ]
        if estimate.deeper
        else []
    )


def solve_report(
    result: SolveResult, estimate: Estimate | None = None, match_estimate: Estimate | None = None
) -> Group:
    """Everything ``coins solve`` shows for people: hands, values, card values, lines,
    and the max^n ``estimate`` where the exact search did not finish (and the
    chances of winning the match, their ``match_estimate`` likewise)."""
    position = result.position
    mover = position.to_move
    paranoid = result.mode in ("paranoid", "both")
    maxn = result.mode in ("maxn", "both")
    columns = {"taken": [str(t) for t in position.taken]}
    if paranoid:
        columns["guaranteed"] = [value_text(result, seat) for seat in range(SEATS)]
    if maxn:
        if result.equilibrium:
            columns["max^n"] = [str(v) for v in result.equilibrium]
        elif estimate is not None:
            columns["max^n"] = [number(v) for v in estimate.card_results[estimate.best]]
        else:
            columns["max^n"] = ["-"] * SEATS
    win = win_column(result.match, match_estimate)
    if win is not None:
        columns["win"] = win
    parts: list[RenderableType] = [
        Text.assemble(("Position ", "bold"), str(position)),
        Text(""),
        hands_table(position, columns),
        Text(""),
        Text("The hand is over.") if position.is_terminal else trick_text(position),
    ]
    if paranoid:
        parts.append(
            Text(
                "Guaranteed: Coins sure to be won from here on against the other two.", style="dim"
            )
        )
    if maxn:
        parts.append(
            Text("Max^n: Coins won from here on when every seat plays for itself.", style="dim")
        )
    if result.match is not None:
        parts.append(match_legend(result.match.state))
    if not result.exact:
        stopped = "was stopped (Ctrl-C)" if result.interrupted else "hit its node or time limit"
        intervals = paranoid and any(shown_interval(result, s) for s in range(SEATS))
        parts.append(
            Text(
                f"Not exact: the search {stopped}"
                + ("; low-high is the proven interval." if intervals else "."),
                style="bold",
            )
        )
        wanted = []
        if paranoid:
            wanted += [("card values", result.card_values), ("optimal line", result.line)]
        if maxn:
            wanted += [
                ("max^n card results", result.card_results),
                ("equilibrium line", result.equilibrium_line),
            ]
        missing = [
            name
            for name, found in wanted
            if not found and not (estimate is not None and "max^n" in name)
        ]
        if missing and not position.is_terminal:
            parts.append(Text(f"Not reached: {', '.join(missing)}.", style="bold"))
    if result.card_values:
        parts += [
            Text(""),
            Text(
                f"Seat {mover}'s cards and their values ({OPTIMAL_MARK} optimal: keeps the "
                "guaranteed value)",
                style="bold",
            ),
            card_values_table(result.card_values, result.optimal),
        ]
    if result.card_results:
        choice = result.equilibrium_line[:1]
        parts += [
            Text(""),
            Text(
                f"Seat {mover}'s cards and the points of seats 0-1-2 after each, all playing "
                f"for themselves ({OPTIMAL_MARK} the card the equilibrium plays)",
                style="bold",
            ),
            card_values_table(result.card_results, choice),
        ]
    if estimate is not None:
        parts += [Text(""), *estimate_texts(estimate)]
    if result.line:
        parts += [
            Text(""),
            Text(
                f"Optimal line: seat {mover} keeps its value, the others play against it",
                style="bold",
            ),
            line_table(position, result.line),
        ]
    if result.equilibrium_line:
        parts += [
            Text(""),
            Text("Equilibrium line: every seat plays for its own points", style="bold"),
            line_table(position, result.equilibrium_line),
        ]
    parts += match_texts(result.match, match_estimate)
    parts += [
        Text(""),
        Text(
            f"{'exact' if result.exact else 'not exact'}, {result.nodes:,} nodes, "
            f"{result.seconds:.2f} s",
            style="dim",
        ),
    ]
    return Group(*parts)
