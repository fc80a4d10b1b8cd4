"""The ``llm:`` agent in the tools: its records stored with each game of a tournament (the
``agent_calls`` table), reported and exported by ``smuggle analyze``, the agent usable in
``smuggle match`` and as an ``exploit`` target, and offered by ``smuggle serve`` only as the
operator listed it (``--llm``). The model is a scripted server on 127.0.0.1 (``tests/_llm_mock.py``)."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # the mock server is imported as tests._llm_mock
    sys.path.insert(0, str(ROOT))

from agents.base import decide  # noqa: E402
from agents.llm import LLMAgent  # noqa: E402
from smuggle_envs import GameSpec, make_game  # noqa: E402
from tests._llm_mock import MockLLM, Reply  # noqa: E402
from training.analytics import calls_report  # noqa: E402
from training.db import AgentEntry, TournamentDB  # noqa: E402
from training.match import build_agent  # noqa: E402
from training.scheduled import ScheduledGame  # noqa: E402
from training.web.errors import TableError  # noqa: E402
from training.web.limits import ServeLimits, build, check_spec, llm_offers  # noqa: E402


@pytest.fixture(autouse=True)
def _no_key(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)


# ----- tournaments and analyze --------------------------------------------------------------------
def test_a_tournament_stores_the_calls_and_analyze_reports_and_exports_them(tmp_path, run_cli, capsys):
    db = str(tmp_path / "r.sqlite")
    script = ["1", "not a move", "2", Reply("3", usage=(50, 2))]
    with MockLLM(script) as llm:
        spec = llm.spec(max_retries=1, fallback="first")
        argv = ["tournament", "ciq_v0", "--players", "2", "--agents", f"{spec},random", "--games", "2"]
        assert run_cli([*argv, "--workers", "1", "--db", db, "--quiet", "--no-plots"]) == 0
    capsys.readouterr()
    with TournamentDB(db, readonly=True) as store:
        games = {g.id: g for g in store.games(1)}
        calls = list(store.agent_calls())
    assert len(calls) == len(llm.requests) - 1  # one decision asked twice (the malformed answer)
    assert {c["agent"] for c in calls} == {spec}
    for c in calls:  # each record sits at its step of the stored game, in the seat the agent had
        game = games[c["game_id"]]
        assert game.actions[c["step"]] == c["action"] and game.seating[c["seat"]] == spec
        assert c["game_seed"] == game.seed and c["env_id"] == "ciq_v0" and c["model"] == "mock"
    assert calls[1]["parse_failures"] == 1 and calls[1]["retries"] == 1 and calls[1]["fallback"] is None
    assert calls[2]["prompt_tokens"] == 50

    out = tmp_path / "calls.jsonl"
    assert run_cli(["analyze", db, "--no-plots", "--out", str(tmp_path), "--calls-out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "agent calls (models asked for their moves):" in printed
    report = printed.split("agent calls (models asked for their moves):")[1]
    row = next(line for line in report.splitlines() if line.startswith(spec))
    assert row.split()[1:6] == [str(len(calls)), "1", "1", "0", "0"]  # decisions, parse failures, retries...
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(x["game_id"], x["step"]) for x in lines] == [(c["game_id"], c["step"]) for c in calls]
    assert lines[0]["messages"][0]["role"] == "system" and "game_seed" in lines[0]


@pytest.mark.parametrize("env_id", ["smuggle_v0", "illegal_v0", "humble_smuggle_v0", "import_export_v0"])
def test_every_game_stores_and_reports_its_calls(tmp_path, run_cli, capsys, env_id):
    """One game of each other game (CIQ: above), the mock answering "1" at once."""
    from training.tournament.runner import resolve_agents, run_tournament

    db = str(tmp_path / "r.sqlite")
    spec = GameSpec(env_id, {"num_players": make_game(env_id).min_players})
    game = spec.make_game()
    with MockLLM() as llm, TournamentDB(db) as store:
        agents = resolve_agents(game, [llm.spec()] + ["random"] * (game.num_players - 1))
        seats = tuple(range(game.num_players))
        one_game = [ScheduledGame(0, 0, 3, seats, seats)]  # one game, not a whole rotation: a short test
        tournament, _ = store.find_or_create(spec, agents, 1, 3, one_game)
        assert run_tournament(store, tournament, workers=1, progress=False).played == 1
        calls = list(store.agent_calls())
    assert len(calls) == len(llm.requests) > 0 and all(c["fallback"] is None for c in calls)
    capsys.readouterr()
    assert run_cli(["analyze", db, "--no-plots", "--out", str(tmp_path)]) == 0
    report = capsys.readouterr().out.split("agent calls (models asked for their moves):")[1]
    assert next(line for line in report.splitlines() if line.startswith("llm:")).split()[1] == str(len(calls))


def test_analyze_says_nothing_of_calls_where_no_agent_kept_records(tmp_path, analyze_small_tournament):
    assert "agent calls" not in analyze_small_tournament("ciq_v0")


def _tournament(store: TournamentDB) -> tuple:
    spec = GameSpec("ciq_v0", {"num_players": 2})
    agents = [AgentEntry("a", "rule", "rule"), AgentEntry("b", "random", "random")]
    schedule = [ScheduledGame(0, 0, 5, (0, 1), (0, 1))]
    tournament, _ = store.find_or_create(spec, agents, 1, 0, schedule)
    return tournament, schedule[0]


def test_any_agents_records_are_stored_once_with_their_game(tmp_path):
    result = {"scores": [1.0, 0.0], "ranks": [1.0, 2.0], "actions": [3, 4, 5], "terminal": True, "duration": 0.1}
    sparse = {"seat": 1, "step": 2, "note": "a record with few fields", "latency_s": 0.25}
    with TournamentDB(tmp_path / "r.sqlite") as store:
        tournament, scheduled = _tournament(store)
        assert store.insert_game(tournament, scheduled, {**result, "calls": [sparse]})
        assert not store.insert_game(tournament, scheduled, {**result, "calls": [sparse]})  # stored once
        [call] = store.agent_calls(tournament.id)
    assert (call["agent"], call["seat"], call["step"], call["note"]) == ("b", 1, 2, "a record with few fields")
    assert (call["retries"], call["fallback"], call["prompt_tokens"], call["messages"]) == (0, None, None, [])
    assert calls_report([call]).splitlines()[-1].split() == ["b", "1", "0", "0", "0", "0", "0", "0", "0.250", "0.250"]


def test_a_database_older_than_the_calls_table_reads_as_none(tmp_path):
    path = tmp_path / "old.sqlite"
    with TournamentDB(path) as store:
        _tournament(store)
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TABLE agent_calls")
    with TournamentDB(path, readonly=True) as store:
        assert list(store.agent_calls()) == []


# ----- match and exploit ----------------------------------------------------------------------------
def test_smuggle_match_seats_an_llm(capsys):
    from training.cli import main

    with MockLLM() as llm:
        assert main(["match", "ciq_v0", "--agents", f"{llm.spec()},random", "--games", "1", "--quiet"]) == 0
    assert llm.requests and "=== results: 1 games" in capsys.readouterr().out


def test_an_llm_builds_as_an_exploit_target_or_fails_in_one_line():
    from training.errors import UsageError

    game = make_game("ciq_v0")
    agent, label = build_agent("llm:model=m;base_url=http://127.0.0.1:9/v1", game, seed=0)
    assert isinstance(agent, LLMAgent) and label == "llm:model=m;base_url=http://127.0.0.1:9/v1"
    with pytest.raises(UsageError, match=r"cannot build agent 'llm:' for ciq_v0: .*needs a model"):
        build_agent("llm:", game)


# ----- the web app -----------------------------------------------------------------------------------
def test_the_operator_names_the_llms_clients_may_seat():
    spec = "llm:model=qwen2.5-7b;base_url=http://127.0.0.1:9/v1;api_key_env=HOME"
    offers = llm_offers([spec, "fast=llm:model=qwen2.5-7b;temperature=0.7"])
    assert offers == {"qwen2.5-7b": spec, "fast": "llm:model=qwen2.5-7b;temperature=0.7"}
    limits = ServeLimits(llms=offers)
    assert limits.public()["llms"] == ["fast", "qwen2.5-7b"] and "llm:fast" in limits.specs()
    assert "127.0.0.1" not in json.dumps(limits.public())
    assert check_spec("llm:fast", limits, 1) == "llm:fast"
    agent, label = build("llm:qwen2.5-7b", make_game("ciq_v0"), 7001, limits)
    assert isinstance(agent, LLMAgent) and label == "llm:qwen2.5-7b"
    assert agent.base_url == "http://127.0.0.1:9/v1"  # the operator's endpoint, never the client's


@pytest.mark.parametrize(
    "seat",
    ["llm:other", "llm:model=m;base_url=http://127.0.0.1:9/v1", "llm:model=m;api_key_env=HOME", "llm", "llm:"],
)
def test_a_client_cannot_seat_an_llm_the_operator_did_not_list(seat):
    limits = ServeLimits(llms={"fast": "llm:model=m"})
    with pytest.raises(TableError, match=r"seat 2: llm takes the name of a language model this server offers: fast"):
        check_spec(seat, limits, 2)
    with pytest.raises(TableError, match=r"operator listed no --llm"):
        check_spec("llm:fast", ServeLimits(), 2)


@pytest.mark.parametrize(
    ("texts", "words"),
    [
        (["llm:temperature=1"], "needs a model"),
        (["ppo:x.zip"], "give an llm: spec"),
        (["llm:model=a b"], "must be letters, digits"),
        (["llm:model=m", "llm:model=m;temperature=1"], "is given twice"),
        (["llm:model=m;colour=red"], "unknown option 'colour'"),
    ],
)
def test_bad_llm_offers_are_refused(texts, words):
    with pytest.raises(ValueError, match=words):
        llm_offers(texts)


def test_smuggle_serve_refuses_a_bad_llm_in_one_line(tmp_path, capsys):
    from training.cli import main

    assert main(["serve", "--port", "0", "--db", str(tmp_path / "g.sqlite"), "--llm", "llm:base_url=x"]) == 2
    err = capsys.readouterr().err
    assert "needs a model" in err and err.count("\n") == 1


def test_a_web_table_seats_the_operators_llm_and_it_plays(tmp_path):
    from starlette.testclient import TestClient

    from training.web.app import create_app

    with MockLLM() as llm:
        limits = ServeLimits(llms={"mock": llm.spec()})
        with TestClient(create_app(tmp_path / "g.sqlite", limits=limits), base_url="http://localhost") as client:
            body = {"env_id": "ciq_v0", "seats": ["human", "llm:mock"], "seed": 1, "bot_delay": 0}
            assert client.post("/api/tables", json=body).status_code == 201
            body["seats"] = ["human", "llm:model=mock;base_url=http://127.0.0.1:1/v1"]
            refused = client.post("/api/tables", json=body)
            assert refused.status_code == 422 and "127.0.0.1" not in refused.text
        state = make_game("ciq_v0", num_players=2).new_initial_state(1)
        agent, _ = build("llm:mock", state.game, 1001, limits)
        assert decide(agent, state, state.current_player()) in state.legal_actions()
    assert llm.requests
