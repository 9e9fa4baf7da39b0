"""What the commands compute, from their parsed options: one function for the command
line and the web board both.

Each function takes the ``argparse.Namespace`` of its command (parsed from the
command line, or from the web board's JSON fields by the same parser:
``coins.web.fields``) and returns a result whose ``to_json()`` is what the
command's ``--json`` prints. The command renders it for people or prints
that; the board answers it. So the two cannot drift apart.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass

import networkx as nx

from analysis import Analysis, Hint, Interrupted, Review, analyze, decision_graph, hint, review
from analysis.estimate import Estimate, estimate
from analysis.graph import GraphInterrupted
from analysis.report import AnalysisInterrupted
from analysis.reviews import MoveReview
from solver import (
    MatchState,
    Position,
    Record,
    SolveInterrupted,
    SolveResult,
    TranspositionTable,
    solve,
)
from solver.cards import Card

from . import options

OPEN_HAND_CARDS = (
    8  # a hint on a full position shows the open-hand values up to this many cards a hand
)
OPEN_HAND_TIME_LIMIT = 5.0  # seconds for them; beyond it they are left out
ESTIMATE_SECONDS = 1.0  # the estimate's time when the exact max^n search does not finish


def _text(words: str | list[str]) -> str:
    """A positional argument given as words (``nargs="+"``) or as one text."""
    return words if isinstance(words, str) else " ".join(words)


@dataclass
class SolveAnswer:
    """``coins solve``'s answer: the solver's ``result`` and, when the mode asks
    for max^n values and the exact search did not finish, their ``estimate``
    (``analysis.estimate``), kept apart so that proven values and estimates
    are never mixed up."""

    result: SolveResult
    estimate: Estimate | None = None
    match_estimate: Estimate | None = None

    @property
    def interrupted(self) -> bool:
        return self.result.interrupted

    def to_json(self) -> dict:
        out = self.result.to_json()
        if self.estimate is not None:
            out["estimate"] = self.estimate.to_json()
        if self.match_estimate is not None:
            out["match_estimate"] = self.match_estimate.to_json()
        return out


def solve_position(
    args: argparse.Namespace, progress: Callable[[str], None] | None = None
) -> SolveAnswer:
    """``coins solve``. A solve stopped by Ctrl-C (or a ``solver.threads.Cancel``)
    returns what it proved, ``interrupted`` set, as a limit would. Under a time
    limit, the time of each estimate (``ESTIMATE_SECONDS``, at most half the
    limit, or a quarter with a target) is kept back from the exact search."""
    position = Position.parse(_text(args.position))
    match = options.match_state(args)
    if match is not None:
        match.needs(position.taken)  # refused before any work when the match is over
    seats = (0, 1, 2) if args.seat is None else (args.seat,)
    table = None if args.memory is None else TranspositionTable(args.memory)
    wants_maxn = args.mode in ("maxn", "both") and not position.is_terminal
    wants_match = match is not None and not position.is_terminal
    estimates = wants_maxn + wants_match
    estimate_seconds = ESTIMATE_SECONDS
    time_limit = args.time_limit
    if estimates and time_limit is not None:
        estimate_seconds = min(ESTIMATE_SECONDS, time_limit / 2 / estimates)
        time_limit -= estimate_seconds * estimates
    try:
        result = solve(
            position,
            seats,
            args.max_nodes,
            time_limit,
            mode=args.mode,
            table=table,
            progress=progress,
            target=args.target,
            scores=match and match.scores,
        )
    except SolveInterrupted as stop:
        result = stop.result
    answer = SolveAnswer(result)
    if wants_maxn and result.equilibrium is None:
        if progress is not None:
            progress("estimating the max^n values (the exact search did not finish)")
        answer.estimate = estimate(position, estimate_seconds)
    if wants_match and (result.match is None or result.match.chances is None):
        if progress is not None:
            progress("estimating the chances of winning (the exact search did not finish)")
        answer.match_estimate = estimate(position, estimate_seconds, match=match)
    return answer


def analyze_position(
    args: argparse.Namespace, progress: Callable[[str], None] | None = None
) -> Analysis:
    """``coins analyze``. Stopped by Ctrl-C, it returns the decisions finished,
    ``interrupted`` set."""
    try:
        return analyze(
            Position.parse(_text(args.position)),
            args.max_nodes,
            args.time_limit,
            exact_cards=args.exact_cards,
            progress=progress,
            match=options.match_state(args),
        )
    except AnalysisInterrupted as stop:
        return stop.analysis


def review_record(
    args: argparse.Namespace,
    progress: Callable[[str], None] | None = None,
    reviewed: Callable[[MoveReview], None] | None = None,
) -> Review:
    """``coins review``. Stopped by Ctrl-C, it returns the cards reviewed,
    ``interrupted`` set."""
    try:
        return review(
            _text(args.record),
            args.max_nodes,
            args.time_limit,
            match=options.match_state(args),
            seat=args.seat,
            exact_cards=args.exact_cards,
            samples=args.samples,
            progress=progress,
            reviewed=reviewed,
        )
    except Interrupted as stop:
        return stop.result


def graph_of(args: argparse.Namespace, progress: Callable[[str], None] | None = None) -> nx.DiGraph:
    """``coins graph``: the graph it writes (``nx.node_link_data`` of it is the
    JSON file it writes for ``--out FILE.json``). Stopped by Ctrl-C, it returns
    the graph so far, its ``interrupted`` attribute set."""
    position = Position.parse(_text(args.position))
    try:
        return decision_graph(
            position,
            args.depth,
            args.mode,
            args.unit,
            args.optimal_only,
            max_positions=args.max_positions,
            max_nodes=args.max_nodes,
            time_limit=args.time_limit,
            progress=progress,
        )
    except GraphInterrupted as stop:
        return stop.graph


def deal_position(args: argparse.Namespace) -> Position:
    """``coins deal``."""
    return Position.random(args.seed, args.cards, args.leader)


@dataclass
class HintAnswer:
    """``coins hint``'s answer: the view read (``record``), the ranked cards
    (``result``) and, for a view with every hand open and few cards left, each
    card's open-hand value (``context``, else None)."""

    record: Record
    result: Hint
    context: dict[Card, float] | None

    @property
    def interrupted(self) -> bool:
        return self.result.interrupted

    @property
    def view(self) -> Record:
        """What the mover sees: the view given, or the full record with the other hands hidden."""
        return self.record if self.record.is_view else self.record.view(self.record.to_move)

    def to_json(self) -> dict:
        out = self.result.to_json() | {"view": str(self.view)}
        if self.context is not None:
            for entry in out["cards"]:
                entry["open_hand"] = self.context[Card.parse(entry["card"])]
        return out


def read_view(text: str) -> Record:
    """A record (``... | cards``), a view with ``?`` hands, or a bare position."""
    text = text.strip()
    if "|" not in text:
        text += " |"
    return Record.parse(text)


def hint_view(args: argparse.Namespace) -> HintAnswer:
    """``coins hint``; with ``--target`` the cards are ranked by the chance of
    winning the match, their points beside. Stopped by Ctrl-C, it returns the
    ranking of the deals valued so far, ``interrupted`` set, without the open-hand
    values (a search of its own, which Ctrl-C may stop too)."""
    record = read_view(_text(args.view))
    match = options.match_state(args)
    try:
        result = hint(
            record,
            args.samples,
            args.time_limit,
            args.seed,
            args.mode,
            sampler=args.sampler,
            opponents=args.opponents,
            policy_weight=args.policy_weight,
            evaluation=args.evaluation,
            match=match,
            points=True,
        )
    except Interrupted as stop:
        return HintAnswer(record, stop.result, None)
    try:
        return HintAnswer(record, result, _open_hand_values(record, args.mode, match))
    except KeyboardInterrupt:
        result.interrupted = True
        return HintAnswer(record, result, None)


def _open_hand_values(
    record: Record, mode: str, match: MatchState | None
) -> dict[Card, float] | None:
    """The mover's card values (with a match: its chances of winning it) with
    every hand open, when the record shows every hand and the solve is exact
    within ``OPEN_HAND_TIME_LIMIT``."""
    if record.is_view:
        return None
    final = record.final
    if final.cards_per_hand > OPEN_HAND_CARDS:
        return None
    solved = solve(
        final,
        (final.to_move,),
        mode=mode,
        line=False,
        time_limit=OPEN_HAND_TIME_LIMIT,
        target=match and match.target,
        scores=match and match.scores,
    )
    if not solved.exact:
        return None
    if match is not None:
        return {card: chances[final.to_move] for card, chances in solved.match.card_chances.items()}
    if mode == "maxn":
        return {card: result[final.to_move] for card, result in solved.card_results.items()}
    return dict(solved.card_values)
