"""The web board (``coins serve``) driven from this machine: screenshots for the README, and a load test.

    python -m benchmarks.board screenshots [--out docs]   # the main screens, as PNG
    python -m benchmarks.board load [--requests 100]      # requests at once from 127.0.0.1

Both start the board on a free port of 127.0.0.1 in this process (``served``).
The screenshots are taken by Debian's Chromium (``/usr/bin/chromium``, or
``$CHROMIUM``) through Playwright, which never downloads a browser of its
own; ``tests/test_web_browser.py`` drives the page with the same helpers.
The load test sends small solves all at once and reports how many came back
right, with the median and slowest answer times.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
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
LOAD_POSITION = "7...2 K.3.. J.6.. 0 - 0,1,0"  # solver/__init__.py's doctest: guaranteed [0, 0, 2]
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

    from coins.web.app import create_app

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


def load(base: str, requests: int = 100, timeout: float = 60) -> dict:
    """``requests`` small solves sent at once; what came back, and how fast."""

    def one(_) -> tuple[int, dict, float]:
        started = time.perf_counter()
        status, body = post(
            f"{base}/api/solve",
            {"position": LOAD_POSITION, "mode": "both", "time_limit": 10},
            timeout,
        )
        return status, body, time.perf_counter() - started

    started = time.perf_counter()
    with ThreadPoolExecutor(requests) as pool:
        answers = list(pool.map(one, range(requests)))
    seconds = [s for _, _, s in answers]
    right = sum(
        status == 200 and body.get("guaranteed") == [0, 0, 2] and body.get("exact")
        for status, body, _ in answers
    )
    return {
        "requests": requests,
        "answered": len(answers),
        "right": right,
        "statuses": sorted({status for status, _, _ in answers}),
        "median_s": round(statistics.median(seconds), 3),
        "max_s": round(max(seconds), 3),
        "total_s": round(time.perf_counter() - started, 3),
    }


# ----- screenshots -----------------------------------------------------------------------

SCREEN = {"width": 1366, "height": 900}  # a laptop's screen
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def screenshots(base: str, out: Path, executable: str) -> list[Path]:
    """The main screens of the board, as ``out/board-*.png``: the last one on a phone."""
    out.mkdir(parents=True, exist_ok=True)
    shots = []
    with browser(executable) as chromium:
        page = chromium.new_page(viewport=SCREEN)
        page.goto(base)
        page.fill("#position-text", "J9.J4..52 .K75.6.N8 A753.8.5. 0 -")
        page.click("#position-load")
        page.select_option("#solve-mode", "both")
        page.click("#solve")
        page.wait_for_selector("#board .card .values")
        shots.append(_shot(page, out / "board-analysis.png"))

        page.click("nav [data-tab=hint]")
        page.fill("#view-text", "? KNJ7543.96.AN874.96 ? 0 - | JO")
        page.click("#view-load")
        page.fill("#hint-samples", "20")
        page.click("#hint")
        page.wait_for_selector("#hint-table")
        shots.append(_shot(page, out / "board-hint.png"))

        page.click("nav [data-tab=play]")
        page.fill("#play-cards", "8")
        page.fill("#play-seed", "5")
        page.click("#play-new")
        page.wait_for_selector("#play-board [data-seat] button.card:not([disabled])")
        for _ in range(3):  # three tricks in
            page.click("#play-board button.card:not([disabled]) >> nth=0")
            page.wait_for_selector("#play-board button.card:not([disabled])")
        shots.append(_shot(page, out / "board-play.png"))

        _review(page, "30")
        page.locator("#review-footer").scroll_into_view_if_needed()
        shots.append(_shot(page, out / "board-review.png"))
        page.locator("#review-graph text.mark").first.click()  # the replay at seat 2's first mark
        page.locator(".review-views").scroll_into_view_if_needed()
        shots.append(_shot(page, out / "board-replay.png"))

        phone = chromium.new_context(**PHONE).new_page()
        phone.goto(base)
        _review(phone, "15")
        phone.locator("#review-graph text.mark").first.click()
        phone.locator("#replay-board .seat.to-move .card").first.tap()  # its values in full
        phone.locator("#replay-board .details").evaluate(
            "node => node.scrollIntoView({block: 'end'})"
        )
        shots.append(_shot(phone, out / "board-phone.png"))
    return shots


def _review(page, seconds: str) -> None:
    """``FULL_HAND`` reviewed on the Review tab, seat 2 with what it knew."""
    page.click("nav [data-tab=review]")
    page.fill("#review-text", FULL_HAND)
    page.select_option("#review-seat", "2")
    page.fill("#review-time", seconds)
    page.click("#review")
    page.wait_for_selector("#review-summary", timeout=120_000)


def _shot(page, path: Path) -> Path:
    page.screenshot(path=str(path), full_page=False)
    return path


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.board",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True)
    shots = commands.add_parser("screenshots", help="the main screens as PNG files")
    shots.add_argument("--out", default="docs", help="the folder (default docs)")
    burst = commands.add_parser("load", help="requests at once from 127.0.0.1")
    burst.add_argument("--requests", type=int, default=100, help="how many (default 100)")
    args = parser.parse_args(argv)
    with served() as base:
        if args.command == "load":
            print(json.dumps(load(base, args.requests)))
            return
        executable = chromium_path()
        if executable is None:
            parser.exit(2, "no Chromium: apt-get install chromium (or set CHROMIUM)\n")
        for path in screenshots(base, Path(args.out), executable):
            print(f"wrote {path}")


if __name__ == "__main__":
    main()
