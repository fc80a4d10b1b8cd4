"""What a client may seat: the operator's allowed agents only, never a file on the server, and
bounded work (simulations, a time budget per decision, tables per client); a bot whose table
ends stops thinking."""

from __future__ import annotations

import json
import shutil
import sqlite3
import threading
import time
import urllib.error
import urllib.request

import pytest
from starlette.testclient import TestClient

from agents.zoo import manifest, zoo_dir
from training.web.app import create_app
from training.web.limits import ServeLimits, models_in

from .conftest import BASE, make_table


def create(client, seats, env_id="smuggle_v0", **extra):
    return client.post("/api/tables", json={"env_id": env_id, "seats": seats, "seed": 1, "bot_delay": 0, **extra})


def refusal(response, status=422):
    assert response.status_code == status, response.text
    message = response.json()["error"]
    assert "\n" not in message and len(message) <= 240
    return message


@pytest.fixture
def model_file(tmp_path):
    """A real model (the zoo's Smuggle .npz) somewhere on the server's disk."""
    entry = manifest()["smuggle_v0@4"] if "smuggle_v0@4" in manifest() else next(iter(manifest().values()))
    path = tmp_path / "secret" / "mine.npz"
    path.parent.mkdir()
    shutil.copy(zoo_dir() / entry["file"], path)
    return path


@pytest.mark.parametrize(
    "spec",
    [
        "ppo:/etc/passwd",
        "ppo:../../runs/model.zip",
        "ppo_argmax:/tmp/x.zip",
        "zoo:/etc/passwd",
        "zoo:../agents",
        "rule:/tmp",
        "evil",
        "ismcts:sims=1000000000",
        "ismcts:seconds=3600",
        "ismcts:rollout_depth=100000000",
        "ismcts:sims=5;prior=ppo:/etc/passwd",
        "ismcts:sims=5;value=ppo:../../runs/model.zip",
        "ismcts:sims=5;value=zoo;value_playout=100000000",
        "pimc:worlds=1000;sims=1000",
        "x" * 5000,
    ],
)
def test_a_client_cannot_name_a_file_or_buy_unbounded_work(client, db_path, spec):
    before = client.get("/api/tables").json()
    message = refusal(create(client, ["human", spec, "rule"]))
    assert "/etc" not in message and "passwd" not in message and "runs/" not in message
    assert client.get("/api/tables").json() == before  # nothing was made


def test_a_refusal_does_not_tell_whether_a_server_file_exists(client, model_file):
    real = refusal(create(client, ["human", f"ppo:{model_file}", "rule", "rule"]))
    missing = refusal(create(client, ["human", f"ppo:{model_file.parent}/none.npz", "rule", "rule"]))
    folder = refusal(create(client, ["human", f"ppo:{model_file.parent}", "rule", "rule"]))
    assert real == missing == folder and "seat 1" in real
    assert "mine" not in real and str(model_file.parent) not in real


def test_operator_models_are_offered_by_name(db_path, model_file):
    limits = ServeLimits(models=models_in(model_file.parent))
    with TestClient(create_app(db_path, limits=limits), base_url=BASE) as client:
        envs = client.get("/api/envs").json()
        assert envs["limits"]["models"] == ["mine"] and "ppo:mine" in envs["agent_specs"]
        assert str(model_file.parent) not in str(envs)
        made = create(client, ["human", "ppo:mine", "ppo_argmax:mine", "rule"])
        assert made.status_code == 201, made.text
        message = refusal(create(client, ["human", "ppo:other", "rule", "rule"]))
        assert "offers: mine" in message
        message = refusal(create(client, ["human", "ppo:mine", "rule"], env_id="ciq_v0"))  # wrong game
        assert "cannot play" in message and str(model_file) not in message


def test_the_operator_sets_the_bounds(db_path):
    limits = ServeLimits(max_sims=50, max_depth=20, bot_seconds=1.0)
    with TestClient(create_app(db_path, limits=limits), base_url=BASE) as client:
        assert client.get("/api/envs").json()["limits"]["max_depth"] == 20
        assert "at most 50 simulations" in refusal(create(client, ["human", "ismcts:sims=51", "rule"]))
        assert "at most 20" in refusal(create(client, ["human", "ismcts:sims=5;rollout_depth=21", "rule"]))
        assert "at most 1" in refusal(create(client, ["human", "ismcts:sims=5;seconds=2", "rule"]))
        big_batch = "ismcts:sims=10;seconds=1;prior=zoo;value=zoo;leaf_batch=51"  # a whole batch runs before the clock
        assert "leaf_batch is at most 50" in refusal(create(client, ["human", big_batch, "rule"]))
        made = create(client, ["human", "ismcts:sims=50;rollout_depth=20;seconds=1", "rule"])
        assert made.status_code == 201, made.text


def test_models_in_refuses_a_folder_without_models(tmp_path):
    with pytest.raises(ValueError, match="not a folder"):
        models_in(tmp_path / "none")
    with pytest.raises(ValueError, match="holds no"):
        models_in(tmp_path)


def test_the_built_in_kinds_within_bounds_are_accepted(client):
    for spec in ("rule", "random", "zoo", "ismcts:sims=20", "pimc:worlds=5;sims=2", "ismcts:seconds=1"):
        response = create(client, ["human", spec, "random", "rule"])
        assert response.status_code == 201, (spec, response.text)


def test_bot_tables_per_client_are_limited(db_path):
    limits = ServeLimits(max_bot_tables=2)
    with TestClient(create_app(db_path, limits=limits), base_url=BASE) as client:
        first = make_table(client, "smuggle_v0", ["human", "rule", "rule"])
        make_table(client, "smuggle_v0", ["human", "rule", "rule"])
        message = refusal(create(client, ["human", "rule", "rule"]), 429)
        assert "tables with bots" in message
        assert create(client, ["human", "human", "human"]).status_code == 201  # people only: not counted
        closed = client.post(f"/api/tables/{first.id}/close", json={}, headers={"X-Owner-Token": first.owner})
        assert closed.status_code == 200, closed.text
        assert create(client, ["human", "rule", "rule"]).status_code == 201  # room again


class Searching:
    """A search bot that thinks until told to stop (by the server's ``stop``), counting."""

    def __init__(self) -> None:
        self.stop = None
        self.started = threading.Event()
        self.finished = threading.Event()
        self.iterations = 0

    def act_in(self, view):
        self.started.set()
        while not (self.stop is not None and self.stop()):
            self.iterations += 1
            time.sleep(0.001)
        self.finished.set()
        return view.legal_actions()[0]


def test_a_bot_thinking_when_its_table_is_closed_stops(db_path):
    bot = Searching()
    limits = ServeLimits(bot_seconds=60)

    def factory(spec, game, seed):
        return bot, spec

    with TestClient(create_app(db_path, limits=limits, agent_factory=factory), base_url=BASE) as client:
        response = create(client, ["search", "human"], env_id="ciq_v0")
        assert response.status_code == 201
        table = response.json()
        assert bot.started.wait(10)
        closed = client.post(f"/api/tables/{table['id']}/close", json={}, headers={"X-Owner-Token": "wrong"})
        assert refusal(closed, 403)
        closed = client.post(
            f"/api/tables/{table['id']}/close", json={}, headers={"X-Owner-Token": table["owner_token"]}
        )
        assert closed.status_code == 200 and closed.json()["status"] == "ended"
        assert bot.finished.wait(5)  # stopped at once, not after its 60 s budget
        live = client.app.state.registry.get(table["id"])
        assert live.state.history == [] and live.note == "closed by its creator"
        again = client.post(
            f"/api/tables/{table['id']}/close", json={}, headers={"X-Owner-Token": table["owner_token"]}
        )
        assert refusal(again, 409)


def test_a_bot_decision_stops_at_its_time_budget(db_path):
    bot = Searching()
    limits = ServeLimits(bot_seconds=0.3)

    def factory(spec, game, seed):
        return bot, spec

    with TestClient(create_app(db_path, limits=limits, agent_factory=factory), base_url=BASE) as client:
        started = time.monotonic()
        table = create(client, ["search", "human"], env_id="ciq_v0").json()
        assert bot.finished.wait(10)
        assert time.monotonic() - started < 5
        live = client.app.state.registry.get(table["id"])
        deadline = time.monotonic() + 5
        while not live.state.history and time.monotonic() < deadline:
            time.sleep(0.02)
        assert len(live.state.history) == 1  # it played its best move so far


def test_the_real_search_bot_obeys_stop():
    from agents.base import decide
    from agents.search import ISMCTSAgent, PIMCAgent
    from smuggle_envs import make_game

    game = make_game("smuggle_v0", num_players=3)
    state = game.new_initial_state(seed=4)
    while len(state.legal_actions()) < 2:  # a real choice, so that the search runs
        state.apply_action(state.legal_actions()[0])
    for cls, options in ((ISMCTSAgent, {"sims": 10_000}), (PIMCAgent, {"worlds": 10_000})):
        agent = cls(game, seed=1, **options)
        calls = []
        agent.stop = lambda calls=calls: calls.append(1) or len(calls) > 3
        decide(agent, state, state.current_player())
        assert 0 < agent.iterations < 100, cls  # stopped early, by the hook


def test_the_bot_table_cap_survives_a_restart(db_path):
    limits = ServeLimits(max_bot_tables=2)
    with TestClient(create_app(db_path, limits=limits), base_url=BASE) as client:
        for _ in range(2):
            make_table(client, "smuggle_v0", ["human", "rule", "rule"])
    with TestClient(create_app(db_path, limits=limits), base_url=BASE) as client:
        assert len(client.app.state.restored) == 2
        assert "tables with bots" in refusal(create(client, ["human", "rule", "rule"]), 429)
    stored = sqlite3.connect(db_path).execute("SELECT creator FROM web_tables").fetchall()
    assert all(len(c) == 32 and "testclient" not in c for (c,) in stored)  # a hash, never the address


def test_an_ended_table_keeps_no_trace_of_its_creator(client, db_path):
    seats = make_table(client, "smuggle_v0", ["human", "rule", "rule"])
    row = "SELECT creator FROM web_tables WHERE id = ?"
    assert sqlite3.connect(db_path).execute(row, (seats.id,)).fetchone()[0] != ""
    assert (
        client.post(f"/api/tables/{seats.id}/close", json={}, headers={"X-Owner-Token": seats.owner}).status_code == 200
    )
    assert sqlite3.connect(db_path).execute(row, (seats.id,)).fetchone()[0] == ""


def serve_in_thread(db_path, limits: ServeLimits, proxy_from: tuple[str, ...] = ()):
    """uvicorn on a free loopback port, in a thread; returns (url, stop)."""
    from training.web.server import bind, make_server, url_of

    app = create_app(db_path, limits=limits)
    sock = bind("127.0.0.1", 0)
    server = make_server(app, proxy_from=proxy_from)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.02)

    def stop() -> None:
        server.should_exit = True
        thread.join(30)

    return url_of(sock, "127.0.0.1"), stop


def post_table(url: str, forwarded: str) -> int:
    body = json.dumps({"env_id": "smuggle_v0", "seats": ["human", "rule", "rule"], "seed": 1, "bot_delay": 0})
    headers = {"Content-Type": "application/json", "X-Forwarded-For": forwarded}
    request = urllib.request.Request(url + "api/tables", data=body.encode(), headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_a_client_cannot_choose_its_address_with_a_forwarded_header(db_path):
    url, stop = serve_in_thread(db_path, ServeLimits(max_bot_tables=1))
    try:
        assert post_table(url, "10.9.8.1") == 201
        assert post_table(url, "10.9.8.7") == 429  # the same loopback client, whatever it claims
    finally:
        stop()


def test_behind_a_named_proxy_the_forwarded_address_counts(db_path):
    url, stop = serve_in_thread(db_path, ServeLimits(max_bot_tables=1), proxy_from=("127.0.0.1",))
    try:
        assert post_table(url, "10.9.8.1") == 201
        assert post_table(url, "10.9.8.1") == 429
        assert post_table(url, "10.9.8.7") == 201  # another client behind the proxy
    finally:
        stop()


def test_a_table_without_a_move_closes_and_stops_counting(db_path):
    limits = ServeLimits(max_tables=2, table_idle_minutes=5)
    with TestClient(create_app(db_path, limits=limits), base_url=BASE) as client:
        assert client.get("/api/envs").json()["table_idle_minutes"] == 5
        old = make_table(client, "smuggle_v0", ["human", "human", "human"])
        make_table(client, "smuggle_v0", ["human", "human", "human"])
        assert refusal(create(client, ["human", "human", "human"]), 429)
        old.table().moved_at -= 6 * 60  # six minutes without a move
        assert create(client, ["human", "human", "human"]).status_code == 201
        listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
        assert listed[old.id]["status"] == "ended" and "5 minutes without a move" in listed[old.id]["note"]
        assert old.act(0, 0).status_code == 409
    stored = sqlite3.connect(db_path).execute("SELECT status FROM web_tables WHERE id = ?", (old.id,)).fetchone()
    assert stored == ("ended",)


def test_idle_tables_never_close_when_the_operator_says_0(db_path):
    with TestClient(create_app(db_path, limits=ServeLimits(table_idle_minutes=0)), base_url=BASE) as client:
        old = make_table(client, "smuggle_v0", ["human", "human", "human"])
        old.table().moved_at -= 10**7
        assert client.app.state.registry.expire_idle() == [] and old.table().status == "playing"
    with pytest.raises(ValueError, match="table-idle-minutes"):
        ServeLimits(table_idle_minutes=-1)


OPERATOR = "operator-secret-0123456789"


def test_the_operator_token_guards_making_closing_and_listing(db_path):
    with TestClient(create_app(db_path, operator_token=OPERATOR), base_url=BASE) as client:
        assert client.get("/api/envs").json()["operator_required"] is True
        assert "operator token" in refusal(create(client, ["human", "rule", "rule"]), 401)
        wrong = {"X-Operator-Token": "guess"}
        assert refusal(
            client.post("/api/tables", json={"env_id": "smuggle_v0", "seats": ["human"]}, headers=wrong), 403
        )
        for path in ("/api/tables", "/api/games"):
            refusal(client.get(path), 401)
            refusal(client.get(path, headers=wrong), 403)
        assert client.app.state.registry.tables == {}
        operator = {"X-Operator-Token": OPERATOR}
        body = {"env_id": "smuggle_v0", "seats": ["human", "rule", "rule"], "seed": 1, "bot_delay": 0}
        made = client.post("/api/tables", json=body, headers=operator).json()
        seat = made["seats"][0]
        path = f"/api/tables/{made['id']}/seats/0"
        joined = client.post(path + "/join", json={"name": "Ann"}, headers={"X-Seat-Token": seat["token"]})
        assert joined.status_code == 200  # a seat's link needs no operator token
        close = f"/api/tables/{made['id']}/close"
        refusal(client.post(close, json={}, headers={"X-Owner-Token": made["owner_token"]}), 401)
        assert client.get("/api/tables", headers=operator).json()["tables"][0]["status"] == "playing"
        done = client.post(close, json={}, headers={**operator, "X-Owner-Token": made["owner_token"]})
        assert done.status_code == 200 and done.json()["status"] == "ended"


def test_without_an_operator_token_the_lobby_is_open(client):
    assert client.get("/api/envs").json()["operator_required"] is False
    assert create(client, ["human", "rule", "rule"]).status_code == 201
