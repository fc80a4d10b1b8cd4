"""Restarts: no finished game is lost, unfinished tables come back (or end, saying why), seat
links keep working; and a bot's thinking never holds up another table."""

from __future__ import annotations

import json
import random
import sqlite3
import threading

from starlette.testclient import TestClient

from training.web.app import create_app
from training.web.tables import default_agent_factory

from .conftest import BASE, Seats, make_table, play_random_humans, wait_for_humans


def reopen(client: TestClient, seats: Seats) -> Seats:
    return Seats(client, seats.id, seats.tokens)


def test_a_restart_restores_the_unfinished_table_and_its_seats(db_path):
    with TestClient(create_app(db_path), base_url=BASE) as client:
        seats = make_table(client, "smuggle_v0", ["human", "rule", "human", "random"], seed=21)
        seats.join(0, "Ann")
        seats.join(2, "Bob")
        play_random_humans(seats, random.Random(0), limit=4)
        view = wait_for_humans(seats)
        history = list(seats.table().state.history)
        assert view["revision"] == len(history) > 4
    with TestClient(create_app(db_path), base_url=BASE) as client:
        assert client.app.state.restored == [seats.id]
        seats = reopen(client, seats)
        assert seats.table().state.history == history  # replayed from the stored actions
        again = seats.view(0)
        assert again["players"][0]["label"] == "Ann" and again["players"][2]["label"] == "Bob"
        assert again["table_text"] == view["table_text"] and again["log"] == view["log"]
        assert seats.join(2, "someone")["name"] == "Bob"  # the old link still opens the seat
        play_random_humans(seats, random.Random(1), limit=5000)
        assert seats.table().status == "finished"
        game_id = seats.table().game_id
    with TestClient(create_app(db_path), base_url=BASE) as client:
        assert client.app.state.restored == []  # nothing unfinished
        seats = reopen(client, seats)
        final = seats.view(2)
        assert final["status"] == "over" and final["game_id"] == game_id
        assert seats.act(0, 0).status_code == 409
        games = client.get("/api/games").json()["games"]
        assert [g["id"] for g in games] == [game_id]
        assert client.get(f"/api/games/{game_id}").json()["steps"] == len(seats.table().state.history)


def test_a_table_that_cannot_be_rebuilt_is_clearly_ended(db_path):
    with TestClient(create_app(db_path), base_url=BASE) as client:
        seats = make_table(client, "ciq_v0", ["human", "rule"], seed=2)
        seats.join(0, "Ann")
    conn = sqlite3.connect(db_path)
    stored = json.loads(conn.execute("SELECT seats FROM web_tables WHERE id = ?", (seats.id,)).fetchone()[0])
    stored[1]["spec"] = "ppo:mine"  # a model the operator no longer offers (--models)
    conn.execute("UPDATE web_tables SET seats = ? WHERE id = ?", (json.dumps(stored), seats.id))
    conn.commit()
    conn.close()
    with TestClient(create_app(db_path), base_url=BASE) as client:
        seats = reopen(client, seats)
        view = seats.view(0)
        assert view["table_status"] == "ended"
        assert "could not be restored" in view["note"] and "model this server offers" in view["note"]
        response = seats.act(0, 0)
        assert response.status_code == 409 and "over" in response.json()["error"]
        listed = client.get("/api/tables").json()["tables"]
        assert listed[0]["status"] == "ended"


class SlowAgent:
    """Thinks until the test lets it go (or 20 s), then plays its first legal action."""

    def __init__(self) -> None:
        self.thinking = threading.Event()
        self.release = threading.Event()

    def act(self, observation, mask):
        self.thinking.set()
        self.release.wait(20)
        return int(mask.nonzero()[0][0])


def test_a_bot_thinking_does_not_hold_up_other_tables(db_path):
    slow = SlowAgent()

    def factory(spec, game, seed):
        if spec == "slow":
            return slow, "slow"
        return default_agent_factory(spec, game, seed)

    with TestClient(create_app(db_path, agent_factory=factory), base_url=BASE) as client:
        thinking = make_table(client, "ciq_v0", ["slow", "human"], seed=1)  # the slow bot moves first
        assert slow.thinking.wait(10)
        other = make_table(client, "smuggle_v0", ["human", "rule", "rule"], seed=3)
        other.join(0, "Ann")
        view = wait_for_humans(other)  # served, and its bots moved, while the slow bot thinks
        assert view["to_move"] == 0 and view["revision"] > 0
        assert not slow.release.is_set() and thinking.table().state.history == []
        slow.release.set()
        thinking.join(1, "Bob")
        assert wait_for_humans(thinking)["revision"] >= 1  # its move lands once it is done


def test_a_database_of_an_earlier_version_gets_the_creator_column(db_path):
    with TestClient(create_app(db_path), base_url=BASE) as client:
        seats = make_table(client, "smuggle_v0", ["human", "rule", "rule"], seed=4)
    conn = sqlite3.connect(db_path)
    conn.execute("ALTER TABLE web_tables DROP COLUMN creator")  # as the previous version wrote it
    conn.commit()
    conn.close()
    with TestClient(create_app(db_path), base_url=BASE) as client:
        assert client.app.state.restored == [seats.id]
        assert seats.id in {t["id"] for t in client.get("/api/tables").json()["tables"]}
        assert make_table(client, "smuggle_v0", ["human", "rule", "rule"]).id  # stored with its creator
    conn = sqlite3.connect(db_path)
    columns = {row[1] for row in conn.execute("PRAGMA table_info(web_tables)")}
    creators = dict(conn.execute("SELECT id, creator FROM web_tables").fetchall())
    conn.close()
    assert "creator" in columns and creators[seats.id] == "" and len(set(creators.values())) == 2
