"""The board's web application: the page, and JSON endpoints that mirror the commands.

``POST /api/<command>`` takes the command's options as JSON fields (read by
the command's own parser: ``fields``) and answers what ``coins <command>
--json`` prints, computed by the same function (``coins.api``): solve,
analyze, review, hint, graph (its node-link JSON, as ``--out FILE.json``
writes; ``GET /graph.svg?...`` draws it) and deal (``{"position": ...}``).
Searches run on worker threads (``jobs``); ``/api/play`` starts a game against
two bots and ``/api/play/move`` plays the user's card (``games``);
``/api/position`` and ``/api/view`` read a position or a view for the set-up.

Bad input answers 400 with the library's one-line error, ``{"error": ...}``
(and ``"field"`` when the error names one), cut to ``ERROR_CHARS``; a body over
``MAX_BODY_BYTES`` answers 413; anything unexpected answers 500 with one line,
the traceback going to the log only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import re
import tempfile
from collections import Counter
from collections.abc import Callable
from importlib import resources
from pathlib import Path

import networkx as nx
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from analysis import GraphvizMissing, write_graph
from solver import CoinsError, Position, Record
from solver.cards import HAND_SIZE, SEATS, cards_in

from .. import api
from ..commands import build_parser
from .fields import FieldError, command_parsers, read_fields
from .games import Games, WebGame
from .jobs import DEFAULT_TIME_LIMIT, Cancelled, Job, Jobs

STATIC = Path(str(resources.files("coins.web") / "static"))
MAX_BODY_BYTES = 64 * 1024  # a request's body at most: a whole record of play is under 300 bytes
ERROR_CHARS = 200  # an error's message (and field) at most: one quoting a long input is cut
UNSHOWN = re.compile(
    r"[\n\r\v\f\x1c-\x1e\x85\u2028\u2029\ud800-\udfff]"
)  # line breaks, lone surrogates


# what each searching command computes, as the JSON its --json prints
def _solve(args, job: Job) -> dict:
    return api.solve_position(args, job.progress).to_json()


def _review(args, job: Job) -> dict:
    """Each card's review goes to the job's partial results as it is finished, for
    the page to show while the rest goes on; a cancel returns the cards done."""
    done = job.partial.append
    return api.review_record(args, job.progress, lambda move: done(move.to_json())).to_json()


def _graph(args, job: Job) -> dict:
    return nx.node_link_data(api.graph_of(args))


PRESETS = {"graph": {"out": "graph.json"}}  # required options the board sets: it writes no file

SEARCHES: dict[str, Callable[[argparse.Namespace, Job], dict]] = {
    "solve": _solve,
    "analyze": lambda args, job: api.analyze_position(args).to_json(),
    "review": _review,
    "hint": lambda args, job: api.hint_view(args).to_json(),
    "graph": _graph,
}


def create_app(time_limit: float = DEFAULT_TIME_LIMIT) -> Starlette:
    """The board's application. ``time_limit``: the most seconds any one search
    may take (a request without a time limit gets it; one asking more is refused)."""
    parsers = command_parsers(build_parser())
    jobs = Jobs()
    games = Games()

    def options(command: str, fields: dict) -> argparse.Namespace:
        args = read_fields(parsers[command], fields, command, PRESETS.get(command))
        limit = getattr(args, "time_limit", None)
        if command in SEARCHES and (limit is None or limit == 0):  # hint: 0 is no limit
            args.time_limit = time_limit
        elif limit is not None and limit > time_limit:
            raise FieldError(
                f"time_limit is at most {time_limit:g} s on this board (coins serve --time-limit)",
                "time_limit",
            )
        return args

    async def search(request: Request) -> JSONResponse:
        command = request.path_params["command"]
        if command not in SEARCHES:
            raise HTTPException(404, f"no endpoint /api/{command}")
        fields = await _fields(request)
        job_id = fields.pop("job", None)
        args = options(command, fields)
        work = SEARCHES[command]
        return JSONResponse(
            await jobs.run(job_id, command, args.time_limit, lambda job: work(args, job))
        )

    async def deal(request: Request) -> JSONResponse:
        args = options("deal", await _fields(request))
        return JSONResponse({"position": str(api.deal_position(args))})

    async def job_status(request: Request) -> JSONResponse:
        job = jobs.get(request.path_params["job"])
        return JSONResponse(
            job.to_json() if job else {"job": request.path_params["job"], "done": True}
        )

    async def job_cancel(request: Request) -> JSONResponse:
        cancelled = jobs.cancel(request.path_params["job"])
        return JSONResponse({"job": request.path_params["job"], "cancelled": cancelled})

    async def position(request: Request) -> JSONResponse:
        fields = await _fields(request)
        text = _text_field(fields, "position")
        return JSONResponse(describe(Record.of(Position.parse(text))))

    async def view(request: Request) -> JSONResponse:
        fields = await _fields(request)
        return JSONResponse(describe(api.read_view(_text_field(fields, "view"))))

    async def graph_svg(request: Request) -> Response:
        args = options("graph", dict(request.query_params))
        graph = await jobs.run(None, "graph", args.time_limit, lambda job: api.graph_of(args))
        with tempfile.TemporaryDirectory() as folder:
            path = write_graph(graph, Path(folder) / "graph.svg")
            return Response(path.read_text(encoding="utf-8"), media_type="image/svg+xml")

    async def play_new(request: Request) -> JSONResponse:
        fields = await _fields(request)
        cards = fields.pop("cards", None)
        args = read_fields(parsers["play"], fields, "play")
        if fields.get("target") is None:  # one hand (of 16 cards unless asked)
            target, cards = None, HAND_SIZE if cards is None else cards
        else:
            target = args.target
        game = WebGame(seat=args.seat, bots=args.bots, target=target, cards=cards, seed=args.seed)
        games.add(game)
        await _off_loop(game.begin)
        return JSONResponse(game.state())

    async def play_move(request: Request) -> JSONResponse:
        fields = await _fields(request)
        game = games.get(fields.get("game"))
        await _off_loop(game.play, fields.get("card"))
        return JSONResponse(game.state())

    async def play_state(request: Request) -> JSONResponse:
        return JSONResponse(games.get(request.path_params["game"]).state())

    async def index(request: Request) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    routes = [
        Route("/", index),
        Route("/api/deal", deal, methods=["POST"]),
        Route("/api/position", position, methods=["POST"]),
        Route("/api/view", view, methods=["POST"]),
        Route("/api/jobs/{job}", job_status),
        Route("/api/jobs/{job}/cancel", job_cancel, methods=["POST"]),
        Route("/api/play", play_new, methods=["POST"]),
        Route("/api/play/move", play_move, methods=["POST"]),
        Route("/api/play/{game}", play_state),
        Route("/api/{command}", search, methods=["POST"]),
        Route("/graph.svg", graph_svg),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    handlers = {
        CoinsError: _bad_input,
        Cancelled: _cancelled,
        HTTPException: _http_error,
        Exception: _unexpected,
    }

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        jobs.shutdown()
        games.end_all()

    return Starlette(
        routes=routes, exception_handlers=handlers, lifespan=lifespan, max_body_size=MAX_BODY_BYTES
    )


async def _off_loop(function, *arguments):
    """``function(*arguments)`` on a thread of the loop's default pool: it waits (for
    a game's bots), so it must not hold the event loop."""
    return await asyncio.get_running_loop().run_in_executor(None, function, *arguments)


async def _fields(request: Request) -> dict:
    try:
        fields = json.loads(await request.body() or b"{}", object_pairs_hook=_each_name_once)
    except (
        ValueError,
        RecursionError,
    ) as error:  # not UTF-8 or JSON; a name twice, 4300+ digits, too deep
        raise FieldError(f"the request is not JSON the board reads: {error}") from None
    if not isinstance(fields, dict):
        raise FieldError(f"the request is a JSON object of fields, not {type(fields).__name__}")
    return fields


def _each_name_once(pairs: list[tuple[str, object]]) -> dict:
    """A JSON object's fields; a name given twice is an error (``json`` would keep the last)."""
    fields = dict(pairs)
    if len(fields) < len(pairs):
        name = next(name for name, count in Counter(name for name, _ in pairs).items() if count > 1)
        raise ValueError(f'the field "{name}" is given twice')
    return fields


def _text_field(fields: dict, name: str) -> str:
    value = fields.get(name)
    if not isinstance(value, str):
        raise FieldError(f"{name} is text in RULES.md notation, not {value!r}", name)
    return value


def describe(record: Record) -> dict:
    """A position or a view, read for the board to draw: the start (hidden hands
    None), the cards played since, the tricks completed, the trick on the table,
    each known hand now and the position now (None for a view)."""
    on_table = list(record.trick) + list(record.moves)
    tricks = record.tricks()
    current = on_table[len(tricks) * SEATS :]
    leader = tricks[-1][2] if tricks else record.leader
    played = 0
    for card in on_table:
        played |= 1 << card
    # who played each card on the table: the tricks' seats in turn from their leaders
    seats = [(lead + i) % SEATS for lead, _, _ in tricks for i in range(SEATS)]
    seats += [(leader + i) % SEATS for i in range(len(current))]
    sizes = [
        size - seats[len(record.trick) :].count(seat) for seat, size in enumerate(record.hand_sizes)
    ]
    return {
        "text": str(record).removesuffix(" |"),
        "view": record.is_view,
        "start": [None if h is None else [str(c) for c in cards_in(h)] for h in record.hands],
        "leader": record.leader,
        "trick": [str(c) for c in record.trick],
        "taken": list(record.taken),
        "moves": [str(c) for c in record.moves],
        "tricks": [
            {"leader": lead, "cards": [str(c) for c in cards], "winner": winner}
            for lead, cards, winner in tricks
        ],
        "table": {"leader": leader, "cards": [str(c) for c in current]},
        "seats": seats,
        "hands": [
            None if h is None else [str(c) for c in cards_in(h & ~played)] for h in record.hands
        ],
        "sizes": sizes,
        "taken_now": list(record.taken_after),
        "to_move": record.to_move,
        "over": not any(sizes),
        "position": None if record.is_view else str(record.final),
    }


def _error(status: int, message: str, field: str | None = None) -> JSONResponse:
    body = {"error": _shown(message)} | ({"field": _shown(field)} if field else {})
    return JSONResponse(body, status_code=status)


def _shown(text: str) -> str:
    """``text`` as an error shows it: one line of UTF-8 (the line breaks and lone
    surrogates of an input it quotes escaped, ``\\n``, ``\\ud800``), short (cut to
    ``ERROR_CHARS``, its length said) whatever the length of the input it quotes."""
    text = UNSHOWN.sub(lambda match: ascii(match[0])[1:-1], text)
    return (
        text if len(text) <= ERROR_CHARS else f"{text[:ERROR_CHARS]}... ({len(text):,} characters)"
    )


async def _bad_input(request: Request, error: CoinsError) -> JSONResponse:
    status = 503 if isinstance(error, GraphvizMissing) else 400
    return _error(status, str(error), getattr(error, "field", None))


async def _cancelled(request: Request, error: Cancelled) -> JSONResponse:
    return _error(409, str(error))


async def _http_error(request: Request, error: HTTPException) -> JSONResponse:
    return _error(error.status_code, str(error.detail))


async def _unexpected(request: Request, error: Exception) -> JSONResponse:
    """Starlette raises the error again after this answer, so the server logs its traceback."""
    return _error(500, f"internal error: {type(error).__name__}: {error}".splitlines()[0])
