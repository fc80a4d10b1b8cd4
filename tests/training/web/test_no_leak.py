"""The server shows a seat nothing it has not seen: the engine's own no-leak check, through the API.

At positions of random games of every env, for every seat: take the seat's API response, swap
the table's state for ``state.resample(seat, rng)`` (every card the seat cannot see redrawn from
its information set, as ``tests/core/families/_visibility.py`` does for the engine), take the
response again, and require it to be identical, byte for byte (only the server's clock may
differ). The seat to move is included, so its options and their texts are checked too.
"""

from __future__ import annotations

import random

import pytest

from smuggle_envs import ENV_IDS, make_game

from .conftest import make_table

POSITIONS = 8  # checked positions per game
RESAMPLES = 2  # redrawn worlds per seat and position


def _comparable(response) -> dict:
    assert response.status_code == 200, response.text
    view = response.json()
    view.pop("server_time")
    return view


def check_seat_responses(seats, rng: random.Random) -> int:
    table = seats.table()
    truth = table.state
    checked = 0
    try:
        for seat in range(table.num_players):
            path, headers = seats.path(seat, "view"), seats.headers(seat)
            seen = _comparable(seats.client.get(path, headers=headers))
            for _ in range(RESAMPLES):
                table.state = truth.resample(seat, rng)
                other = _comparable(seats.client.get(path, headers=headers))
                table.state = truth
                assert other == seen, f"seat {seat}'s response changed when unseen cards were redrawn"
                checked += 1
    finally:
        table.state = truth
    return checked


def _world_differs(seats, rng: random.Random) -> bool:
    """The check has teeth: some redrawn world differs from the truth where the seats cannot see."""
    truth = seats.table().state
    return any(truth.resample(s, rng).render() != truth.render() for s in range(truth.game.num_players))


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_a_seats_responses_do_not_change_when_its_unseen_cards_are_redrawn(client, env_id):
    n = make_game(env_id).num_players
    seats = make_table(client, env_id, ["human"] * n, seed=2)
    for seat in range(n):
        seats.join(seat, f"P{seat}")
    rng = random.Random(env_id)
    table = seats.table()
    checked = differs = 0
    step = 0
    while table.status == "playing" and checked < POSITIONS * n * RESAMPLES:
        if step % 9 == 0:
            checked += check_seat_responses(seats, rng)
            differs += _world_differs(seats, rng)
        mover = table.state.current_player()
        action = rng.choice(table.state.legal_actions())
        assert seats.act(mover, action).status_code == 200
        step += 1
    assert checked == POSITIONS * n * RESAMPLES
    assert differs > 0  # hidden cards were really redrawn at some checked position


def test_a_finished_game_leaks_nothing_either(client):
    seats = make_table(client, "smuggle_v0", ["human"] * 3, seed=4)
    for seat in range(3):
        seats.join(seat, f"P{seat}")
    table = seats.table()
    rng = random.Random(0)
    while table.status == "playing":
        assert seats.act(table.state.current_player(), rng.choice(table.state.legal_actions())).status_code == 200
    assert check_seat_responses(seats, rng) == 3 * RESAMPLES


def test_a_seats_replay_matches_what_it_was_shown_live(client):
    """The replay viewer from a seat shows what that seat saw at the time, no more."""
    seats = make_table(client, "illegal_v0", ["human"] * 3, seed=9)
    for seat in range(3):
        seats.join(seat, f"P{seat}")
    table = seats.table()
    rng = random.Random(3)
    live: dict[tuple[int, int], dict] = {}
    while table.status == "playing":
        version = len(table.state.history)
        if version % 25 == 0:
            for seat in range(3):
                live[version, seat] = seats.view(seat)
        assert seats.act(table.state.current_player(), rng.choice(table.state.legal_actions())).status_code == 200
    assert live
    for (version, seat), view in live.items():
        replay = client.get(f"/api/games/{table.game_id}?step={version}&view={seat}").json()
        for key in ("table_text", "zones", "log", "to_move"):
            assert replay[key] == view[key], (version, seat, key)
        scores = lambda v: [(p["score"], p["to_move"]) for p in v["players"]]
        assert scores(replay) == scores(view)


def test_the_check_catches_a_view_that_leaks(client, monkeypatch):
    """A view that put the full table text in a seat's response would be caught."""
    import training.web.tables as tables

    honest = tables.seat_view

    def leaky(state, seat, labels, log, **options):
        view = honest(state, seat, labels, log, **options)
        view["table_text"] = state.render()  # the full view: every hand
        return view

    monkeypatch.setattr(tables, "seat_view", leaky)
    seats = make_table(client, "smuggle_v0", ["human"] * 3, seed=2)
    for seat in range(3):
        seats.join(seat, f"P{seat}")
    table = seats.table()
    rng = random.Random(1)
    for _ in range(3):  # past the first declaration: a live hand exists
        assert seats.act(table.state.current_player(), rng.choice(table.state.legal_actions())).status_code == 200
    with pytest.raises(AssertionError, match="changed when unseen cards were redrawn"):
        check_seat_responses(seats, random.Random(0))


def test_the_server_never_asks_for_the_privileged_observation(client, monkeypatch):
    """``global_observation`` is for training critics only: no response is built from it."""
    from smuggle_envs.core.game import State

    def trap(self, player):
        raise AssertionError("the server called global_observation")

    monkeypatch.setattr(State, "global_observation", trap)
    seats = make_table(client, "import_export_v0", ["human", "human", "human"], seed=6)
    for seat in range(3):
        seats.join(seat, f"P{seat}")
    table = seats.table()
    rng = random.Random(2)
    for _ in range(60):
        mover = table.state.current_player()
        seats.view((mover + 1) % 3)
        assert seats.act(mover, rng.choice(seats.view(mover)["decision"]["legal"])).status_code == 200
    assert client.get(f"/api/tables/{seats.id}/seats/0/view", headers=seats.headers(0)).status_code == 200
