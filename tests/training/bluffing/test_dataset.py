"""``smuggle dataset DB --out DIR``: the claims of stored games as Parquet files, split by seed."""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
from collections import Counter
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq  # the dataset extra, installed by the test set-up
import pytest

from smuggle_envs import ENV_IDS
from training.bluffing import COLUMNS, claims
from training.bluffing.dataset import parse_splits, shared_spec, split_of
from training.cli import main
from training.db import TournamentDB
from training.errors import UsageError

from ._support import play_tournament, positions, records, store_web_game


def _dataset(db, out, *options: str) -> dict[str, list[dict]]:
    """Run the command; every split's rows by split name (the files it wrote)."""
    assert main(["dataset", str(db), "--out", str(out), *options]) == 0
    document = json.loads((out / "schema.json").read_text())
    return {name: pq.read_table(out / split["file"]).to_pylist() for name, split in document["splits"].items()}


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_the_dataset_is_the_claims_of_the_replays_row_for_row(env_id, stored, tmp_path, capsys):
    db = stored(env_id)
    splits = _dataset(db, tmp_path)
    rows = sorted((r for split in splits.values() for r in split), key=lambda r: (r["game_id"], r["step"]))
    expected = []
    for record in records(db):
        for c in claims(record.replay()):
            store = {"num_players": 3, "game_id": record.id, "source": "tournament", "seconds": None}
            store["agent_sha256"] = None  # no model file among rule and random
            expected.append(
                {**c.to_dict(), **store, "agent": record.agents[c.seat], "agent_name": record.seating[c.seat]}
            )
    assert rows == expected and rows
    assert list(rows[0]) == [c.name for c in COLUMNS if c.name != "observation"]
    document = json.loads((tmp_path / "schema.json").read_text())
    assert sum(s["rows"] for s in document["splits"].values()) == len(rows)
    assert f"{tmp_path / 'train.parquet'}: " in capsys.readouterr().out


def test_splits_hold_every_deal_in_one_split(tmp_path):
    db = play_tournament("humble_smuggle_v0", tmp_path / "t.sqlite", games=12, players=2, agents="random,random")
    splits = _dataset(db, tmp_path / "out", "--splits", "a=0.5,b=0.5")
    seeds = {name: {r["seed"] for r in rows} for name, rows in splits.items()}
    assert not seeds["a"] & seeds["b"] and seeds["a"] | seeds["b"] == {g.seed for g in records(db)}
    for name, rows in splits.items():
        assert all(split_of(r["seed"], {"a": 0.5, "b": 0.5}) == name for r in rows)
        games = {r["game_id"] for r in rows}  # a deal's both seatings with it
        assert Counter(g.seed for g in records(db) if g.id in games) == Counter({s: 2 for s in seeds[name]})


def test_the_split_of_a_seed_is_a_stable_hash_with_the_shares_asked():
    shares = {"train": 0.8, "val": 0.1, "test": 0.1}
    counts = Counter(split_of(seed, shares) for seed in range(5000))
    assert all(abs(counts[name] / 5000 - share) < 0.02 for name, share in shares.items())
    assert [split_of(s, shares) for s in range(50)] == [split_of(s, dict(shares)) for s in range(50)]


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_observations_are_the_seats_at_the_decision(env_id, stored, tmp_path):
    db = stored(env_id)
    rows = [r for split in _dataset(db, tmp_path, "--observations").values() for r in split]
    record = records(db)[0]
    states = positions(record.replay())
    mine = [r for r in rows if r["game_id"] == record.id]
    assert mine
    for r in mine:
        want = states[r["step"]].observation(r["seat"])
        assert np.array_equal(np.asarray(r["observation"], dtype=np.float32), want)


def test_human_games_come_with_their_timing(tmp_path):
    db = tmp_path / "app.sqlite"
    timing = store_web_game(db, "smuggle_v0", seed=5, humans={0: "Ann"})
    rows = [r for split in _dataset(db, tmp_path / "out").values() for r in split]
    assert rows and {r["source"] for r in rows} == {"web"}
    for r in rows:
        assert r["seconds"] == timing[r["step"]]
        assert (r["agent"], r["agent_name"]) == (("human", "human:Ann") if r["seat"] == 0 else ("random", "random"))
    assert any(r["seconds"] is not None for r in rows) and any(r["seconds"] is None for r in rows)


def test_help_shows_the_schema(capsys):
    assert main(["dataset", "--help"]) == 0
    text = capsys.readouterr().out
    for c in COLUMNS:
        assert any(line.split()[:2] == [c.name, c.type + "?" * c.nullable] for line in text.splitlines()), c.name


def _error(capsys, argv: list[str]) -> str:
    assert main(argv) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("smuggle: error: "), captured.err
    return lines[0]


def test_errors_are_one_line(tmp_path, capsys, stored):
    out = str(tmp_path / "out")
    assert "no database file" in _error(capsys, ["dataset", str(tmp_path / "none.sqlite"), "--out", out])
    assert "is a folder" in _error(capsys, ["dataset", str(tmp_path), "--out", out])
    (tmp_path / "text.sqlite").write_text("not a database")
    assert "file is not a database" in _error(capsys, ["dataset", str(tmp_path / "text.sqlite"), "--out", out])
    TournamentDB(tmp_path / "empty.sqlite").close()
    assert "holds no stored games" in _error(capsys, ["dataset", str(tmp_path / "empty.sqlite"), "--out", out])
    db = str(stored("ciq_v0"))
    for splits, why in [
        ("train=0.8,val=0.1", "sum to 1, they sum to 0.9"),
        ("train=x,test=1", "'x' is not a number"),
        ("train", "is not NAME=FRACTION"),
        ("a=0.5,a=0.5", "'a' is named twice"),
        ("a=1.5", "must be in (0, 1]"),
        ("a b=1", "is not NAME=FRACTION"),
    ]:
        assert why in _error(capsys, ["dataset", db, "--out", out, "--splits", splits])
    assert not (tmp_path / "out").exists()  # nothing written by a refused request


def test_parse_splits_keeps_the_order_given():
    assert parse_splits("test=0.25, train=0.75") == {"test": 0.25, "train": 0.75}
    with pytest.raises(UsageError):
        parse_splits("")


def test_a_shared_dataset_names_models_by_spec_and_checksum_never_by_a_path(tmp_path):
    model = tmp_path / "models" / "mine.npz"  # a model given by its absolute path
    model.parent.mkdir()
    shutil.copy(Path(__file__).resolve().parents[3] / "agents" / "zoo" / "humble_smuggle_v0-4p.npz", model)
    agents = f"ppo_argmax:{model},zoo,random,random"
    db = play_tournament("humble_smuggle_v0", tmp_path / "t.sqlite", games=4, players=4, agents=agents)
    assert any(str(model) in spec for g in records(db) for spec in g.agents)  # the store keeps the path
    out = tmp_path / "out"
    rows = [r for split in _dataset(db, out).values() for r in split]
    machine = {str(tmp_path), str(Path.home()), tempfile.gettempdir(), str(Path(__file__).resolve().parents[3])}
    for r in rows:
        for value in r.values():
            assert not any(where in str(value) for where in machine), (value, r)
    assert not any(where in (out / "schema.json").read_text() for where in machine)
    sha = hashlib.sha256(model.read_bytes()).hexdigest()[:16]
    found = {(r["agent"], r["agent_sha256"]) for r in rows}
    assert ("ppo_argmax:mine.npz", sha) in found and ("random", None) in found
    assert any(agent == "zoo" and digest and len(digest) == 16 for agent, digest in found)  # the zoo's file


def test_shared_spec_keeps_a_file_name_and_drops_its_folders():
    assert shared_spec("ppo:/home/me/runs/model.pt") == "ppo:model.pt"
    assert shared_spec("ppo:C:\\Users\\me\\model.pt") == "ppo:model.pt"
    assert shared_spec("ismcts:sims=20,net=/tmp/x/v.npz") == "ismcts:sims=20,net=v.npz"
    assert (
        shared_spec("llm:model=qwen;base_url=http://127.0.0.1:8000/v1")
        == "llm:model=qwen;base_url=http://127.0.0.1:8000/v1"
    )
    assert [shared_spec(s) for s in ("zoo", "rule", "human:Ann", "ismcts:sims=20")] == [
        "zoo",
        "rule",
        "human:Ann",
        "ismcts:sims=20",
    ]
