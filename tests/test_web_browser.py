"""The board's page driven in a real headless Chromium (Debian's, through Playwright).

Expected values come from the command line (``coins.cli.main`` with
``--json``): the values the page shows on the cards are the ones ``coins
solve`` prints, its errors the library's, its hint the cards ``coins hint``
ranks, its review the costs ``coins review`` gives for the hand the page
played. A review under a time limit ends where the machine's speed lets it,
so its page is checked against the answer the page itself received (every
card reviewed shows that answer's values, every other one says so), never
against how far it got. The pages run on a laptop's screen and a phone's.
Without Chromium the tests are skipped and say why; under CI (``CI`` set) a
missing Chromium fails them, since ``.ci/run`` installs it.
"""

from __future__ import annotations

import json
import math
import os
import threading
import time
import urllib.parse
import urllib.request
from contextlib import contextmanager

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
pytest.importorskip("playwright", reason="Playwright is not installed: pip install '.[test]'")

from coins import cli  # noqa: E402
from coins.notice import COMPILE_NOTICE  # noqa: E402
from coins.web import games  # noqa: E402
from coins.web.local import FULL_HAND, browser, chromium_path, served  # noqa: E402
from solver import Position  # noqa: E402
from solver.errors import CoinsError  # noqa: E402

ENDING = "J9.J4..52 .K75.6.N8 A753.8.5. 0 -"  # README: a six-card ending
SMALL = "7...2 K.3.. J.6.. 0 - 0,1,0"  # solver/__init__.py's doctest
FULL_DEAL = "982.J8732.K95.AJ542 KNJ7543.96.AN874.96 A6.AKN54.J632.KN873 0 -"  # RULES.md
REVIEWED = ENDING + " | 9C 5O 8O 3C"  # seat 2 plays the third and fourth cards
REVIEW_FIELDS = ("record", "seat", "samples", "time_limit")  # what a review link carries
MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
NEAR_TIE = 0.3  # analysis.reviews.NEAR_TIE: estimates closer than this are a tie
TIMEOUT_MS = 30_000
# a laptop and a phone (touch, no hover)
SCREENS = {
    "laptop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
}


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


def blank_page(chromium, screen: str):
    """A new page on ``screen`` showing nothing yet; its context, it and the errors of its
    JavaScript."""
    context = chromium.new_context(**SCREENS[screen])
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return context, page, errors


def opened(chromium, board, screen: str):
    """A new page on the board (or a link to it), on ``screen``; its context, it and the
    errors of its JavaScript."""
    context, page, errors = blank_page(chromium, screen)
    page.goto(board)
    page.wait_for_selector("#board .seat")
    return context, page, errors


@pytest.fixture
def page(chromium, board):
    context, page, errors = opened(chromium, board, "laptop")
    yield page
    context.close()
    assert not errors, f"the page's JavaScript failed: {errors}"


@pytest.fixture(params=list(SCREENS))
def screen_page(request, chromium, board):
    """The page on a laptop's screen and on a phone's."""
    context, page, errors = opened(chromium, board, request.param)
    page.screen = request.param
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
    assert shown == {
        card: (expected["card_values"][card], expected["card_results"][card])
        for card in expected["card_values"]
    }
    for seat in range(3):
        info = page.inner_text(f"#board [data-seat='{seat}'] .seat-info")
        assert f"guaranteed {expected['guaranteed'][seat]}" in info
        assert f"max^n {expected['equilibrium'][seat]}" in info
    best = {
        c for c, v in expected["card_values"].items() if v == max(expected["card_values"].values())
    }
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
    # the policy weight is sent, and the blend said (no deal of a full hand is exact)
    assert "0.5 the self-play policy's value" in page.inner_text("#hint-result")
    page.fill("#hint-policy-weight", "0")
    page.click("#hint")
    page.wait_for_function(
        "!document.querySelector('#hint-result').innerText.includes('self-play policy')"
    )


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


def cost_text(cost, estimated: bool) -> str:
    return f"~{cost:.2f}" if estimated else str(cost)


# is the element under another one at its centre (a card overlapping it)?
COVERED = """node => {
    const r = node.getBoundingClientRect();
    const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return at !== null && !node.contains(at) && !at.contains(node);
}"""


def assert_readable(page, board: str) -> None:
    """Every value strip of ``board`` lies whole inside its card and inside the screen's width."""
    width = page.viewport_size["width"]
    strips = page.locator(f"{board} .card .values span")
    assert strips.count() > 0
    for i in range(strips.count()):
        strip = strips.nth(i)
        strip.scroll_into_view_if_needed()
        box = strip.bounding_box()
        card = strip.locator("xpath=ancestor::*[contains(@class, 'card')][1]").bounding_box()
        assert box["width"] > 0 and box["height"] > 0
        text_width = strip.evaluate("node => node.scrollWidth")
        assert text_width <= box["width"] + 0.5, f"{strip.inner_text()!r} is cut"
        assert (
            card["x"] - 0.5 <= box["x"]
            and box["x"] + box["width"] <= card["x"] + card["width"] + 0.5
        )
        assert (
            card["y"] - 0.5 <= box["y"]
            and box["y"] + box["height"] <= card["y"] + card["height"] + 0.5
        )
        assert 0 <= card["x"] and card["x"] + card["width"] <= width, (
            f"a card is off the {width}px screen"
        )
        covered = strip.evaluate(COVERED)
        assert not covered, f"{strip.inner_text()!r} is under another element"


def review_rows_match(page, answer: dict) -> None:
    """Each row of the review table shows what the review answered for its card."""
    moves = {m["number"]: m for m in answer["moves"]}
    rows = page.locator("#review-table tr[data-move]")
    cards = answer["record"].split("|")[1].split()
    assert rows.count() == len(cards)
    for i in range(rows.count()):
        row = rows.nth(i)
        number = int(row.get_attribute("data-move"))
        assert row.locator("[data-card]").first.get_attribute("data-card") == cards[number - 1]
        move = moves.get(number)
        if move is None:
            assert number in answer["missing"] and "not reviewed" in row.inner_text()
            continue
        assert row.locator(".maxn-cost").inner_text() == cost_text(
            move["maxn"]["cost"], move["estimated"]
        )
        paranoid = move["paranoid"]
        paranoid_cost = "-" if paranoid is None else str(paranoid["cost"])
        assert row.locator(".paranoid-cost").inner_text() == paranoid_cost
        assert (row.locator(".estimated-tag").count() == 1) == move["estimated"]
        marks = row.locator(".mark")
        shown = [marks.nth(j).inner_text() for j in range(marks.count())]
        assert shown == ([MARKS[move["label"]]] if move["label"] else [])
        if answer["seat"] is not None:
            knew = row.locator(".knew-cost").inner_text()
            assert (knew != "") == (move["known"] is not None)
            if move["known"]:
                assert knew.startswith(f"{move['known']['cost']:.2f}")
    for seat in answer["summary"]:
        shown = page.inner_text(f"#review-summary tr[data-seat='{seat['seat']}'] .accuracy")
        # as the page's Math.round: halves up (Python's round takes 12.5 to 12)
        rounded = None if seat["accuracy"] is None else math.floor(seat["accuracy"] + 0.5)
        assert shown == ("-" if rounded is None else f"{rounded}%")
    text = page.inner_text("#tab-review")
    assert "null" not in text and "undefined" not in text and "NaN" not in text


def review_footer_says_what_happened(page, answer: dict) -> None:
    footer = page.inner_text("#review-footer")
    missing = len(answer["missing"])
    if answer["interrupted"]:
        assert footer.startswith(
            f"Cancelled: {len(answer['moves'])} of 48 cards reviewed, {missing} not"
        )
    elif missing:
        assert footer.startswith(
            f"Stopped by the time limit: {missing} card{'s' if missing > 1 else ''} not"
        )
    else:
        assert footer.startswith("Finished: all 48 cards reviewed.")
    assert ("Estimated (~)" in footer) == (answer["estimated"] > 0)


def start_review(page, record: str, seat: str, samples: str, seconds: str):
    page.click("nav [data-tab=review]")
    page.fill("#review-text", record)
    page.select_option("#review-seat", seat)
    page.fill("#review-samples", samples)
    page.fill("#review-time", seconds)
    page.click("#review")


def replayed_values(page) -> dict:
    """The replay's mover: each card's max^n result and whether it is marked best."""
    cards = page.locator("#replay-board .seat.to-move .card")
    shown = {}
    for i in range(cards.count()):
        card = cards.nth(i)
        maxn = card.locator("[data-maxn]").get_attribute("data-maxn")
        shown[card.get_attribute("data-card")] = (
            [float(v) for v in maxn.split(",")],
            "best-m" in card.get_attribute("class"),
        )
    return shown


def test_a_full_hand_is_reviewed_card_by_card_then_replayed(screen_page):
    page = screen_page
    with page.expect_response("**/api/review", timeout=90_000) as response:
        start_review(page, FULL_HAND, "2", "2", "10")
        # rows come in while the review runs: the last cards are done in milliseconds
        page.wait_for_selector("#review-table tr.reviewed")
        assert page.is_visible("#review-status")
        assert page.locator("#review-table tr[data-move='48'].reviewed").count() == 1
    answer = response.value.json()
    page.wait_for_selector("#review-summary")
    assert answer["seat"] == 2
    review_rows_match(page, answer)
    review_footer_says_what_happened(page, answer)
    moves = {m["number"]: m for m in answer["moves"]}
    # the graph: one line a seat, seat 2's marks on it
    assert page.locator("#review-graph polyline.seat-line").count() == 3
    marked = page.locator("#review-graph text.mark")
    drawn = sorted(int(marked.nth(i).get_attribute("data-move")) for i in range(marked.count()))
    assert drawn == [m["number"] for m in answer["moves"] if m["label"] and m["seat"] == 2]

    # the replay: the arrow keys step through the hand, a click on the graph jumps
    page.locator("#review-graph").scroll_into_view_if_needed()
    page.keyboard.press("End")
    assert page.inner_text("#replay-note").startswith("The end: all 48 cards played")
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#replay-note").startswith("Card 48 of 48: seat 2 plays AO")
    estimated = [m for m in answer["moves"] if m["estimated"]]
    move = estimated[0] if estimated else moves[min(moves)]
    page.locator(f"#review-graph rect.hit[data-step='{move['number'] - 1}']").click()
    for step in (0, 1):  # that card, then the next one by the Right arrow
        move = moves[move["number"] + step]
        assert page.inner_text("#replay-note").startswith(
            f"Card {move['number']} of 48: seat {move['seat']} plays {move['card']}"
        )
        assert page.locator(f"#review-table tr[data-move='{move['number']}'].current").count() == 1
        shown = replayed_values(page)
        results = {
            card: [float(v) for v in result] for card, result in move["maxn"]["cards"].items()
        }
        assert {card: values for card, (values, _) in shown.items()} == results
        assert {c for c, (_, best) in shown.items() if best} == set(move["maxn"]["best"])
        text = page.inner_text("#replay-board .seat.to-move")
        assert ("~" in text) == move["estimated"]
        # every hand is open: the 48 cards less those played before this one
        assert page.locator("#replay-board .seat .card").count() == 48 - (move["number"] - 1)
        assert_readable(page, "#replay-board")
        page.keyboard.press("ArrowRight")
    # a card's details: pointed at on a laptop, tapped on a phone
    card = page.locator("#replay-board .seat.to-move .card").first
    if page.screen == "phone":
        card.tap()
    else:
        card.hover()
    details = page.inner_text("#replay-board .details")
    assert details.startswith(f"{card.get_attribute('data-card')}: max^n: seats 0-1-2 get")


@contextmanager
def review_link_opened(chromium, link: str):
    """``link`` opened in a new browser: yields the page, once the review the link
    started has been drawn, and that review's answer (a Playwright ``Response``)."""
    context, page, errors = blank_page(chromium, "laptop")
    try:
        with page.expect_response("**/api/review", timeout=60_000) as response:
            page.goto(link)
        page.wait_for_selector("#review-summary")
        yield page, response.value
        assert not errors, f"the page's JavaScript failed: {errors}"
    finally:
        context.close()


@pytest.mark.parametrize(
    "settings, sent",
    [
        ("&seat=2&samples=3&time_limit=5", {"seat": 2, "samples": 3, "time_limit": 5}),
        ("", {"seat": None, "samples": None, "time_limit": None}),  # as the board wrote them before
    ],
    ids=["with-a-seat", "the-record-alone"],
)
def test_a_review_link_starts_its_review_as_the_button_would(chromium, board, settings, sent):
    link = f"{board}/#review={urllib.parse.quote(REVIEWED, safe='')}{settings}"
    with review_link_opened(chromium, link) as (page, response):
        request = response.request.post_data_json
        assert {field: request[field] for field in REVIEW_FIELDS} == {"record": REVIEWED} | sent
        # the form says what is reviewed, as if the user had filled it in
        assert page.locator("nav [data-tab=review][aria-selected=true]").count() == 1
        assert page.input_value("#review-text") == REVIEWED
        form = [page.input_value(f) for f in ("#review-seat", "#review-samples", "#review-time")]
        assert form == ["" if sent[f] is None else str(sent[f]) for f in REVIEW_FIELDS[1:]]
        answer = response.json()
        assert answer["seat"] == sent["seat"]
        header = page.inner_text("#review-table tr:first-child")
        assert ("knew (seat 2)" in header) == (sent["seat"] == 2)
        review_rows_match(page, answer)


def test_the_address_of_a_review_reproduces_it(page, chromium):
    reviews = []
    page.on("request", lambda r: reviews.append(r) if r.url.endswith("/api/review") else None)
    with page.expect_response("**/api/review", timeout=60_000):
        start_review(page, REVIEWED, "2", "3", "5")
    page.wait_for_selector("#review-summary")
    link = page.url
    address = urllib.parse.unquote(link.split("#", 1)[1])
    assert address == f"review={REVIEWED}&seat=2&samples=3&time_limit=5"
    # the form changed but not reviewed again: the address keeps the review shown
    page.select_option("#review-seat", "0")
    page.click("nav [data-tab=hint]")
    page.go_back()  # the browser's Back: the review is shown again, not started again
    page.wait_for_selector("#tab-review:not([hidden]) #review-summary")
    assert page.url == link and len(reviews) == 1
    assert page.input_value("#review-seat") == "2"  # the form shows the review shown
    with review_link_opened(chromium, link) as (other, response):
        sent = response.request.post_data_json
        assert [sent[f] for f in REVIEW_FIELDS] == [
            reviews[0].post_data_json[f] for f in REVIEW_FIELDS
        ]
        assert "knew (seat 2)" in other.inner_text("#review-table tr:first-child")
        assert other.url == link


def test_a_cancelled_review_keeps_the_cards_done(page):
    with page.expect_response("**/api/review", timeout=60_000) as response:
        start_review(page, FULL_HAND, "", "", "25")
        page.wait_for_selector("#review-table tr.reviewed")
        page.click("#review-status .cancel")
    answer = response.value.json()
    page.wait_for_selector("#review-summary")
    assert answer["interrupted"] and answer["missing"]
    review_rows_match(page, answer)
    review_footer_says_what_happened(page, answer)


def test_a_game_survives_a_reload_and_its_hand_is_reviewed_with_what_the_player_knew(page):
    page.click("nav [data-tab=play]")
    page.select_option("#play-seat", "1")
    page.select_option("#play-left", "greedy")
    page.select_option("#play-right", "random")
    page.fill("#play-cards", "16")
    page.fill("#play-seed", "3")
    page.click("#play-new")
    mine = "#play-board [data-seat='1'] button.card:not([disabled])"
    for played in range(16):
        page.wait_for_selector(mine)
        if played == 5:  # a reload in the middle of the hand: the game goes on
            held = page.locator("#play-board [data-seat='1'] .card").count()
            page.reload()
            page.wait_for_selector(mine)
            assert page.locator("nav [data-tab=play][aria-selected=true]").count() == 1
            assert page.locator("#play-board [data-seat='1'] .card").count() == held == 11
            assert page.locator("#play-log p").count() == 5
        page.click(f"{mine} >> nth=0")
    page.wait_for_selector("#play-message:has-text('The hand is over')")
    for field, value in (("#review-samples", "2"), ("#review-time", "10")):  # on the hidden tab
        page.eval_on_selector(field, "(node, value) => { node.value = value; }", value)
    with page.expect_response("**/api/review", timeout=60_000) as response:
        page.click("#tab-play .review-hand")  # reviews seat 1, the user's, with what it knew
    assert response.value.request.post_data_json["seat"] == 1
    answer = response.value.json()
    page.wait_for_selector("#review-summary")
    assert answer["seat"] == 1 and any(m["known"] for m in answer["moves"])
    review_rows_match(page, answer)
    review_footer_says_what_happened(page, answer)


def test_a_game_says_while_the_solver_compiles_for_its_bots(page, monkeypatch):
    """As on a machine's first run (``is_compiled`` False): the game shows its deal and
    the jobs' notice until the compile (held here until the test lets it end) is done."""
    compiled = threading.Event()
    monkeypatch.setattr(games, "is_compiled", compiled.is_set)
    monkeypatch.setattr(games, "warm_up", compiled.wait)
    try:
        page.click("nav [data-tab=play]")
        page.select_option("#play-left", "greedy")
        page.select_option("#play-right", "random")
        page.fill("#play-cards", "2")
        page.fill("#play-seed", "7")
        page.click("#play-new")
        page.wait_for_function(
            f"() => $('play-message').textContent.includes({json.dumps(COMPILE_NOTICE)})"
        )
        assert page.locator("#play-board [data-seat='0'] .card").count() == 2  # dealt
        assert page.locator("#play-board button.card:not([disabled])").count() == 0
        # the page asks for the game again meanwhile (the next time once it has drawn the
        # answer before): still compiling
        for _ in range(2):
            with page.expect_response(
                lambda r: "/api/play/" in r.url and r.request.method == "GET"
            ):
                pass
        assert COMPILE_NOTICE in page.inner_text("#play-message")
    finally:
        compiled.set()
    page.wait_for_selector("#play-message:has-text('Your turn')")
    assert COMPILE_NOTICE not in page.inner_text("#tab-play")


def test_an_answer_for_an_older_position_never_shows(page):
    held = []  # the first solve's request, held back until the second has answered

    def hold(route):
        if held:
            route.continue_()
        else:
            held.append(route)

    cancels = []
    page.on("request", lambda r: cancels.append(r.url) if r.url.endswith("/cancel") else None)
    page.route("**/api/solve", hold)
    page.fill("#position-text", ENDING)
    page.click("#position-load")
    page.wait_for_selector("#board .seat.to-move")
    page.click("#solve")
    page.wait_for_function("() => document.querySelector('#solve-status').hidden === false")
    # the route's handler runs as the page's events are dispatched, which may be
    # after the status shows on a busy machine: let them run until it has
    deadline = time.monotonic() + 30
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(20)
    assert held, "the first solve's request never reached the route"
    first_job = held[0].request.post_data_json["job"]
    page.fill("#position-text", SMALL)
    page.click("#position-load")
    page.click("#solve")
    page.wait_for_selector("#board [data-seat='0'] .card .values [data-maxn]")
    shown = page.inner_html("#board")

    def first_solve(response):
        return response.url.endswith("/api/solve") and ENDING in response.request.post_data

    with page.expect_response(first_solve) as old:
        held[0].continue_()
    # the page's cancel came first: the server stopped the search as it started
    assert old.value.status == 409 or old.value.json()["interrupted"]
    page.wait_for_timeout(300)  # time for the page to (wrongly) draw it
    assert page.input_value("#position-text") == SMALL
    assert page.inner_html("#board") == shown
    assert any(first_job in url for url in cancels), "the search the page replaced was cancelled"


def test_the_position_is_in_the_address_and_back_steps_back(page, chromium, board):
    page.fill("#position-text", ENDING)
    page.click("#position-load")
    page.click("#solve")
    page.wait_for_selector("#board [data-seat='0'] .card .values [data-maxn]")
    card = page.locator("#board [data-seat='0'] .card").first.get_attribute("data-card")
    page.click(f"#board [data-seat='0'] .card[data-card='{card}']")
    page.wait_for_selector("#board [data-seat='1'].to-move .card .values")
    after = str(Position.parse(ENDING).play(card))
    assert page.input_value("#position-text") == after
    assert urllib.parse.unquote(page.url.split("#", 1)[1]) == f"position={after}"
    page.go_back()
    page.wait_for_selector("#board [data-seat='0'].to-move .card .values")
    assert page.input_value("#position-text") == ENDING
    page.go_forward()
    page.wait_for_selector("#board [data-seat='1'].to-move .card .values")
    assert page.input_value("#position-text") == after
    # to another tab and back: the page's Back button still steps back a card
    page.click("nav [data-tab=hint]")
    page.click("nav [data-tab=position]")
    page.click("#step-back")
    page.wait_for_selector("#board [data-seat='0'].to-move .card .values")
    assert page.input_value("#position-text") == ENDING
    page.go_back()  # the browser's Back: to where the page's Back button was clicked
    page.wait_for_selector("#board [data-seat='1'].to-move .card .values")
    assert page.input_value("#position-text") == after
    # the address shared: another browser opens the same position
    context, other, errors = opened(chromium, page.url, "laptop")
    try:
        other.wait_for_function(f"() => $('position-text').value === {json.dumps(after)}")
        assert other.locator("#board [data-seat='1'].to-move").count() == 1
        assert not errors
    finally:
        context.close()


def test_every_value_of_a_full_deal_is_readable_and_estimates_are_marked(screen_page):
    page = screen_page
    page.fill("#position-text", FULL_DEAL)
    page.click("#position-load")
    page.select_option("#solve-mode", "both")
    page.fill("#solve-time", "3")
    with page.expect_response("**/api/solve") as response:
        page.click("#solve")
    solved = response.value.json()
    page.wait_for_selector("#board [data-seat='0'] .card .values [data-maxn]")
    cards = page.locator("#board [data-seat='0'] .card")
    assert cards.count() == 16
    estimate = solved["estimate"]
    assert solved["equilibrium"] is None and not estimate["exact"]
    own = {card: result[0] for card, result in estimate["card_results"].items()}
    best = {card for card, value in own.items() if value >= max(own.values()) - NEAR_TIE}
    marked = page.locator("#board [data-seat='0'] .card.best-m")
    assert {marked.nth(i).get_attribute("data-card") for i in range(marked.count())} == best
    for i in range(cards.count()):
        assert cards.nth(i).locator(".m").inner_text().startswith("m ~")
    assert "null" not in page.inner_text("#board")
    assert_readable(page, "#board")


def test_an_analysis_marks_its_estimates_and_never_prints_null(page, capsys):
    answer = command_json(capsys, "analyze", ENDING)
    first = answer["decisions"][0]  # made an estimate, as beyond exact reach
    first |= {"estimated": True, "guaranteed": None}
    for card in first["cards"]:
        card |= {"paranoid": None, "maxn": [v + 0.25 for v in card["maxn"]]}
    answer |= {"estimated": [1], "exact": False}
    page.route("**/api/analyze", lambda route: route.fulfill(json=answer))
    page.click("#analyze")
    page.wait_for_selector("#analysis table")
    line = page.inner_text("#main-line")
    assert line.startswith(f"Main line: {first['played'][:-1]}")
    assert line.count("~") == 1  # the first card only
    row = page.inner_text("#analysis tr:nth-child(2)")
    assert "g -" in row and "m ~" in row
    assert "null" not in page.inner_text("#analysis")


def test_a_page_that_goes_cancels_its_search(page, board):
    page.fill("#position-text", FULL_DEAL)
    page.click("#position-load")
    page.fill("#solve-time", "25")
    with page.expect_request("**/api/solve") as solving:
        page.click("#solve")
    job = solving.value.post_data_json["job"]
    page.wait_for_selector("#solve-status .status-text:has-text('at most')")  # the job is running
    page.goto("about:blank")  # the page goes: its beacon cancels the solve
    state = {}
    for _ in range(100):
        with urllib.request.urlopen(f"{board}/api/jobs/{job}", timeout=10) as reply:
            state = json.load(reply)
        if state.get("done") or state.get("cancelled"):
            break
        time.sleep(0.1)
    # long before its 25 s: no solve of a full deal ends so soon unless cancelled
    assert state.get("done") or state.get("cancelled"), state


def test_a_small_search_is_not_held_behind_the_pages_long_one(page):
    with page.expect_response("**/api/review", timeout=60_000) as review:
        start_review(page, FULL_HAND, "", "", "25")
        page.wait_for_selector("#review-table tr.reviewed")
        page.click("nav [data-tab=position]")
        page.fill("#position-text", SMALL)
        page.click("#position-load")
        page.click("#solve")  # the page's one search now: the review is cancelled
        page.wait_for_selector("#board [data-seat='0'] .card .values [data-maxn]")
    answer = review.value.json()
    assert answer["interrupted"]
    page.click("nav [data-tab=review]")
    page.wait_for_selector("#review-summary")
    review_footer_says_what_happened(page, answer)
