"""The board served in this process and driven from this machine: for the tests
of the board, its load benchmark and the README's screenshots
(``benchmarks.board``).

``served`` starts the board on a free port of 127.0.0.1 in a thread of this
process; ``post`` sends its JSON endpoints a request. ``browser`` starts
Debian's Chromium (``/usr/bin/chromium``, or ``$CHROMIUM``) through
Playwright (the ``test`` extra), which never downloads a browser of its own.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

CHROMIUM_FLAGS = [  # as root, offline: no sandbox, no GPU, no calls home
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# a whole hand played by two greedy bots and the user's first card each turn (WebGame seed 11)
FULL_HAND = (
    "652.KJ6542.N95.AK74 AN94.N.AJ432.N98632 KJ873.A9873.K876.J5 2 - | 3C 2C 2S 5B 5C 2B "
    "6S 6C 3S 7C 2O NO 3B 7S 4O 5O 4C 7O 8C 6O 6B 4S 8S JO JC KO 8B 9C JB 5S 9S 9B 3O KC "
    "NS JS 4B NC KS 8O 7B NB AC 9O KB AB AS AO"
)


def chromium_path() -> str | None:
    """Debian's Chromium, or the browser ``$CHROMIUM`` names; None when there is none."""
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def served(time_limit: float = 30.0) -> Iterator[str]:
    """The board served on a free port of 127.0.0.1 by a thread of this process; yields its URL."""
    import uvicorn

    from .app import create_app

    port = free_port()
    config = uvicorn.Config(
        create_app(time_limit), host="127.0.0.1", port=port, log_level="warning"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the board's server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


@contextmanager
def browser(executable: str) -> Iterator[object]:
    """A headless Chromium (Playwright's ``Browser``) started from ``executable``."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
        try:
            yield chromium
        finally:
            chromium.close()


def post(url: str, fields: dict, timeout: float = 60) -> tuple[int, dict]:
    """POST ``fields`` as JSON; the status and the JSON answer (4xx/5xx included)."""
    request = urllib.request.Request(
        url, json.dumps(fields).encode(), {"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)
