"""Human data for research (``smuggle export-human``, ``analyze`` and ``replay`` over the app's
database) and the ``smuggle serve`` command itself."""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import numpy as np
import pytest

from smuggle_envs import make_game
from training.cli import main
from training.db import TournamentDB

from .conftest import BASE, make_table, play_random_humans

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def played(client, db_path):
    """A finished 4-player Smuggle game: Ann and Bob against a rule bot and a random one."""
    seats = make_table(client, "smuggle_v0", ["human", "rule", "human", "random"], seed=13)
    seats.join(0, "Ann")
    seats.join(2, "Bob")
    decisions = play_random_humans(seats, random.Random(2), limit=5000)
    assert seats.table().status == "finished"
    return seats, decisions


def test_export_human_writes_every_human_decision_with_its_full_state(played, db_path, tmp_path, capsys):
    seats, decisions = played
    out = tmp_path / "human.jsonl"
    assert main(["export-human", str(db_path), "--jsonl", str(out)]) == 0
    assert f"wrote {decisions} human decision(s)" in capsys.readouterr().out
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == decisions > 10
    game = make_game("smuggle_v0", **rows[0]["config"])
    table = seats.table()
    for row in rows:
        assert row["table_id"] == seats.id and row["game_id"] == table.game_id
        assert row["name"] == {0: "Ann", 2: "Bob"}[row["seat"]] and len(row["session"]) == 16
        # the full hidden state: replaying the history rebuilds the exact position
        state = game.new_initial_state(row["seed"])
        for action in row["history"]:
            state.apply_action(action)
        assert len(row["history"]) == row["decision"]
        assert state.current_player() == row["seat"]
        assert list(state.legal_actions()) == row["legal_actions"] and row["action"] in row["legal_actions"]
        assert np.allclose(state.observation(row["seat"]), row["observation"])
        assert row["state_text"] == state.render() and row["action_text"] == state.action_to_string(row["action"])
        assert row["seconds"] >= 0 and row["decided_at"] >= row["asked_at"]
    assert [r["history"] + [r["action"]] for r in rows][-1] == table.state.history[: rows[-1]["decision"] + 1]


def test_analyze_and_replay_read_the_apps_games_with_their_human_seats(played, db_path, tmp_path, capsys):
    seats, _ = played
    capsys.readouterr()
    assert main(["analyze", str(db_path), "--no-plots", "--out", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "human:Ann" in text and "human:Bob" in text and "1 of 1 games stored" in text
    game_id = seats.table().game_id
    assert main(["replay", str(db_path), str(game_id), "--seat", "0"]) == 0
    assert "seats: P0 human:Ann, P1 rule, P2 human:Bob, P3 random" in capsys.readouterr().out


def test_export_human_refuses_a_missing_file_and_a_plain_tournament_database(tmp_path, capsys):
    out = tmp_path / "out.jsonl"
    assert main(["export-human", str(tmp_path / "none.sqlite"), "--jsonl", str(out)]) == 2
    assert "no database file" in capsys.readouterr().err
    TournamentDB(tmp_path / "t.sqlite").close()
    assert main(["export-human", str(tmp_path / "t.sqlite"), "--jsonl", str(out)]) == 2
    assert "holds no human decisions" in capsys.readouterr().err
    assert not out.exists()


def test_serve_refuses_a_bad_port_a_busy_port_and_a_missing_extra(tmp_path, capsys, monkeypatch):
    db = str(tmp_path / "g.sqlite")
    assert main(["serve", "--port", "70000", "--db", db]) == 2
    assert "--port must be from 0 to 65535" in capsys.readouterr().err
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        assert main(["serve", "--port", str(port), "--db", db]) == 2
        err = capsys.readouterr().err
        assert f"cannot listen on 127.0.0.1:{port}" in err and err.count("\n") == 1
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "uvicorn" else real(name, *a))
    assert main(["serve", "--db", db]) == 2
    assert "needs uvicorn (the web extra)" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (["--models", "no/such/folder"], "is not a folder"),
        (["--bot-seconds", "0"], "bot time budget"),
        (["--max-sims", "0"], "max_sims must be at least 1"),
        (["--max-depth", "0"], "max_depth must be at least 1"),
        (["--max-bot-tables-per-client", "0"], "max_bot_tables must be at least 1"),
    ],
)
def test_smuggle_serve_refuses_bad_limits_in_one_line(tmp_path, capsys, options, words):
    assert main(["serve", "--port", "0", "--db", str(tmp_path / "g.sqlite"), *options]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_smuggle_serve_prints_its_url_and_serves(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    models = tmp_path / "models"
    models.mkdir()
    (models / "champion.npz").write_bytes(b"not loaded until a table seats it")
    argv = ["serve", "--port", "0", "--db", str(tmp_path / "g.sqlite"), "--models", str(models)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "training.cli", *argv, "--allow-host", "lab-server.test"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        assert line.startswith("smuggle serve: http://127.0.0.1:"), line
        url = line.split()[2]
        with urllib.request.urlopen(url + "api/envs", timeout=30) as response:
            envs = json.load(response)
            assert envs["envs"][0]["env_id"] == "smuggle_v0" and envs["limits"]["models"] == ["champion"]
        with urllib.request.urlopen(url, timeout=30) as response:
            assert b"New table" in response.read()
        named = urllib.request.Request(url + "api/envs", headers={"Host": "lab-server.test"})
        with urllib.request.urlopen(named, timeout=30) as response:  # --allow-host
            assert response.status == 200
        rebinding = urllib.request.Request(url + "api/envs", headers={"Host": "evil.test"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(rebinding, timeout=30)
        assert refused.value.code == 400
    finally:
        proc.terminate()
        proc.wait(30)


def test_games_stored_by_a_tournament_replay_in_the_app(tmp_path, capsys):
    db = tmp_path / "t.sqlite"
    argv = ["tournament", "smuggle_v0", "--agents", "rule,random,random", "--games", "3", "--db", str(db)]
    assert main([*argv, "--workers", "1", "--quiet", "--no-plots", "--bootstrap", "0"]) == 0
    capsys.readouterr()
    from starlette.testclient import TestClient

    from training.web.app import create_app

    with TestClient(create_app(db), base_url=BASE) as client:
        games = client.get("/api/games").json()["games"]
        assert len(games) == 3 and {g["source"] for g in games} == {"tournament"}
        game = games[0]
        full = client.get(f"/api/games/{game['id']}").json()
        assert full["steps"] == game["decisions"] and full["status"] == "over"
        assert [p["score"] for p in full["players"]] == game["scores"]
        seat = client.get(f"/api/games/{game['id']}?view=1&step=5").json()
        assert seat["viewer"] == 1 and len(seat["log"]) == 5
