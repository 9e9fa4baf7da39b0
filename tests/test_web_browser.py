"""The board's page driven in a real headless Chromium (Debian's, through Playwright).

Expected values come from the command line (``coins.cli.main`` with
``--json``): the values the page shows on the cards are the ones ``coins
solve`` prints, its errors the library's, its hint the cards ``coins hint``
ranks, its review the costs ``coins review`` gives for the hand the page
played. Without Chromium the tests are skipped and say why; under CI
(``CI`` set) a missing Chromium fails them, since ``.ci/run`` installs it.
"""

from __future__ import annotations

import json
import os

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
pytest.importorskip("playwright", reason="Playwright is not installed: pip install '.[test]'")

from benchmarks.board import browser, chromium_path, served  # noqa: E402
from coins import cli  # noqa: E402
from solver import Position  # noqa: E402
from solver.errors import CoinsError  # noqa: E402

ENDING = "J9.J4..52 .K75.6.N8 A753.8.5. 0 -"  # README: a six-card ending
TIMEOUT_MS = 30_000


@pytest.fixture(scope="module")
def chromium():
    executable = chromium_path()
    if executable is None:
        message = "no Chromium at /usr/bin/chromium (apt-get install chromium) nor $CHROMIUM"
        if os.environ.get("CI"):
            pytest.fail(message + ": CI installs it (.ci/run)")
        pytest.skip(message)
    with browser(executable) as launched:
        yield launched


@pytest.fixture(scope="module")
def board():
    with served(time_limit=30.0) as base:
        yield base


@pytest.fixture
def page(chromium, board):
    context = chromium.new_context(viewport={"width": 1366, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(board)
    page.wait_for_selector("#board .seat")
    yield page
    context.close()
    assert not errors, f"the page's JavaScript failed: {errors}"


def command_json(capsys, *argv) -> dict:
    capsys.readouterr()
    assert cli.main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_position_set_up_by_clicking_shows_the_values_coins_solve_gives(page, capsys):
    position = Position.parse(ENDING)
    page.click("#setup-clear")
    for seat in range(3):
        page.click(f"#setup-targets [data-target='{seat}']")
        for card in position.hand(seat):
            page.click(f"#setup-picker [data-card='{card}']")
    assert page.input_value("#position-text") == ENDING
    page.select_option("#solve-mode", "both")
    page.click("#solve")
    page.wait_for_selector("#board [data-seat='0'] .card .values [data-maxn]")

    expected = command_json(capsys, "solve", ENDING, "--mode", "both")
    mover = page.locator("#board [data-seat='0'] .card")
    shown = {}
    for i in range(mover.count()):
        card = mover.nth(i)
        shown[card.get_attribute("data-card")] = (
            int(card.locator("[data-guaranteed]").get_attribute("data-guaranteed")),
            [int(v) for v in card.locator("[data-maxn]").get_attribute("data-maxn").split(",")],
        )
    assert shown == {card: (expected["card_values"][card], expected["card_results"][card])
                     for card in expected["card_values"]}  # fmt: skip
    for seat in range(3):
        info = page.inner_text(f"#board [data-seat='{seat}'] .seat-info")
        assert f"guaranteed {expected['guaranteed'][seat]}" in info
        assert f"max^n {expected['equilibrium'][seat]}" in info
    best = {c for c, v in expected["card_values"].items() if v == max(expected["card_values"].values())}
    marked = page.locator("#board [data-seat='0'] .card.best-g")
    assert {marked.nth(i).get_attribute("data-card") for i in range(marked.count())} == best

    # a card clicked is played: the next seat is to move, and its values come
    page.click(f"#board [data-seat='0'] .card[data-card='{expected['line'][0]}']")
    page.wait_for_selector("#board [data-seat='1'].to-move .card .values")
    after = Position.parse(ENDING).play(expected["line"][0])
    assert page.input_value("#position-text") == str(after)
    page.click("#step-back")
    page.wait_for_selector("#board [data-seat='0'].to-move .card .values")
    assert page.input_value("#position-text") == ENDING


def test_a_bad_position_shows_the_librarys_error_beside_the_field(page):
    bad = "J9.J4..52 .K75.6.N8 A753.8.5. 0"
    with pytest.raises(CoinsError) as error:
        Position.parse(bad)
    page.fill("#position-text", bad)
    page.click("#position-load")
    page.wait_for_selector("#position-error:not(:empty)")
    assert page.inner_text("#position-error") == str(error.value)
    assert page.get_attribute("#position-text", "aria-invalid") == "true"


def test_a_hint_on_a_view_ranks_the_movers_cards(page, capsys):
    view = "? KNJ7543.96.AN874.96 ? 0 - | JO"  # RULES.md: seat 1's view, after seat 0 led JO
    page.click("nav [data-tab=hint]")
    page.fill("#view-text", view)
    page.click("#view-load")
    page.wait_for_selector("#view-board [data-seat='1'] .card")
    page.fill("#hint-samples", "4")
    page.fill("#hint-time", "5")
    page.click("#hint")
    page.wait_for_selector("#hint-table tr[data-card]")
    expected = command_json(capsys, "hint", view, "--samples", "4", "--seed", "1")
    rows = page.locator("#hint-table tr[data-card]")
    cards = [rows.nth(i).get_attribute("data-card") for i in range(rows.count())]
    assert sorted(cards) == sorted(entry["card"] for entry in expected["cards"])
    means = [float(rows.nth(i).locator(".mean").inner_text()) for i in range(rows.count())]
    assert means == sorted(means, reverse=True) and all(0 <= m <= 12 for m in means)
    # the view is drawn: seat 1's hand open, the led card on the table, the others hidden
    assert page.locator("#view-board [data-seat='1'] .card").count() == 16
    assert page.locator("#view-board .middle [data-card='JO']").count() == 1
    assert page.locator("#view-board [data-seat='0'] .card.back").count() == 15


def test_a_hand_played_against_two_bots_then_reviewed(page, capsys):
    page.click("nav [data-tab=play]")
    page.select_option("#play-left", "greedy")
    page.select_option("#play-right", "random")
    page.fill("#play-cards", "3")
    page.fill("#play-seed", "11")
    page.click("#play-new")
    for _ in range(3):  # three cards of the user's, one a trick
        page.wait_for_selector("#play-board [data-seat='0'] button.card:not([disabled])")
        page.click("#play-board [data-seat='0'] button.card:not([disabled]) >> nth=0")
    page.wait_for_selector("#play-message:has-text('The hand is over')")
    assert page.locator("#play-log p").count() == 3
    points = page.inner_text("#play-message")

    page.click("#play-hands .review-hand")
    page.wait_for_selector("#review-table tr[data-move]")
    record = page.input_value("#review-text")
    assert record.count("|") == 1 and len(record.split("|")[1].split()) == 9
    expected = command_json(capsys, "review", record)
    taken = expected["moves"][-1]["taken"]
    assert points.endswith(f"{'-'.join(map(str, taken))} (seats 0-1-2).")
    rows = page.locator("#review-table tr[data-move]")
    assert rows.count() == len(expected["moves"]) == 9
    for i, move in enumerate(expected["moves"]):
        row = rows.nth(i)
        assert row.locator("[data-card]").first.get_attribute("data-card") == move["card"]
        assert int(row.locator(".paranoid-cost").inner_text()) == move["paranoid"]["cost"]
        assert int(row.locator(".maxn-cost").inner_text()) == move["maxn"]["cost"]
    graph = rows.nth(0).locator("a", has_text="maxn").get_attribute("href")
    assert graph.startswith("/graph.svg?") and "mode=maxn" in graph
