"""A refused request changes nothing, says so in one short line, and quotes little of itself.

Every route reads and checks its whole request (path, query, body) before anything happens, so
a bad query parameter on a valid act is refused before the move, not after it. Refusals quote
at most ``errors.SHOWN`` characters of what was sent, engines' texts included. A client that goes
away mid-body gets no answer and leaves one log line at most; a body that stalls is a 408.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import string
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from training.web import app as app_module
from training.web import errors
from training.web.app import create_app
from training.web.errors import SHOWN, shown

from .conftest import BASE, Seats, make_table

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def live(tmp_path_factory) -> Iterator[tuple[TestClient, Seats, Any]]:
    """An all-human Smuggle table (nothing moves by itself), every seat joined."""
    db = tmp_path_factory.mktemp("refusals") / "games.sqlite"
    with TestClient(create_app(db), base_url=BASE) as client:
        seats = make_table(client, "smuggle_v0", ["human", "human", "human"], seed=9)
        for seat in seats.tokens:
            seats.join(seat, f"P{seat}")
        yield client, seats, db


def snapshot(client: TestClient, db: Any) -> Any:
    """Every table's state, revision, seats and status, in memory and stored, and the decisions."""
    tables = client.app.state.registry.tables  # type: ignore[attr-defined]
    memory = {
        tid: (list(t.state.history), t.revision, json.dumps(t.seats, sort_keys=True), t.status)
        for tid, t in tables.items()
    }
    conn = sqlite3.connect(db)
    try:
        stored = conn.execute("SELECT id, actions, seats, status FROM web_tables ORDER BY id").fetchall()
        counts = [conn.execute(f"SELECT COUNT(*) FROM {name}").fetchone()[0] for name in ("human_decisions", "games")]
    finally:
        conn.close()
    return memory, stored, counts


def valid_act(seats: Seats) -> tuple[int, dict[str, Any]]:
    state = seats.table().state
    return state.current_player(), {"action": state.legal_actions()[0], "revision": len(state.history)}


@pytest.mark.parametrize("query", ["log_from=-1", "log_from=abc", "log_from=1&log_from=-1", "after=1", "x=1"])
def test_a_valid_act_with_a_bad_query_is_refused_before_the_move(live, query):
    client, seats, db = live
    mover, body = valid_act(seats)
    before = snapshot(client, db)
    response = client.post(seats.path(mover, "act") + "?" + query, json=body, headers=seats.headers(mover))
    assert response.status_code == 422, response.text
    assert snapshot(client, db) == before, "the move was played although the request was refused"
    again = client.post(seats.path(mover, "act") + "?log_from=0", json=body, headers=seats.headers(mover))
    assert again.status_code == 200 and again.json()["repeated"] is False  # it was never played


ROUTES = ("act", "join", "view", "watch", "create", "close", "list", "table", "envs", "games", "replay")
names = st.sampled_from(["after", "wait", "log_from", "step", "view", "seed", ""]) | st.text(max_size=6)
values = st.text(max_size=12) | st.integers(-(2**70), 2**70).map(str) | st.sampled_from(["-1", "nan", "1e99", "0"])
queries = st.lists(st.tuples(names, values), max_size=3)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)


def request_for(client: TestClient, seats: Seats, route: str, valid: bool, body: Any) -> tuple[str, str, Any, dict]:
    """(method, path, body, headers) of ``route`` at the live table: a valid body, or ``body``."""
    mover, act = valid_act(seats)
    seat_headers = seats.headers(mover)
    if route == "act":
        return "POST", seats.path(mover, "act"), act if valid else body, seat_headers
    if route == "join":
        return "POST", seats.path(mover, "join"), {"name": "Zed"} if valid else body, seat_headers
    if route == "create":
        table = {"env_id": "ciq_v0", "seats": ["human", "human"], "seed": "5"}
        return "POST", "/api/tables", table if valid else body, {}
    if route == "close":  # a table of its own, so that a valid close ends nothing else
        other = make_table(client, "ciq_v0", ["human", "human"])
        return "POST", f"/api/tables/{other.id}/close", {} if valid else body, {"X-Owner-Token": other.owner}
    paths = {
        "view": seats.path(mover, "view"),
        "watch": f"/api/tables/{seats.id}/watch",
        "list": "/api/tables",
        "table": f"/api/tables/{seats.id}",
        "envs": "/api/envs",
        "games": "/api/games",
        "replay": "/api/games/1",
    }
    return "GET", paths[route], None, seat_headers


@SETTINGS
@given(route=st.sampled_from(ROUTES), valid=st.booleans(), body=json_values, query=queries)
@example(route="act", valid=True, body=None, query=[("log_from", "-1")])
@example(route="act", valid=True, body=None, query=[("log_from", "abc")])
def test_every_refusal_on_every_route_leaves_every_table_unchanged(live, route, valid, body, query):
    client, seats, db = live
    assert not seats.table().state.is_terminal()  # a Smuggle game outlasts the valid acts of 80 examples
    method, path, payload, headers = request_for(client, seats, route, valid, body)
    query = [(k, "0" if k == "wait" else v) for k, v in query]  # no long poll: about inputs, not waiting
    before = snapshot(client, db)
    content = None if payload is None and method == "GET" else json.dumps(payload).encode()
    headers = {**headers, "Content-Type": "application/json"} if content is not None else headers
    response = client.request(method, path, params=query, content=content, headers=headers)
    assert response.status_code < 500, response.text[:200]
    if response.status_code >= 400:
        message = response.json()["error"]
        assert isinstance(message, str) and "\n" not in message and len(message) <= 240
        assert snapshot(client, db) == before, f"a refused {route} changed a table"
    elif query:  # every parameter sent was one the route takes, with a good value
        assert all(k in app_module.LIVE_QUERY or k in ("step", "view") for k, _ in query)


# ----- quoting ------------------------------------------------------------------------------------------
def quoted_run(sent: str, text: str) -> str | None:
    """The first run of more than ``SHOWN`` characters of ``sent`` in ``text``, or None."""
    for i in range(len(text) - SHOWN):
        if text[i : i + SHOWN + 1] in sent:
            return text[i : i + SHOWN + 1]
    return None


letters = st.text(alphabet=string.ascii_letters, min_size=SHOWN + 1, max_size=240)
TABLE = {"env_id": "smuggle_v0", "seats": ["human", "rule", "rule"], "seed": 1, "bot_delay": 0}
SPECS = (
    "ismcts:rollout={}",
    "ismcts:sims={}",
    "ismcts:{}",
    "ismcts:{}=1",
    "pimc:worlds={}",
    "pimc:sims=1;sims={}",
    "ppo:{}",
    "zoo:{}",
    "{}",
    "llm:{}",
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=letters, digits=st.integers(SHOWN + 1, 300), where=st.integers(0, 13))
def test_no_refusal_quotes_more_than_shown_of_the_input(live, text, digits, where):
    client, seats, db = live
    mover, act = valid_act(seats)
    number = int("7" * digits)
    cases = [
        ("POST", "/api/tables", {**TABLE, "seats": ["human", SPECS[where % len(SPECS)].format(text), "rule"]}, text),
        ("POST", "/api/tables", {**TABLE, "config": {text: 1}}, text),
        ("POST", "/api/tables", {**TABLE, "config": {"bankruptcy": text}}, text),
        ("POST", "/api/tables", {**TABLE, "config": {text: text}}, text),
        ("POST", "/api/tables", {**TABLE, "env_id": text}, text),
        ("POST", "/api/tables", {**TABLE, text: 1}, text),
        ("POST", "/api/tables", {**TABLE, "seed": text}, text),
        ("POST", seats.path(mover, "act"), {**act, "action": number}, str(number)),
        ("POST", seats.path(mover, "act"), {**act, "action": text}, text),
        ("POST", seats.path(mover, "join"), {"name": text}, text),
        ("GET", f"/api/tables/{text}", None, text),
        ("GET", seats.path(mover, "view") + f"?log_from={text}", None, text),
        ("GET", seats.path(mover, "view") + f"?{text}=1", None, text),
        ("GET", f"/api/games/1?step={number}&view={text}", None, text),
    ]
    method, path, body, sent = cases[where]
    before = snapshot(client, db)
    content = None if body is None else json.dumps(body).encode()
    headers = {**seats.headers(mover), **({"Content-Type": "application/json"} if content else {})}
    response = client.request(method, path, content=content, headers=headers)
    assert 400 <= response.status_code < 500, (path[:80], response.text[:300])
    assert quoted_run(sent, response.text) is None, response.text
    assert quoted_run(sent, response.json()["error"]) is None
    assert snapshot(client, db) == before


def test_the_quoting_rule_cuts_an_engines_text_like_shown():
    sent = "ismcts:" + "q" * 70
    message = f"bad value {'q' * 70!r} for sims (expected int)"
    cut = errors.refusal(message, sent)["error"]
    assert quoted_run(sent, cut) is None and "q" * SHOWN in cut
    assert errors.scrub("short", "x" * 10) == "short"
    assert shown("q" * 70).startswith("'" + "q" * SHOWN)


# ----- the body itself: a client that goes, a body that stalls ------------------------------------------
def scope_for(path: str = "/api/tables") -> dict[str, Any]:
    headers = [(b"host", b"localhost"), (b"content-type", b"application/json"), (b"content-length", b"200")]
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }


def call(app: Any, receive: Any, timeout: float = 10.0) -> list[dict[str, Any]]:
    """Run one raw ASGI request; returns what the app sent."""
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def run() -> None:
        await asyncio.wait_for(app(scope_for(), receive, send), timeout)

    asyncio.run(run())
    return sent


def test_a_client_that_goes_mid_body_gets_no_answer_and_one_log_line(db_path, caplog):
    app = create_app(db_path)
    messages = iter([{"type": "http.request", "body": b'{"env_id": "smu', "more_body": True}])

    async def receive() -> dict[str, Any]:
        return next(messages, {"type": "http.disconnect"})

    with caplog.at_level(logging.DEBUG):
        sent = call(app, receive)
    assert sent == []
    records = [r for r in caplog.records if r.name.startswith(("smuggle", "starlette", "uvicorn"))]
    assert len(records) <= 1 and all(r.exc_info is None and "\n" not in r.getMessage() for r in records)
    assert app.state.registry.tables == {}


def test_a_body_that_stalls_is_a_408(db_path, monkeypatch):
    monkeypatch.setattr(app_module, "BODY_SECONDS", 0.3)
    app = create_app(db_path)
    messages = iter([{"type": "http.request", "body": b'{"env_id": ', "more_body": True}])
    never = asyncio.Event

    async def receive() -> dict[str, Any]:
        message = next(messages, None)
        if message is None:
            await never().wait()  # the rest of the body never comes
        return message or {}

    sent = call(app, receive, timeout=5.0)
    assert sent[0]["status"] == 408
    assert "did not arrive" in json.loads(sent[1]["body"])["error"]
    assert app.state.registry.tables == {}


def test_a_long_path_segment_is_quoted_short(live):
    client, _, _ = live
    response = client.get("/api/tables/" + quote("é" * 80))
    assert response.status_code == 404 and "é" * 20 not in response.json()["error"]
