"""Fixtures of the browser app's tests: an app over a fresh database, and a table helper."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from training.web.app import create_app

BASE = "http://localhost"  # a Host name the app answers to by default (``guard.LOCAL_NAMES``)


@dataclass
class Seats:
    """A table made through the API: its id and each human seat's token."""

    client: TestClient
    id: str
    tokens: dict[int, str]
    owner: str = ""  # the owner token (closes the table)

    def headers(self, seat: int) -> dict[str, str]:
        return {"X-Seat-Token": self.tokens[seat]}

    def path(self, seat: int, what: str) -> str:
        return f"/api/tables/{self.id}/seats/{seat}/{what}"

    def join(self, seat: int, name: str) -> dict[str, Any]:
        response = self.client.post(self.path(seat, "join"), json={"name": name}, headers=self.headers(seat))
        assert response.status_code == 200, response.text
        return response.json()

    def view(self, seat: int) -> dict[str, Any]:
        response = self.client.get(self.path(seat, "view"), headers=self.headers(seat))
        assert response.status_code == 200, response.text
        return response.json()

    def act(self, seat: int, action: Any, **extra: Any):
        """Post an act; its ``revision`` is the table's live one unless given."""
        body = {"action": action, "revision": self.table().revision, **extra}
        return self.client.post(self.path(seat, "act"), json=body, headers=self.headers(seat))

    def table(self):
        return self.client.app.state.registry.get(self.id)


def make_table(client: TestClient, env_id: str, seats: list[str], seed: int = 7, **extra: Any) -> Seats:
    response = client.post(
        "/api/tables", json={"env_id": env_id, "seats": seats, "seed": seed, "bot_delay": 0, **extra}
    )
    assert response.status_code == 201, response.text
    data = response.json()
    return Seats(
        client, data["id"], {s["seat"]: s["token"] for s in data["seats"] if "token" in s}, data["owner_token"]
    )


def wait_for_humans(seats: Seats, timeout: float = 30.0) -> dict[str, Any]:
    """Long-poll until a human seat is to move or the table stops; returns a human seat's view."""
    import time

    seat = min(seats.tokens)
    view = seats.view(seat)
    deadline = time.monotonic() + timeout
    while view["table_status"] == "playing" and view["to_move"] not in seats.tokens:
        assert time.monotonic() < deadline, f"the bots did not move within {timeout} s"
        response = seats.client.get(
            seats.path(seat, "view") + f"?after={view['version']}&wait=2", headers=seats.headers(seat)
        )
        assert response.status_code == 200, response.text
        view = response.json()
    return view


def play_random_humans(
    seats: Seats, rng: random.Random, limit: int, every: Callable[[dict], None] | None = None
) -> int:
    """Play the human seats with random legal actions through the API (waiting for the bots)
    until the game is over or ``limit`` human decisions were taken; returns how many."""
    taken = 0
    while taken < limit:
        view = wait_for_humans(seats)
        if view["table_status"] != "playing":
            break
        mover = view["to_move"]
        view = seats.view(mover)
        if every is not None:
            every(view)
        action = rng.choice(view["decision"]["legal"])
        response = seats.act(mover, action, revision=view["revision"])
        assert response.status_code == 200, response.text
        taken += 1
    return taken


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite"


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db_path), base_url=BASE) as c:
        yield c
