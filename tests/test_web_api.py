"""The board's JSON endpoints (``coins serve``), over HTTP on 127.0.0.1.

Expected values: each endpoint answers what its command's ``--json`` prints
(run here through the command line itself, ``coins.cli.main``), bad input a
4xx with the library's one-line error (a burst of requests at once:
``tests/test_board_benchmark.py``).
"""

from __future__ import annotations

import json
import threading
import time
import urllib.request

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
pytest.importorskip("uvicorn", reason="the web extra is not installed: pip install '.[web]'")

from coins import cli  # noqa: E402
from coins.notice import COMPILE_NOTICE  # noqa: E402
from coins.web.local import FULL_HAND, post, served  # noqa: E402

ENDING = "J9.J4..52 .K75.6.N8 A753.8.5. 0 -"  # README: a six-card ending
SMALL = "7...2 K.3.. J.6.. 0 - 0,1,0"  # solver/__init__.py's doctest
# a full deal (RULES.md's example): no solve finishes it in the tests' time
FULL_DEAL = "982.J8732.K95.AJ542 KNJ7543.96.AN874.96 A6.AKN54.J632.KN873 0 -"


@pytest.fixture(scope="module")
def board():
    with served(time_limit=20.0) as base:
        yield base


def command_json(capsys, *argv) -> dict:
    """What ``coins <argv> --json`` prints."""
    assert cli.main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def without_timing(out: dict) -> dict:
    return {key: value for key, value in out.items() if key not in ("seconds", "nodes")}


@pytest.mark.parametrize(
    "command, fields, argv",
    [
        ("solve", {"position": ENDING, "mode": "both"}, ["solve", ENDING, "--mode", "both"]),
        ("solve", {"position": ENDING, "seat": 1}, ["solve", ENDING, "--seat", "1"]),
        ("analyze", {"position": SMALL}, ["analyze", SMALL]),
        ("review", {"record": ENDING + " | 9C 5O 8O 3C"}, ["review", ENDING + " | 9C 5O 8O 3C"]),
        (
            "hint",
            {"view": ENDING, "samples": 4, "seed": 3, "time_limit": 0},
            ["hint", ENDING, "--samples", "4", "--seed", "3", "--time-limit", "0"],
        ),
    ],
)
def test_an_endpoint_answers_what_its_command_prints(board, capsys, command, fields, argv):
    status, body = post(f"{board}/api/{command}", fields)
    assert status == 200
    expected = command_json(capsys, *argv)
    if command == "hint":  # its time limit on the board is the server's: both ran every sample
        assert body["samples"] == expected["samples"] == 4
        for entry in body["cards"] + expected["cards"]:
            entry.pop("seconds", None)
        assert body["cards"] == expected["cards"]
    else:
        assert without_timing(body) == without_timing(expected)
    if command == "analyze":
        for got, want in zip(body["decisions"], expected["decisions"]):
            assert without_timing(got) == without_timing(want)


def test_graph_and_deal_answer_what_their_commands_write(board, capsys, tmp_path):
    status, body = post(f"{board}/api/graph", {"position": SMALL, "mode": "maxn"})
    assert status == 200
    out = tmp_path / "graph.json"
    assert cli.main(["graph", SMALL, "--mode", "maxn", "--out", str(out)]) == 0
    written = json.loads(out.read_text())
    for graph in (body, written):
        graph["graph"].pop("seconds")
    assert body == written
    capsys.readouterr()
    status, body = post(f"{board}/api/deal", {"seed": 4, "cards": 5, "leader": 2})
    assert cli.main(["deal", "--seed", "4", "--cards", "5", "--leader", "2"]) == 0
    assert status == 200 and body == {"position": capsys.readouterr().out.strip()}


BAD = [
    ("solve", {"position": "J9.J4..52 .K75.6.N8 A753.8.5. 0"}, "5 or 6 fields"),
    ("solve", {"position": ENDING, "mode": "sideways"}, "invalid choice"),
    ("solve", {"position": ENDING, "time_limit": "soon"}, "must be a number of seconds"),
    ("solve", {"position": ENDING, "time_limit": 100000}, "at most"),
    ("solve", {"position": ENDING, "colour": "red"}, 'no field "colour"'),
    ("solve", {}, "needs the field position"),
    ("solve", {"position": ["AO", {"x": 1}]}, "text or number"),
    ("analyze", {"position": "AO. .. .. 0 -"}, "hand"),
    ("review", {"record": ENDING + " | 9C 9C"}, "move 2"),
    ("hint", {"view": "? ? ? 0 -"}, ""),
    ("hint", {"view": ENDING, "samples": 0}, "samples"),
    ("graph", {"position": SMALL, "depth": "deep"}, "must be a whole number"),
    ("graph", {"position": SMALL, "out": "/tmp/x.svg"}, 'no field "out"'),
    ("deal", {"cards": 40}, "cards per hand"),
    ("position", {"position": "AO"}, "fields"),
    ("view", {"view": "? KNJ7543.96.AN874.96 ? 0 - | JO KC AO 3C"}, "move 4"),
    ("play", {"bots": ["greedy"]}, "expected 2 arguments"),
    ("play", {"cards": 40}, "cards per hand"),
    ("play/move", {"game": "nothing", "card": "AO"}, "no game"),
    ("jobs/x/cancel", "not an object", "JSON object"),
]


@pytest.mark.parametrize(
    "endpoint, fields, words", BAD, ids=[f"{e}-{i}" for i, (e, _, _) in enumerate(BAD)]
)
def test_bad_input_answers_4xx_with_one_line(board, endpoint, fields, words):
    status, body = post(f"{board}/api/{endpoint}", fields)
    if endpoint.startswith("jobs/"):  # a cancel takes no fields: any body is fine
        assert status == 200 and body["cancelled"] is False
        return
    assert 400 <= status < 500, body
    assert set(body) <= {"error", "field"}
    assert "\n" not in body["error"] and "Traceback" not in body["error"]
    assert words in body["error"]


def test_not_json_and_no_endpoint(board):
    request = urllib.request.Request(
        f"{board}/api/solve", b"{not json", {"Content-Type": "application/json"}
    )
    with pytest.raises(urllib.error.HTTPError) as error:
        urllib.request.urlopen(request, timeout=30)
    assert error.value.code == 400 and "not JSON" in json.load(error.value)["error"]
    status, body = post(f"{board}/api/unknown", {})
    assert status == 404 and "no endpoint" in body["error"]


def test_a_position_error_names_its_field(board):
    status, body = post(f"{board}/api/solve", {"position": "J9.J4..52 .K75.6.N8 A753.8.5. 5 -"})
    assert status == 400 and body["field"] == "leader"


def test_a_long_solve_shows_progress_and_stops_on_cancel(board):
    answer = {}
    thread = threading.Thread(
        target=lambda: answer.update(
            zip(
                ("status", "body"),
                post(f"{board}/api/solve", {"position": FULL_DEAL, "job": "long-one"}),
            )
        )
    )
    thread.start()
    state = {}
    for _ in range(200):  # the job appears once the request is read
        with urllib.request.urlopen(f"{board}/api/jobs/long-one", timeout=10) as reply:
            state = json.load(reply)
        if not state.get("done") and state["progress"] not in (
            "waiting for a free worker",
            "searching",
        ):
            break
        time.sleep(0.05)
    assert state["command"] == "solve" and state["time_limit"] == 20.0
    assert state["progress"], "the solve says what it is proving"
    # the server answers other requests while it searches
    status, body = post(f"{board}/api/solve", {"position": SMALL})
    assert status == 200 and body["guaranteed"] == [0, 0, 2]
    status, body = post(f"{board}/api/jobs/long-one/cancel", {})
    assert body["cancelled"] is True
    thread.join(timeout=30)
    assert answer["status"] == 200
    assert answer["body"]["interrupted"] is True and answer["body"]["exact"] is False


def test_a_game_against_two_bots(board):
    status, state = post(f"{board}/api/play", {"bots": ["greedy", "random"], "cards": 2, "seed": 7})
    assert status == 200 and state["your_turn"] and len(state["hand"]) == 2
    game = state["game"]
    status, body = post(f"{board}/api/play/move", {"game": game, "card": "ZZ"})
    assert status == 400 and "not a card" in body["error"]
    while not state["over"]:
        status, state = post(f"{board}/api/play/move", {"game": game, "card": state["hand"][0]})
        assert status == 200
    [hand] = state["hands"]
    assert hand["complete"] and sum(hand["points"]) == sum(
        1 for card in hand["record"].split("|")[1].split() if card.endswith("O")
    )
    status, body = post(f"{board}/api/play/move", {"game": game, "card": "AO"})
    assert status == 400 and "not your turn" in body["error"]


def test_a_review_shows_its_cards_as_they_are_done_and_a_cancel_keeps_them(board):
    answer = {}

    def review():
        fields = {"record": FULL_HAND, "job": "review-one"}
        answer["status"], answer["body"] = post(f"{board}/api/review", fields)

    thread = threading.Thread(target=review)
    thread.start()
    partial = []
    for _ in range(400):  # the last cards are reviewed first, in milliseconds
        with urllib.request.urlopen(f"{board}/api/jobs/review-one", timeout=10) as reply:
            state = json.load(reply)
        partial = state.get("partial", [])
        if partial:
            break
        time.sleep(0.05)
    assert partial and partial[0]["number"] == 48, "the review works from the last card backward"
    assert state["progress"].startswith("move ")
    post(f"{board}/api/jobs/review-one/cancel", {})
    thread.join(timeout=60)
    assert answer["status"] == 200, answer
    body = answer["body"]
    assert body["interrupted"] is True and not body["complete"]
    numbers = [m["number"] for m in body["moves"]]
    assert {m["number"] for m in partial} <= set(numbers)
    assert sorted(numbers + body["missing"]) == list(range(1, 49))
    assert numbers == list(range(49 - len(numbers), 49))


def test_the_first_job_compiles_the_solver_and_says_so(monkeypatch):
    from coins.web import jobs

    job = jobs.Job("first", "solve", 10.0)
    said = []
    monkeypatch.setattr(jobs, "is_compiled", lambda: False)
    monkeypatch.setattr(jobs, "warm_up", lambda: said.append(job.message))
    assert jobs.Jobs._work(job, lambda job: {"progress": job.message}) == {"progress": "searching"}
    assert said == [COMPILE_NOTICE]


def game_now(board, game: str) -> dict:
    with urllib.request.urlopen(f"{board}/api/play/{game}", timeout=10) as reply:
        return json.load(reply)


def test_a_game_says_while_the_solver_compiles_for_its_bots(board, monkeypatch):
    """As on a machine's first run (``is_compiled`` False), the game's request answers as
    the compile for its bots starts, with the jobs' notice and the hand dealt; the notice
    stays until the compile (held here until the test lets it end) is done."""
    from coins.web import games

    compiled = threading.Event()
    monkeypatch.setattr(games, "is_compiled", compiled.is_set)
    monkeypatch.setattr(games, "warm_up", compiled.wait)
    try:
        # bots that need no solver do not wait for it
        status, state = post(f"{board}/api/play", {"bots": ["random", "random"], "cards": 2})
        assert status == 200 and state["your_turn"] and state["notice"] is None
        fields = {"bots": ["greedy", "random"], "cards": 2, "seed": 7}
        status, state = post(f"{board}/api/play", fields)
        assert status == 200 and state["notice"] == COMPILE_NOTICE
        assert not state["your_turn"] and not state["over"] and len(state["hand"]) == 2
        assert game_now(board, state["game"])["notice"] == COMPILE_NOTICE
    finally:
        compiled.set()
    for _ in range(600):  # the bots play once the compile is done: then it is the user's turn
        now = game_now(board, state["game"])
        if now["your_turn"]:
            break
        time.sleep(0.05)
    assert now["your_turn"] and now["notice"] is None


def test_a_cancel_that_overtakes_its_request_stops_the_job_as_it_starts(board):
    status, body = post(f"{board}/api/jobs/early-one/cancel", {})
    assert status == 200 and body["cancelled"] is False  # nothing running yet
    status, body = post(f"{board}/api/solve", {"position": FULL_DEAL, "job": "early-one"})
    assert status == 200 and body["interrupted"] is True and body["exact"] is False


def test_the_page_marks_estimated_ties_as_the_review_does():
    """The board marks as best every estimated card within the review's tie of
    the best (board.js NEAR_TIE), so its marks and the review's ``best`` agree."""
    from pathlib import Path

    from analysis.estimate import ESTIMATE_TIE
    from coins import web

    script = (Path(web.__file__).parent / "static" / "board.js").read_text()
    (line,) = [line for line in script.splitlines() if line.startswith("const NEAR_TIE = ")]
    assert float(line.split("=")[1].split(";")[0]) == ESTIMATE_TIE
