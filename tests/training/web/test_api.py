"""The browser app's JSON API (Starlette's TestClient): tables, seats, views, bots, rules, replays."""

from __future__ import annotations

import random

import pytest

from smuggle_envs import ENV_IDS, make_game

from .conftest import make_table, play_random_humans, wait_for_humans


def test_envs_lists_every_game_with_its_player_range(client):
    data = client.get("/api/envs").json()
    assert [e["env_id"] for e in data["envs"]] == list(ENV_IDS)
    for entry in data["envs"]:
        game = make_game(entry["env_id"])
        assert entry["min_players"] == game.min_players and entry["max_players"] == game.max_players
    assert {"rule", "random", "ppo", "ismcts"} <= set(data["agent_kinds"])


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_rules_panel_is_derived_from_the_rules_page_and_the_data(client, env_id):
    data = client.get(f"/api/rules/{env_id}").json()
    assert len(data["rules"]) >= 10 and all(r["text"] for r in data["rules"])
    assert data["tables"] and all(t["rows"] for t in data["tables"])


def test_rules_panel_has_smuggles_duty_table_and_every_import_export_power(client):
    smuggle = client.get("/api/rules/smuggle_v0").json()
    duty = next(t for t in smuggle["tables"] if t["title"].startswith("Duty"))
    game = make_game("smuggle_v0")
    crown = next(row for row in duty["rows"] if row[0] == "crown")
    assert crown[2:] == [f"£{game.data.duties[7]}", f"£{game.data.fines[7]}"]
    ie = client.get("/api/rules/import_export_v0").json()
    cards = ie["tables"][0]
    assert len(cards["rows"]) == 128
    powers = [row[cards["columns"].index("power")] for row in cards["rows"]]
    assert powers == [c.power for c in make_game("import_export_v0").data.cards]
    assert client.get("/api/rules/chess_v0").status_code == 404


def test_a_table_gives_each_human_seat_a_link_with_its_own_token(client):
    response = client.post(
        "/api/tables", json={"env_id": "smuggle_v0", "seats": ["human", "rule", "human"], "seed": 1, "bot_delay": 0}
    )
    assert response.status_code == 201
    data = response.json()
    humans = [s for s in data["seats"] if s["kind"] == "human"]
    assert [s["seat"] for s in humans] == [0, 2]
    assert humans[0]["token"] != humans[1]["token"] and len(humans[0]["token"]) >= 32
    assert humans[0]["link"] == f"/play/{data['id']}/0#token={humans[0]['token']}"
    assert "token" not in data["seats"][1]
    listed = client.get("/api/tables").json()["tables"]
    assert listed[0]["id"] == data["id"] and "token" not in str(listed)


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"env_id": "chess_v0", "seats": ["human", "rule", "rule"]}, 422, "unknown game"),
        ({"env_id": "smuggle_v0", "seats": ["human", "rule"]}, 422, "smuggle_v0"),  # 2 < 3 players
        ({"env_id": "smuggle_v0", "seats": ["human", "nonsense", "rule"]}, 422, "seat 1: not an agent"),
        ({"env_id": "smuggle_v0", "seats": ["human", "ppo:/no/such/model.zip", "rule"]}, 422, "name of a model"),
        ({"env_id": "smuggle_v0", "seats": ["human", "ismcts:sims=x", "rule"]}, 422, "sims"),
        ({"env_id": "smuggle_v0", "seats": "human,rule,rule"}, 422, "seats"),
        ({"env_id": "smuggle_v0", "seats": ["human", "rule", "rule"], "seed": -1}, 422, "seed"),
        ({"env_id": "smuggle_v0", "seats": ["human", "rule", "rule"], "seed": "+7"}, 422, "seed"),
        ({"env_id": "smuggle_v0", "seats": ["human", "rule", "rule"], "seed": "7.0"}, 422, "seed"),
        ({"env_id": "smuggle_v0", "seats": ["human", "rule", "rule"], "seed": "9223372036854775808"}, 422, "seed"),
        ({"env_id": "smuggle_v0", "seats": ["human", "rule", "rule"], "seed": ""}, 422, "seed"),
        ({"env_id": "smuggle_v0", "seats": ["human", "rule", "rule"], "bot_delay": 99}, 422, "bot_delay"),
        ({"env_id": "smuggle_v0", "seats": ["human", "rule", "rule"], "colour": "red"}, 422, "unknown field"),
        ({"env_id": "smuggle_v0", "seats": ["human", "rule", "rule"], "config": {"bankruptcy": "x"}}, 422, "bankrupt"),
        (["smuggle_v0"], 400, "JSON object"),
    ],
)
def test_a_bad_table_request_is_refused_with_a_reason_and_makes_nothing(client, body, status, words):
    response = client.post("/api/tables", json=body)
    assert response.status_code == status
    assert words in response.json()["error"]
    assert client.get("/api/tables").json()["tables"] == []


def test_every_agent_kind_can_take_a_seat(client):
    seats = make_table(client, "smuggle_v0", ["human", "rule", "random", "ismcts:sims=5"])
    assert [s["label"] for s in seats.table().summary()["seats"][1:]] == ["rule", "random", "ismcts:sims=5"]


def test_joining_names_the_seat_and_a_reconnect_keeps_the_first_name(client):
    seats = make_table(client, "smuggle_v0", ["human", "rule", "rule"])
    first = seats.join(0, "  Ann   Lee ")
    assert first["name"] == "Ann Lee" and len(first["session"]) == 16
    again = seats.join(0, "Someone else")
    assert again["name"] == "Ann Lee" and again["session"] != first["session"]
    assert seats.view(0)["players"][0]["label"] == "Ann Lee"


def test_the_seat_view_shows_its_own_cards_and_the_decision_it_has(client):
    seats = make_table(client, "smuggle_v0", ["rule", "human", "rule"], seed=3)
    seats.join(1, "Ann")
    view = wait_for_humans(seats)
    assert view["viewer"] == 1 and view["to_move"] == 1
    hand = next(z for z in view["zones"] if z["title"] == "Your hand")
    assert sum(c["count"] for c in hand["cards"]) == 4  # the player left of the Officer draws four
    assert view["decision"]["kind"] == "declare"
    assert len(view["decision"]["options"]) == 495 and view["decision"]["bag"] == 495
    assert view["table_text"] == seats.table().state.render(1)


def test_a_legal_action_is_applied_and_the_bots_answer(client):
    seats = make_table(client, "smuggle_v0", ["rule", "human", "rule"], seed=3)
    seats.join(1, "Ann")
    view = wait_for_humans(seats)
    declaration = view["decision"]["options"][0][0]  # [id, counts]
    response = seats.act(1, declaration, revision=view["revision"])
    assert response.status_code == 200
    assert response.json()["log"][-1] == {"n": view["revision"], "seat": 1, "text": "declare nothing"}
    table = seats.table()
    assert table.state.history[view["revision"]] == declaration
    later = wait_for_humans(seats)
    assert later["revision"] > view["revision"] + 1  # the bots moved after the person


def test_long_polling_waits_for_a_change_and_returns_the_new_view(client):
    seats = make_table(client, "smuggle_v0", ["human", "rule", "rule"], seed=3)
    seats.join(0, "Ann")
    view = wait_for_humans(seats)
    same = client.get(seats.path(0, "view") + f"?after={view['version']}&wait=0.2", headers=seats.headers(0))
    assert same.json()["version"] == view["version"]  # nothing happened: the same view after the wait
    assert client.get(seats.path(0, "view") + "?wait=99", headers=seats.headers(0)).status_code == 422
    assert client.get(seats.path(0, "view") + "?after=x", headers=seats.headers(0)).status_code == 422


def test_watching_is_for_tables_without_people(client):
    seats = make_table(client, "smuggle_v0", ["human", "rule", "rule"])
    response = client.get(f"/api/tables/{seats.id}/watch")
    assert response.status_code == 403 and "human seats" in response.json()["error"]
    bots = make_table(client, "ciq_v0", ["random", "random"], bot_delay=0.2)  # watched early on
    view = client.get(f"/api/tables/{bots.id}/watch").json()
    table = bots.table()  # the bots play on: rebuild the position the view was taken at
    state = table.game.new_initial_state(table.seed)
    for action in table.state.history[: view["revision"]]:
        state.apply_action(action)
    assert view["viewer"] is None and view["table_text"] == state.render()
    assert {"P0 random: hand", "P1 random: hand"} <= {z["title"] for z in view["zones"]}


def test_a_whole_game_with_people_and_bots_is_stored_and_replays(client):
    seats = make_table(client, "smuggle_v0", ["human", "rule", "human", "random"], seed=11)
    seats.join(0, "Ann")
    seats.join(2, "Bob")
    play_random_humans(seats, random.Random(0), limit=5000)
    table = seats.table()
    assert table.status == "finished" and table.game_id is not None
    final = seats.view(0)
    assert final["status"] == "over" and final["decision"] is None and final["result"]["scores"]
    stored = client.get("/api/games").json()["games"][0]
    assert stored["id"] == table.game_id and stored["source"] == "app"
    assert stored["seating"] == ["human:Ann", "rule", "human:Bob", "random"]
    assert stored["scores"] == [float(s) for s in table.state.scores()]
    full = client.get(f"/api/games/{table.game_id}").json()
    assert full["step"] == full["steps"] == len(table.state.history)
    marks = {e["mark"] for e in full["log"]}
    assert {"true", "false"} & marks  # every declaration is marked true or false
    assert marks <= {None, "true", "false", "caught", "truthful: not caught", "real bag"}
    middle = client.get(f"/api/games/{table.game_id}?step=10&view=2").json()
    assert middle["step"] == 10 and middle["viewer"] == 2 and len(middle["log"]) == 10
    assert all("mark" not in e for e in middle["log"])  # a seat's replay has no marks of the truth
    assert client.get(f"/api/games/{table.game_id}?step=100000").status_code == 422
    assert client.get(f"/api/games/{table.game_id}?view=9").status_code == 422
    assert client.get("/api/games/999999").status_code == 404


def test_the_pages_are_served(client):
    for path in ("/", "/play/abc/0", "/watch/abc", "/replay/1", "/static/play.js", "/static/app.css"):
        response = client.get(path)
        assert response.status_code == 200 and response.text.strip()


def test_a_page_asks_only_for_the_log_it_lacks(client):
    seats = make_table(client, "smuggle_v0", ["human", "rule", "rule"], seed=3)
    seats.join(0, "Ann")
    play_random_humans(seats, random.Random(5), limit=3)
    full = seats.view(0)
    assert full["log_from"] == 0 and len(full["log"]) == full["revision"] > 5
    tail = client.get(seats.path(0, "view") + "?log_from=4", headers=seats.headers(0)).json()
    assert tail["log_from"] == 4 and full["log"][:4] + tail["log"] == full["log"]
    assert [o for o in full["outcomes"] if o["n"] < 4] + tail["outcomes"] == full["outcomes"]
    beyond = client.get(seats.path(0, "view") + "?log_from=100000", headers=seats.headers(0)).json()
    assert beyond["log"] == [] and beyond["log_from"] == len(full["log"])
    assert client.get(seats.path(0, "view") + "?log_from=-1", headers=seats.headers(0)).status_code == 422


def test_a_declaration_lists_its_legal_ids_and_no_text_per_declaration(client):
    seats = make_table(client, "smuggle_v0", ["rule", "human", "rule"], seed=3)
    seats.join(1, "Ann")
    decision = wait_for_humans(seats)["decision"]
    table = seats.table()
    assert decision["legal"] == list(table.state.legal_actions())
    assert {o[0] for o in decision["options"]} | {a["id"] for a in decision["actions"]} == set(decision["legal"])
    from smuggle_envs.games.smuggle import actions as A

    for action, counts in decision["options"]:  # one digit a good, as the engine counts them
        assert counts == "".join(str(c) for c in A.DECLARATIONS[action])
    assert [a["id"] for a in decision["actions"]] == [decision["bag"]]  # the Bag: the one action off the counters


def test_the_listening_socket_lets_asyncio_set_tcp_nodelay():
    import socket

    from training.web.server import bind

    sock = bind("127.0.0.1", 0)
    try:
        assert sock.proto == socket.IPPROTO_TCP  # asyncio sets TCP_NODELAY only for such sockets
    finally:
        sock.close()
