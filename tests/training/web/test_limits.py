"""What a client may seat: the operator's allowed agents only, never a file on the server, and
bounded work (simulations, a time budget per decision, tables per client); a bot whose table
ends stops thinking."""

from __future__ import annotations

import shutil
import threading
import time

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
