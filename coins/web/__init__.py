"""``coins serve``: the board in the browser, a local web application (the ``web`` extra).

``app.create_app`` builds it on Starlette; uvicorn serves it on 127.0.0.1
only. ``coins.cli`` adds the command with ``web.register(add)`` after the
commands of ``coins.commands``, whose parser the board reads its fields with;
Starlette and uvicorn are imported only when the command runs, so the rest
of the command line works without them.
"""

from __future__ import annotations

import argparse
import socket
import threading
import webbrowser

from solver import CoinsError

from .. import options
from .jobs import DEFAULT_TIME_LIMIT

HOST = "127.0.0.1"  # this machine only: the board is for its user, not the network
DEFAULT_PORT = 8765
NO_WEB = 'coins serve needs the web extra: pip install "coins-solver[web]" (or ".[web]" in a clone)'


def serve_command(args: argparse.Namespace) -> None:
    """Serve the board in the browser on this machine (127.0.0.1), offline.

    The page sets up a position by clicking cards or pasting the notation,
    shows every card's values (guaranteed and max^n) and the main line, ranks
    a player's cards from their view (hints), plays hands or matches against
    the bots and reviews them card by card, with a replay of the hand and a
    graph of each seat's expected points. Its JSON endpoints (POST
    /api/solve, analyze, review, hint, graph, deal) take the commands'
    options as fields and answer what their --json prints. Ctrl-C stops the
    server.
    """
    try:
        import uvicorn

        from .app import create_app
    except ImportError:
        raise CoinsError(NO_WEB) from None
    check_port(args.port)
    app = create_app(args.time_limit)
    url = f"http://{HOST}:{args.port}/"
    print(f"Coins board on {url} (Ctrl-C stops it)", flush=True)
    if args.open:  # once the server is up
        threading.Timer(1.0, webbrowser.open, (url,)).start()
    uvicorn.run(app, host=HOST, port=args.port, log_level="warning")


def check_port(port: int) -> None:
    """Refuse a port that cannot be served on (another program holds it) before the
    board's address is printed (uvicorn would say so only after it, and exit 3),
    naming one that is free now."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            probe.bind((HOST, port))
            return
        except OSError as error:
            probe.bind((HOST, 0))
            raise CoinsError(
                f"cannot serve on port {port} of {HOST} ({error.strerror}): try "
                f"--port {probe.getsockname()[1]}, which is free now"
            ) from None


def register(add) -> None:
    """Add ``serve`` through ``coins.commands``' ``add(name, function)`` helper."""
    parser = add("serve", serve_command)
    parser.add_argument(
        "--port",
        type=options.whole_number("the port", 1, 65535),
        default=DEFAULT_PORT,
        metavar="P",
        help=f"the port on 127.0.0.1 (default {DEFAULT_PORT})",
    )
    parser.add_argument("--open", action="store_true", help="open the board in the browser")
    parser.add_argument(
        "--time-limit",
        type=options.seconds("the search time limit"),
        default=DEFAULT_TIME_LIMIT,
        metavar="SEC",
        help=f"the most seconds one search may take (default {DEFAULT_TIME_LIMIT:g})",
    )
