"""``smuggle train --resume`` of a PPO run refuses, on one line and before touching the folder,
a run of another game and a change to a setting fixed at the start (``_FIXED_ON_RESUME``)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from training.errors import UsageError
from training.selfplay import cli
from training.selfplay.config import TrainConfig
from training.selfplay.parser import add_train


def _resume(out: Path, env_id: str, *extra: str) -> None:
    parser = argparse.ArgumentParser(prog="smuggle")
    add_train(parser.add_subparsers(dest="command", required=True))
    cli.cmd_train(parser.parse_args(["train", env_id, "--out", str(out), "--resume", *extra]))


@pytest.mark.parametrize(
    ("env_id", "extra", "error"),
    [
        ("smuggle_v0", (), "holds a ciq_v0 run, not smuggle_v0"),
        ("ciq_v0", ("--seed", "3"), r"has seed=0; it cannot change to 3 \(start a new run instead\)"),
        ("ciq_v0", ("--players", "4"), "has num_players=None; it cannot change to 4"),
    ],
)
def test_resume_refuses_another_game_or_a_fixed_setting(tmp_path, env_id, extra, error):
    out = tmp_path / "run"
    out.mkdir()
    stored = json.dumps(TrainConfig(env_id="ciq_v0").to_dict())
    (out / "config.json").write_text(stored)
    with pytest.raises(UsageError, match=error):
        _resume(out, env_id, *extra)
    assert [p.name for p in out.iterdir()] == ["config.json"]
    assert (out / "config.json").read_text() == stored
