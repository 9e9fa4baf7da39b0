"""The web board (``coins serve``) driven from this machine: screenshots for the README, and a load test.

    python -m benchmarks.board screenshots [--out docs]   # the main screens, as PNG
    python -m benchmarks.board load [--requests 100]      # requests at once from 127.0.0.1

Both start the board on a free port of 127.0.0.1 in this process
(``coins.web.local.served``). The screenshots are taken by Debian's Chromium
(``/usr/bin/chromium``, or ``$CHROMIUM``) through Playwright, which never
downloads a browser of its own; ``tests/test_web_browser.py`` drives the
page with the same helpers (``coins.web.local``).
The load test sends small solves all at once and reports how many came back
right, with the median and slowest answer times.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from coins.web.local import FULL_HAND, browser, chromium_path, post, served

LOAD_POSITION = "7...2 K.3.. J.6.. 0 - 0,1,0"  # solver/__init__.py's doctest: guaranteed [0, 0, 2]


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
