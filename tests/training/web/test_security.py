"""Seat tokens and bad actions: every refused request gets a 4xx with a one-line reason, and
nothing changes (the engine state, the table's revision and seats, the database)."""

from __future__ import annotations

import json
import random
import sqlite3

import pytest

from .conftest import make_table, play_random_humans, wait_for_humans

LIVE = object()  # stands for the table's live revision in a parametrized body


def snapshot(seats, db_path):
    """Everything a refused request must leave alone."""
    table = seats.table()
    conn = sqlite3.connect(db_path)
    try:
        stored = conn.execute("SELECT actions, seats, status FROM web_tables WHERE id = ?", (seats.id,)).fetchone()
        decisions = conn.execute("SELECT COUNT(*) FROM human_decisions").fetchone()[0]
    finally:
        conn.close()
    return (
        list(table.state.history),
        table.revision,
        json.dumps(table.seats, sort_keys=True),
        table.status,
        stored,
        decisions,
    )


@pytest.fixture
def ready(client, db_path):
    """A Smuggle table with people in seats 1 and 2, seat 1 to move (a declaration)."""
    seats = make_table(client, "smuggle_v0", ["rule", "human", "human"], seed=3)
    seats.join(1, "Ann")
    seats.join(2, "Bob")
    view = wait_for_humans(seats)
    assert view["to_move"] == 1
    return seats


def refused(seats, db_path, response, status, words):
    assert response.status_code == status, response.text
    message = response.json()["error"]
    assert words in message and "\n" not in message
    return message


@pytest.mark.parametrize(
    ("headers", "status", "words"),
    [
        ({}, 401, "needs its token"),
        ({"X-Seat-Token": "guess"}, 403, "wrong token"),
        ({"Authorization": "Bearer guess"}, 403, "wrong token"),
        ({"X-Seat-Token": ""}, 401, "needs its token"),
    ],
)
def test_a_seat_without_its_token_sees_and_does_nothing(ready, db_path, headers, status, words):
    before = snapshot(ready, db_path)
    client = ready.client
    for response in (
        client.get(ready.path(1, "view"), headers=headers),
        client.post(ready.path(1, "act"), json={"action": 0}, headers=headers),
        client.post(ready.path(1, "join"), json={"name": "Mallory"}, headers=headers),
    ):
        refused(ready, db_path, response, status, words)
    assert snapshot(ready, db_path) == before


def test_another_seats_token_does_not_open_this_seat(ready, db_path):
    before = snapshot(ready, db_path)
    response = ready.client.post(ready.path(1, "act"), json={"action": 0}, headers=ready.headers(2))
    refused(ready, db_path, response, 403, "wrong token for seat 1")
    response = ready.client.get(ready.path(1, "view"), headers=ready.headers(2))
    refused(ready, db_path, response, 403, "wrong token")
    assert snapshot(ready, db_path) == before


def test_the_bearer_header_works_like_the_seat_header(ready):
    response = ready.client.get(ready.path(1, "view"), headers={"Authorization": f"Bearer {ready.tokens[1]}"})
    assert response.status_code == 200 and response.json()["viewer"] == 1


def test_agent_seats_unknown_seats_and_tables_are_refused(ready, db_path):
    before = snapshot(ready, db_path)
    client = ready.client
    refused(ready, db_path, client.get(ready.path(0, "view"), headers=ready.headers(1)), 403, "played by an agent")
    refused(ready, db_path, client.get(ready.path(7, "view"), headers=ready.headers(1)), 404, "no seat 7")
    response = client.get("/api/tables/nope/seats/1/view", headers=ready.headers(1))
    refused(ready, db_path, response, 404, "no table")
    assert client.get(f"/api/tables/{ready.id}/seats/-1/view", headers=ready.headers(1)).status_code == 404
    assert snapshot(ready, db_path) == before


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"revision": LIVE, "action": 496}, 422, "not legal"),  # search: masked while declaring
        ({"revision": LIVE, "action": 510}, 422, "out of range"),
        ({"revision": LIVE, "action": -1}, 422, "out of range"),
        ({"revision": LIVE, "action": "0"}, 422, "must be an int"),
        ({"revision": LIVE, "action": 0.0}, 422, "must be an int"),
        ({"revision": LIVE, "action": True}, 422, "must be an int"),
        ({"revision": LIVE, "action": None}, 422, "must be an int"),
        ({"revision": LIVE, "action": [0]}, 422, "must be an int"),
        ({"revision": LIVE}, 422, "missing 'action'"),
        ({"action": 0}, 422, "missing 'revision'"),
        ({"action": 0, "revision": 5}, 409, "has changed"),  # a position not reached
        ({"action": 0, "revision": -1}, 409, "has changed"),
        ({"action": 0, "revision": "x"}, 422, "'revision' must be an integer"),
        ([0], 400, "JSON object"),
    ],
)
def test_a_malformed_or_masked_action_is_refused_and_changes_nothing(ready, db_path, body, status, words):
    if isinstance(body, dict) and body.get("revision") is LIVE:
        body = {**body, "revision": ready.table().revision}  # the position the person sees
    before = snapshot(ready, db_path)
    refused(ready, db_path, ready.client.post(ready.path(1, "act"), json=body, headers=ready.headers(1)), status, words)
    assert snapshot(ready, db_path) == before


def test_a_body_that_is_not_json_is_refused(ready, db_path):
    before = snapshot(ready, db_path)
    response = ready.client.post(
        ready.path(1, "act"), content=b"{action: 0", headers={**ready.headers(1), "Content-Type": "application/json"}
    )
    refused(ready, db_path, response, 400, "not valid JSON")
    assert snapshot(ready, db_path) == before


def test_out_of_turn_is_refused_and_changes_nothing(ready, db_path):
    before = snapshot(ready, db_path)
    response = ready.act(2, 0)
    message = refused(ready, db_path, response, 409, "not your turn")
    assert "seat 1 (Ann)" in message
    assert snapshot(ready, db_path) == before


def test_a_seat_must_be_joined_before_it_plays(client, db_path):
    seats = make_table(client, "smuggle_v0", ["rule", "human", "rule"], seed=3)
    wait_for_humans(seats)
    before = snapshot(seats, db_path)
    refused(seats, db_path, seats.act(1, 0), 409, "display name")
    for name in ("", "   ", "x" * 33, 5, None, "tab\x07bell"):
        response = client.post(seats.path(1, "join"), json={"name": name}, headers=seats.headers(1))
        refused(seats, db_path, response, 422, "name")
    assert snapshot(seats, db_path) == before


def test_after_the_end_every_action_is_refused(client, db_path):
    seats = make_table(client, "smuggle_v0", ["human", "random", "random"], seed=5)
    seats.join(0, "Ann")
    play_random_humans(seats, random.Random(1), limit=5000)
    table = seats.table()
    assert table.status == "finished"
    before = snapshot(seats, db_path)
    for action in (0, 496, 497, 500):
        refused(seats, db_path, seats.act(0, action), 409, "the game is over")
    assert snapshot(seats, db_path) == before


def test_a_repeated_click_is_answered_once_and_a_stale_one_refused(ready, db_path):
    view = ready.view(1)
    first, second = view["decision"]["legal"][:2]
    answer = ready.act(1, first, revision=view["revision"])
    assert answer.status_code == 200 and answer.json()["repeated"] is False
    before = snapshot(ready, db_path)
    again = ready.act(1, first, revision=view["revision"])  # a double click, a retried request
    assert again.status_code == 200 and again.json()["repeated"] is True
    assert snapshot(ready, db_path) == before  # answered, not played again
    assert before[5] == 1  # one human decision stored
    other = ready.act(1, second, revision=view["revision"])  # another answer to the old position
    refused(ready, db_path, other, 409, "has changed")
    assert snapshot(ready, db_path) == before
