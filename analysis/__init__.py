"""Analysis of Coins positions and games built on ``solver``: reports, reviews, hints, studies.

It depends on ``solver`` only and knows nothing of the command line, which
calls it. Everything returns data (dataclasses with ``to_json()``, or a
networkx graph); ``coins.analysis_commands`` renders it for people.

- ``analyze(position)``: the max^n equilibrium line (everyone plays for
  themselves) trick by trick, every card of every decision valued in both
  modes, the best cards of each mode marked, the decisions where they part.
- ``review(record)``: what each card of a record of play cost its player in
  both modes, the running score, and a summary per seat.
- ``decision_graph(position, depth, mode, unit)``: positions as nodes, cards
  as edges (equivalent cards merged), values and optimal flags;
  ``write_graph(graph, path)`` saves GraphML, DOT, node-link JSON or, through
  Graphviz, SVG/PNG/PDF.
- ``estimate(position, time_limit)``: every card's max^n points for the mover
  in a position of any size: exact where the solver finishes in time,
  estimated beyond (a search of the next tricks, then a learned evaluation),
  and marked which.
- ``hint(view)``: ranked cards for the seat to move from what it sees, by
  determinised Monte Carlo search (sampled deals, open-hand values),
  configured by a ``HintSettings`` (which deals, how many) and an evaluator
  (how a card is valued in one deal: ``PlayoutEvaluator``,
  ``SearchEvaluator``, ``MatchEvaluator``); with the opponent model
  (``OpponentModel``, ``analysis.opponents``) it reads how each other seat
  plays from its cards so far, and says what it believes.
- ``EXACT_REACH`` (``analysis.reach``): the hand sizes up to which each
  analysis solves exactly, and estimates beyond.
- With a ``match`` (``solver.MatchState``: the target and the scores),
  ``analyze``, ``review``, ``estimate`` and ``hint`` value the cards by each
  seat's chance of winning the match (``solver.match_values``), and ``pimc``
  plays for it in any hand played to a target.
- ``analysis.bots``: ``random_bot``, ``greedy_bot`` and ``PimcBot``, players
  for ``solver.match`` that use only what their seat sees.
- ``duplicate(bots, hands, seed)`` / ``matches(bots, count, target, seed)``: bots
  against each other, seats rotated and deals repeated, with 95% intervals.
- Ctrl-C stops ``hint``, ``duplicate`` and ``matches`` with ``Interrupted``, a
  KeyboardInterrupt whose ``result`` is what they finished (``analyze`` and
  ``decision_graph`` raise their own, ``AnalysisInterrupted`` and
  ``GraphInterrupted``).
- ``run_batch(items, out, options)``: many positions solved on several
  processes (or a Dask cluster), appended as JSON lines, resumable;
  ``StudySpec``, ``study_lines`` and ``aggregate`` make and summarise
  constrained random endings (``coins study``).
"""

from solver.equivalence import equivalent_runs as equivalent_cards

from ._common import Interrupted, preferred_card
from .arena import duplicate, matches
from .batch import BatchError, BatchOptions, BatchSummary, run_batch
from .estimate import Estimate, estimate
from .evaluators import MatchEvaluator, PlayoutEvaluator, SearchEvaluator
from .graph import (
    NO_GRAPHVIZ,
    GraphTooLarge,
    GraphvizMissing,
    decision_graph,
    to_dot,
    write_graph,
)
from .hint import Hint, HintEntry, HintSettings, hint
from .opponents import Kind, OpponentModel, SeatBelief
from .reach import EXACT_REACH
from .report import MAIN_LINE, Analysis, CardReport, Decision, analyze
from .reviews import MoveReview, Review, SeatSummary, review
from .study import StudySpec, StudyStats, aggregate, study_lines

__all__ = [
    "EXACT_REACH",
    "MAIN_LINE",
    "NO_GRAPHVIZ",
    "Analysis",
    "BatchError",
    "BatchOptions",
    "BatchSummary",
    "CardReport",
    "Decision",
    "Estimate",
    "GraphTooLarge",
    "GraphvizMissing",
    "Hint",
    "HintEntry",
    "HintSettings",
    "Interrupted",
    "Kind",
    "MatchEvaluator",
    "MoveReview",
    "OpponentModel",
    "PlayoutEvaluator",
    "Review",
    "SearchEvaluator",
    "SeatBelief",
    "SeatSummary",
    "StudySpec",
    "StudyStats",
    "aggregate",
    "analyze",
    "decision_graph",
    "duplicate",
    "equivalent_cards",
    "estimate",
    "hint",
    "matches",
    "preferred_card",
    "review",
    "run_batch",
    "study_lines",
    "to_dot",
    "write_graph",
]
