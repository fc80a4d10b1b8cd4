"""Arbitrary JSON shapes, sizes and numbers at every route (hypothesis): every answer is a 2xx or a
short 4xx in the API's JSON shape, never a 5xx, and no table changes unless the request was a
valid act (or a valid join, create or close, which change exactly what they say)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from training.web.app import create_app

from .conftest import BASE, Seats, make_table

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=30)
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
segments = st.text(max_size=25).map(lambda text: quote(text, safe="")) | st.integers(
    min_value=-(2**70), max_value=2**70
).map(str)  # any text, percent-encoded as a client would put it in a path
KEYS = ("env_id", "seats", "seed", "config", "bot_delay", "action", "revision", "name")


@pytest.fixture(scope="module")
def app_client(tmp_path_factory) -> Iterator[tuple[TestClient, Seats]]:
    """An app with one all-human Smuggle table (nothing moves by itself), every seat joined."""
    db = tmp_path_factory.mktemp("fuzz") / "games.sqlite"
    with TestClient(create_app(db), base_url=BASE) as client:
        seats = make_table(client, "smuggle_v0", ["human", "human", "human"], seed=9)
        for seat in seats.tokens:
            seats.join(seat, f"P{seat}")
        yield client, seats


def snapshot(client: TestClient) -> dict[str, Any]:
    tables = client.app.state.registry.tables
    return {tid: (list(t.state.history), json.dumps(t.seats, sort_keys=True), t.status) for tid, t in tables.items()}


def check(response, before: dict[str, Any], after: dict[str, Any], allowed: str | None) -> None:
    """No 5xx; a refusal is short JSON; only an ``allowed`` kind of change happened."""
    assert response.status_code < 500, response.text[:200]
    event(f"{allowed or 'read'}: {response.status_code}")
    if response.status_code >= 400:
        message = response.json()["error"]
        assert isinstance(message, str) and len(message) <= 240 and "\n" not in message
        assert after == before, "a refused request changed a table"
        return
    if allowed is None:
        assert after == before
    elif allowed == "create":
        assert {k: v for k, v in after.items() if k in before} == before and len(after) == len(before) + 1
    else:
        changed = [k for k in before if after[k] != before[k]]
        assert set(after) == set(before) and len(changed) <= 1
        if allowed == "act" and changed:
            old, new = before[changed[0]], after[changed[0]]
            assert new[0][:-1] == old[0] and len(new[0]) == len(old[0]) + 1  # exactly one move


def send(client: TestClient, method: str, url: str, body: Any, headers: dict[str, str] | None = None):
    """``body`` as JSON text as a hostile client may write it (NaN and Infinity included)."""
    headers = {"Content-Type": "application/json", **(headers or {})}
    return client.request(method, url, content=json.dumps(body).encode(), headers=headers)


def bodies(*keys: str):
    near = st.fixed_dictionaries({}, optional={k: json_values for k in keys})
    return json_values | near


tables = st.fixed_dictionaries(
    {
        "env_id": st.sampled_from(["smuggle_v0", "ciq_v0", "illegal_v0", "humble_smuggle_v0", "import_export_v0"]),
        "seats": st.lists(
            st.sampled_from(["human", "rule", "random", "zoo", "ismcts:sims=2", "x"]), min_size=2, max_size=7
        ),
    },
    optional={
        "seed": st.integers(-5, 2**64),
        "bot_delay": st.floats(-1, 12) | st.integers(-1, 12),
        "config": st.dictionaries(st.sampled_from(["rounds", "max_turns", "variant", "x"]), scalars, max_size=2),
    },
)  # near-valid table requests, so that some are made


@SETTINGS
@given(body=bodies(*KEYS) | tables)
def test_creating_tables(app_client, body):
    client, _ = app_client
    before = snapshot(client)
    response = send(client, "POST", "/api/tables", body)
    check(response, before, snapshot(client), "create")
    if response.status_code == 201:  # close it again: the table count stays small
        made = response.json()
        client.post(f"/api/tables/{made['id']}/close", json={}, headers={"X-Owner-Token": made["owner_token"]})


acts = st.fixed_dictionaries(
    {"action": st.integers(-3, 520) | st.just("legal"), "revision": st.integers(-2, 40) | st.just("live")}
)  # "legal", "live" and the seat "mover" stand for the live table's: so that some acts are valid
joins = st.fixed_dictionaries({"name": st.text(max_size=40)})


@SETTINGS
@given(
    body=st.one_of(acts, acts, joins, bodies("action", "revision", "name")),
    seat=st.sampled_from(["mover", "mover", 0, 1, 2]),
)
def test_acting_and_joining_at_the_live_table(app_client, body, seat):
    route = "join" if isinstance(body, dict) and "name" in body else "act"
    client, seats = app_client
    state = seats.table().state
    seat = state.current_player() if seat == "mover" else seat
    if isinstance(body, dict) and body.get("revision") == "live":
        body = {**body, "revision": len(state.history)}
    if isinstance(body, dict) and body.get("action") == "legal":
        body = {**body, "action": state.legal_actions()[-1]}
    before = snapshot(client)
    response = send(client, "POST", seats.path(seat, route), body, seats.headers(seat))
    if response.status_code == 200 and route == "act" and response.json()["repeated"]:
        route = "none"  # a repeat: answered, nothing played
    check(response, before, snapshot(client), {"act": "act", "join": "join"}.get(route))


@SETTINGS
@given(body=json_values, seat=segments, table=segments, route=st.sampled_from(["act", "join", "view"]))
def test_acting_anywhere_else(app_client, body, seat, table, route):
    client, seats = app_client
    before = snapshot(client)
    headers = {"X-Seat-Token": seats.tokens[0]}
    response = send(client, "POST", f"/api/tables/{table}/seats/{seat}/{route}", body, headers)
    check(response, before, snapshot(client), None)


@SETTINGS
@given(
    path=st.sampled_from(
        [
            "/api/tables/{t}",
            "/api/tables/{t}/watch",
            "/api/tables/{t}/seats/{s}/view",
            "/api/games/{s}",
            "/api/rules/{t}",
            "/replay/{s}",
            "/play/{t}/{s}",
            "/static/{t}",
            "/{t}",
            "/api/{t}",
        ]
    ),
    t=segments,
    s=segments,
    query=st.dictionaries(st.sampled_from(["after", "wait", "step", "view"]), segments, max_size=3),
)
def test_reading_any_route(app_client, path, t, s, query):
    client, seats = app_client
    if query.get("wait") not in (None, "0"):
        query["wait"] = "0"  # no long poll: the property is about inputs, not waiting
    before = snapshot(client)
    target = path.format(t=t or "x", s=s or "0")
    response = client.get(target, params=query, headers={"X-Seat-Token": seats.tokens[0]})
    check(response, before, snapshot(client), None)


@SETTINGS
@given(body=json_values, method=st.sampled_from(["POST", "PUT", "DELETE", "PATCH"]), path=segments)
def test_writing_to_any_route(app_client, body, method, path):
    client, _ = app_client
    before = snapshot(client)
    response = send(client, method, f"/api/{path}", body)
    check(response, before, snapshot(client), None)
