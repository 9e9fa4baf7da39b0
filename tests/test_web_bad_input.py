"""The board's JSON API under bad input: any body answers
a 4xx with a short JSON error, never a 5xx.

Hypothesis posts arbitrary bytes and JSON, the commands' own field names among
random ones, to every endpoint through Starlette's TestClient (in this process,
no server); then the cases that answered 500, or a 52 MB error, one by one.
No request here reaches a search: each is refused by a check first.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from unittest import mock
from urllib.parse import quote_from_bytes

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2: pip install '.[test]'")

from starlette.testclient import TestClient  # noqa: E402

from coins.commands import build_parser  # noqa: E402
from coins.web.app import ERROR_CHARS, MAX_BODY_BYTES, SEARCHES, WebGame, create_app  # noqa: E402
from coins.web.fields import command_parsers, fields_of  # noqa: E402
from solver.errors import QUOTED_CHARS  # noqa: E402

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()
ENDING = "J9.J4..52 .K75.6.N8 A753.8.5. 0 -"  # README: a six-card ending
RECURSION = sys.getrecursionlimit()  # Python's, which json's decoder meets on deep nesting
SHORT = ERROR_CHARS + len("... (1,000,000 characters)")  # an error's text, cut or not
FUZZ = settings(max_examples=100, suppress_health_check=[HealthCheck.function_scoped_fixture])

# every POST endpoint, a job's cancel among them (it reads no body)
POSTS = [
    *(f"/api/{command}" for command in SEARCHES),
    *(
        "/api/deal",
        "/api/position",
        "/api/view",
        "/api/play",
        "/api/play/move",
        "/api/jobs/fuzz/cancel",
    ),
]
# the commands' fields, and the ones the board reads itself
NAMES = sorted(
    {name for parser in command_parsers(build_parser()).values() for name in fields_of(parser)}
    | {"job", "game", "card", "cards"}
)

# text with what breaks encoders and parsers: lone surrogates, NUL, line breaks, quotes,
CHARACTERS = st.characters(exclude_categories=()) | st.sampled_from('\ud800\udfff\x00\n\u2028"\\')
# and long text, to be cut in errors (a body stays under the size limit)
TEXT = st.text(CHARACTERS, max_size=30) | st.integers(ERROR_CHARS, 2_000).map("x".__mul__)
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=8,
)
FIELDS = st.dictionaries(st.sampled_from(NAMES) | TEXT, VALUES, max_size=5)
# JSON as Python writes it (NaN and Infinity included), any other value, or any bytes
BODIES = st.one_of(
    FIELDS.map(json.dumps).map(str.encode),
    VALUES.map(json.dumps).map(str.encode),
    st.binary(max_size=300),
)
QUOTED = st.binary(max_size=200).map(lambda raw: quote_from_bytes(raw, safe=""))


@pytest.fixture(scope="module")
def client():
    # a search reached by mistake stops within a second
    with TestClient(create_app(time_limit=1.0), raise_server_exceptions=False) as client:
        yield client


@pytest.fixture
def no_games():
    """A game the fuzz starts is not played: its bots would search for seconds."""
    with mock.patch.object(WebGame, "begin"):
        yield


def assert_short_refusal(response) -> dict:
    """No 5xx; an error is a JSON object of one short line of text (and its field)."""
    assert response.status_code < 500, response.text[:500]
    assert len(response.content) < 4096, response.text[:500]
    body = response.json()
    if response.status_code >= 400:
        assert set(body) <= {"error", "field"} and "error" in body, body
        for text in body.values():
            assert isinstance(text, str) and len(text) <= SHORT and len(text.splitlines()) <= 1, (
                body
            )
    return body


@pytest.mark.parametrize("endpoint", POSTS)
@FUZZ
@given(body=BODIES)
def test_any_body_gets_an_answer_or_a_short_error(client, no_games, endpoint, body):
    assert_short_refusal(client.post(endpoint, content=body))


@FUZZ
@given(query=st.dictionaries(st.sampled_from(NAMES) | QUOTED, QUOTED, max_size=4), segment=QUOTED)
def test_any_query_or_path_gets_an_answer_or_a_short_error(client, query, segment):
    pairs = "&".join(f"{name}={value}" for name, value in query.items())
    assert_short_refusal(client.get(f"/graph.svg?{pairs}"))
    for path in ("/api/jobs/", "/api/play/"):
        assert_short_refusal(client.get(path + segment))


def post(client, endpoint: str, body: bytes) -> tuple[int, dict]:
    response = client.post(endpoint, content=body)
    return response.status_code, assert_short_refusal(response)


@pytest.mark.parametrize("depth", [*range(RECURSION - 50, RECURSION + 10), 10_000])
def test_deep_nesting_is_refused(client, depth):
    """Around the recursion limit (read, or not) and far beyond it, under the size limit."""
    for nested in (b"[" * depth + b"]" * depth, b'{"a":' * depth + b"1" + b"}" * depth):
        status, body = post(client, "/api/solve", b'{"position": ' + nested + b"}")
        assert status == 400 and (depth < RECURSION or "not JSON" in body["error"])


@pytest.mark.parametrize(
    "endpoint, body, words",
    [
        ("solve", f'{{"position": "{ENDING[:-1]}\\ud800"}}'.encode(), '"\\ud800" is not a card'),
        ("view", f'{{"view": "{ENDING} | \\udfff"}}'.encode(), '"\\udfff" is not a card'),
        ("deal", b'{"seed": 1' + b"0" * 5000 + b"}", "4300 digits"),  # Python reads 4300 at most
        ("deal", b'{"seed": 1, "seed": 2}', '"seed" is given twice'),
    ],
)
def test_bad_json_is_refused_with_its_reason(client, endpoint, body, words):
    status, answer = post(client, f"/api/{endpoint}", body)
    assert status == 400 and words in answer["error"], answer


def test_a_lone_surrogate_in_a_name_is_shown_escaped(client):
    status, body = post(client, "/api/solve", b'{"\\ud800": 1}')
    assert status == 400 and 'no field "\\ud800"' in body["error"] and body["field"] == "\\ud800"


def test_a_body_over_the_limit_answers_413(client):
    fields = b'{"position": "%s"}' % ENDING.encode()
    padded = fields + b" " * (MAX_BODY_BYTES - len(fields))  # at the limit: read
    status, body = post(client, "/api/position", padded)
    assert status == 200 and body["text"] == ENDING
    response = client.post("/api/position", content=padded + b" ")
    assert response.status_code == 413 and len(response.content) < 100
    # sent in chunks, with no length to refuse at once: read up to the limit, then refused
    response = client.post("/api/position", content=iter([padded, b" "]))
    assert response.status_code == 413 and response.json() == {"error": "Content Too Large"}


def test_the_readme_states_the_limits():
    readme = " ".join(README.split())
    assert f"over {MAX_BODY_BYTES // 1024} KiB answers 413" in readme
    assert f"first {ERROR_CHARS} characters" in readme


@pytest.mark.parametrize("size", [3 << 20, MAX_BODY_BYTES - 100])
def test_a_long_input_gives_a_short_error(client, size):
    """A 50 MiB body (here 3 MiB) is refused by its size; one under the limit by
    its content, in an error quoting its first characters only."""
    response = client.post("/api/position", content=b'{"position": "%s"}' % (b"x" * size))
    assert len(response.content) < 1024
    if size > MAX_BODY_BYTES:
        assert response.status_code == 413
    else:
        error = response.json()["error"]
        assert response.status_code == 400 and error.startswith("a position has 5 or 6 fields")
        # the library quotes the first QUOTED_CHARS characters (solver.errors.cut_quotes)
        assert re.search(rf"'x{{{QUOTED_CHARS}}}\.\.\.'$", error), error
