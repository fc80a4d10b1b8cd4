"""Moves happen exactly once, on the position the person saw: an act names its revision (the
position), a repeat is answered and never played again, a page load elsewhere does not make a
view stale, revisions survive a restart, and a decision is stored with its action or not at all."""

from __future__ import annotations

import json
import random
import threading
import time
import urllib.error
import urllib.request

from starlette.testclient import TestClient

from smuggle_envs import make_game
from training.web.app import create_app
from training.web.browser import ThreadServer
from training.web.store import human_decisions

from .conftest import BASE, Seats, make_table, play_random_humans, wait_for_humans


def test_a_page_load_or_join_elsewhere_does_not_make_a_view_stale(client):
    seats = make_table(client, "smuggle_v0", ["rule", "human", "human"], seed=3)
    seats.join(1, "Ann")
    view = wait_for_humans(seats)
    assert view["to_move"] == 1
    for _ in range(3):  # another seat re-joins in a loop, loads its page
        seats.join(2, "Bob")
        seats.view(2)
    assert seats.view(1)["revision"] == view["revision"] and seats.view(1)["version"] > view["version"]
    action = view["decision"]["legal"][0]
    response = seats.act(1, action, revision=view["revision"])
    assert response.status_code == 200 and response.json()["repeated"] is False


def test_revisions_are_positions_and_survive_a_restart(db_path):
    with TestClient(create_app(db_path), base_url=BASE) as client:
        seats = make_table(client, "smuggle_v0", ["human", "rule", "rule"], seed=4)
        seats.join(0, "Ann")
        play_random_humans(seats, random.Random(2), limit=2)
        old = wait_for_humans(seats)  # a page left open at this position
        assert old["revision"] == len(seats.table().state.history)
        play_random_humans(seats, random.Random(3), limit=2)  # the game moves on
        later = wait_for_humans(seats)
    with TestClient(create_app(db_path), base_url=BASE) as client:
        seats = Seats(client, seats.id, seats.tokens)
        again = seats.view(0)
        assert again["revision"] == later["revision"] > old["revision"]  # not restarted at 0
        stale = [a for a in old["decision"]["legal"] if a != seats.table().state.history[old["revision"]]]
        response = seats.act(0, stale[0], revision=old["revision"])
        assert response.status_code == 409 and "has changed" in response.json()["error"]
        assert seats.view(0)["revision"] == later["revision"]


class FailingConnection:
    """The store's connection, failing the table update of a move (a crash at that moment)."""

    def __init__(self, conn):
        self.conn = conn

    def execute(self, sql, *args):
        if sql.startswith("UPDATE web_tables SET actions") and "COALESCE" in sql:
            raise OSError("disk I/O error (simulated)")
        return self.conn.execute(sql, *args)


def test_a_decision_is_stored_with_its_action_or_not_at_all(db_path):
    with TestClient(create_app(db_path), base_url=BASE) as client:
        seats = make_table(client, "smuggle_v0", ["human", "rule", "rule"], seed=5)
        seats.join(0, "Ann")
        view = wait_for_humans(seats)
        store = client.app.state.store
        real = store.conn
        store.conn = FailingConnection(real)
        action = view["decision"]["legal"][0]
        try:
            response = seats.act(0, action, revision=view["revision"])
        finally:
            store.conn = real
        assert response.status_code == 503 and "not played" in response.json()["error"]
        assert len(seats.table().state.history) == view["revision"]  # nothing changed in memory
        assert list(human_decisions(db_path)) == []  # nor in the database
        assert client.app.state.store.table(seats.id)["actions"] == seats.table().state.history
        retry = seats.act(0, action, revision=view["revision"])
        assert retry.status_code == 200 and retry.json()["repeated"] is False
        rows = list(human_decisions(db_path))
        assert [(r["decision"], r["action"]) for r in rows] == [(view["revision"], action)]


def test_export_human_equals_the_games_replay(client, db_path, tmp_path):
    seats = make_table(client, "illegal_v0", ["human", "rule", "human"], seed=6)
    seats.join(0, "Ann")
    seats.join(2, "Bob")
    play_random_humans(seats, random.Random(4), limit=5000)
    table = seats.table()
    assert table.status == "finished"
    actions = client.get(f"/api/games/{table.game_id}").json()
    stored = client.app.state.store.game(table.game_id)["actions"]
    assert actions["steps"] == len(stored) == len(table.state.history)
    rows = list(human_decisions(db_path))
    assert len(rows) > 5
    game = make_game("illegal_v0", num_players=3)
    state = game.new_initial_state(table.seed)
    humans = []
    for n, action in enumerate(stored):
        if state.current_player() in (0, 2):
            humans.append((n, state.current_player(), action))
        state.apply_action(action)
    assert [(r["decision"], r["seat"], r["action"]) for r in rows] == humans
    assert all(r["history"] == stored[: r["decision"]] and r["game_id"] == table.game_id for r in rows)


def _post(url: str, body: dict, token: str) -> tuple[int, dict]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json", "X-Seat-Token": token}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def test_two_clicks_sent_at_once_over_http_are_played_once(tmp_path):
    with ThreadServer(tmp_path / "games.sqlite") as server:
        table = server.table(["human", "rule", "rule"], "smuggle_v0", seed=8)
        seat = table["seats"][0]
        path = f"{server.url}/api/tables/{table['id']}/seats/0/"
        _post(path + "join", {"name": "Ann"}, seat["token"])
        live = server.app.state.registry.get(table["id"])
        deadline = time.monotonic() + 30
        while live.state.current_player() != 0 or live.status != "playing":
            assert time.monotonic() < deadline
            time.sleep(0.02)
        view = server.get(f"/api/tables/{table['id']}/seats/0/view", seat["token"])
        body = {"action": view["decision"]["legal"][0], "revision": view["revision"]}
        answers: list[tuple[int, dict]] = []
        clicks = [threading.Thread(target=lambda: answers.append(_post(path + "act", body, seat["token"])))]
        clicks.append(threading.Thread(target=lambda: answers.append(_post(path + "act", body, seat["token"]))))
        clicks[0].start()
        time.sleep(0.02)  # 20 ms apart, as a double click
        clicks[1].start()
        for click in clicks:
            click.join(30)
        assert sorted(status for status, _ in answers) == [200, 200]
        assert sorted(answer["repeated"] for _, answer in answers) == [False, True]
        assert live.state.history[view["revision"]] == body["action"]
        assert len(list(human_decisions(tmp_path / "games.sqlite"))) == 1
