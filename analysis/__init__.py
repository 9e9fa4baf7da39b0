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
- ``hint(view)``: ranked cards for the seat to move from what it sees, by
  determinised Monte Carlo search (sampled deals, open-hand values).
- ``analysis.bots``: ``random_bot``, ``greedy_bot`` and ``PimcBot``, players
  for ``solver.match`` that use only what their seat sees.
"""

from ._common import runs as equivalent_cards
from .graph import (
    NO_GRAPHVIZ,
    GraphTooLarge,
    GraphvizMissing,
    decision_graph,
    to_dot,
    write_graph,
)
from .hint import Hint, HintEntry, hint
from .report import MAIN_LINE, Analysis, CardReport, Decision, analyze
from .reviews import MoveReview, Review, SeatSummary, review

__all__ = [
    "MAIN_LINE",
    "NO_GRAPHVIZ",
    "Analysis",
    "CardReport",
    "Decision",
    "GraphTooLarge",
    "GraphvizMissing",
    "Hint",
    "HintEntry",
    "MoveReview",
    "Review",
    "SeatSummary",
    "analyze",
    "decision_graph",
    "equivalent_cards",
    "hint",
    "review",
    "to_dot",
    "write_graph",
]
