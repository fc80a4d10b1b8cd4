"""The ``train`` subcommand (``training.selfplay.cli``): registration, a short run through the
handler, resume, and one-line errors for bad requests."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from smuggle_envs.core.errors import ConfigError
from training.cli import handler
from training.errors import UsageError
from training.selfplay import cli
from training.selfplay.parser import add_train

REPO = Path(__file__).resolve().parents[3]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="smuggle")
    add_train(parser.add_subparsers(dest="command", required=True))
    return parser


def test_register_adds_train_with_its_options():
    args = _parser().parse_args(
        [
            "train",
            "smuggle_v0",
            "--players",
            "3",
            "--steps",
            "1000",
            "--out",
            "x",
            "--resume",
            "--seed",
            "4",
            "--eval-games",
            "9",
            "--n-envs",
            "2",
            "--vec",
            "subprocess",
            "--imitate",
            "random",
            "--workers",
            "2",
            "--backend",
            "ray",
            "--ray-address",
            "auto",
        ]
    )
    assert handler(args.command) is cli.cmd_train
    assert (
        args.env_id,
        args.num_players,
        args.steps,
        args.out,
        args.resume,
        args.seed,
        args.final_eval_games,
        args.n_envs,
        args.vec,
        args.imitate,
    ) == ("smuggle_v0", 3, 1000, "x", True, 4, 9, 2, "subprocess", "random")
    assert (args.workers, args.backend, args.ray_address) == (2, "ray", "auto")
    defaults = _parser().parse_args(["train", "smuggle_v0"])
    assert defaults.steps is None and defaults.out is None and not defaults.resume
    with pytest.raises(SystemExit):
        _parser().parse_args(["train", "smuggle_v0", "--vec", "threads"])


def test_set_reaches_any_training_option():
    args = _parser().parse_args(
        [
            "train",
            "smuggle_v0",
            "--set",
            "baseline_share=0.3",
            "--set",
            "net_arch=[64,64]",
            "--set",
            "weighting=variance",
        ]
    )
    overrides = cli._overrides(args)
    assert overrides["baseline_share"] == 0.3 and overrides["net_arch"] == (64, 64)
    assert overrides["weighting"] == "variance"
    assert cli._overrides(_parser().parse_args(["train", "smuggle_v0", "--set", "ent_coef=0"]))["ent_coef"] == 0.0


def test_a_short_run_then_resume_with_more_steps(tmp_path, capsys):
    out = tmp_path / "run"
    base = [
        "train",
        "smuggle_v0",
        "--players",
        "3",
        "--out",
        str(out),
        "--n-envs",
        "2",
        "--eval-games",
        "4",
        "--no-progress",
        "--imitate",
        "none",
    ]
    args = _parser().parse_args(base + ["--steps", "512"])
    assert cli.cmd_train(args) == 0
    text = capsys.readouterr().out
    assert "final evaluation" in text and "trained vs 2 x random" in text and "trained vs 2 x rule" in text
    assert "95% CI" in text and (out / "final.zip").exists()
    config = json.loads((out / "config.json").read_text())
    assert config["num_players"] == 3 and config["steps"] == 512 and config["n_envs"] == 2
    assert config["imitate"] is None

    args = _parser().parse_args(base + ["--steps", "1024", "--resume"])
    assert cli.cmd_train(args) == 0
    text = capsys.readouterr().out
    assert "resuming smuggle_v0 from step 512" in text
    assert json.loads((out / "final_eval.json").read_text())["steps"] == 1024
    assert json.loads((out / "config.json").read_text())["steps"] == 1024


@pytest.mark.parametrize(
    "argv, error, match",
    [
        (["train", "nope_v0"], ConfigError, "unknown env id"),
        (["train", "smuggle_v0", "--steps", "0"], ConfigError, "steps must be a positive int"),
        (["train", "smuggle_v0", "--players", "9"], ConfigError, "num_players=9 is out of range"),
        (["train", "smuggle_v0", "--n-envs", "0"], ConfigError, "n_envs"),
        (["train", "smuggle_v0", "--resume"], UsageError, "holds no training run"),
        (["train", "smuggle_v0", "--workers", "3"], ConfigError, "must be multiples of 3"),
        (["train", "smuggle_v0", "--backend", "ray"], ConfigError, "set workers"),
        (["train", "smuggle_v0", "--workers", "2", "--ray-address", "auto"], UsageError, "needs --backend ray"),
        (["train", "smuggle_v0", "--set", "nope=1"], UsageError, "expected KEY=VALUE with KEY one of"),
        (["train", "smuggle_v0", "--set", "learning_rate"], UsageError, "expected KEY=VALUE"),
        (["train", "smuggle_v0", "--set", "learning_rate=fast"], UsageError, "expected a float"),
        (["train", "smuggle_v0", "--set", "baseline_share=2"], ConfigError, "baseline_share must be"),
        (["train", "smuggle_v0", "--set", "mixed_tables=2"], ConfigError, "mixed_tables must be"),
        (["train", "smuggle_v0", "--set", "imitation_random_share=1"], ConfigError, "imitation_random_share must be"),
        (["train", "smuggle_v0", "--set", "imitation_dagger=-1"], ConfigError, "imitation_dagger must be"),
        (["train", "smuggle_v0", "--set", "imitation_batch_size=0"], ConfigError, "imitation_batch_size must be"),
        (["train", "smuggle_v0", "--set", "imitation_learning_rate=0"], ConfigError, "imitation_learning_rate must"),
        (["train", "smuggle_v0", "--set", "imitation_learning_rate=2"], ConfigError, "imitation_learning_rate must"),
    ],
)
def test_bad_requests_are_one_line_errors(argv, error, match, tmp_path):
    args = _parser().parse_args(argv + ["--out", str(tmp_path / "r")])
    with pytest.raises(error, match=match):
        cli.cmd_train(args)


def test_existing_runs_are_not_overwritten_and_resume_keeps_their_settings(tmp_path):
    out = tmp_path / "r"
    out.mkdir()
    (out / "config.json").write_text(
        json.dumps({"env_id": "smuggle_v0", "num_players": 4, "seed": 0, "n_envs": 8, "workers": 0})
    )
    args = _parser().parse_args(["train", "smuggle_v0", "--out", str(out)])
    with pytest.raises(UsageError, match="already holds a training run"):
        cli.cmd_train(args)
    for extra, match in (
        (["--players", "3"], "num_players=4"),
        (["--seed", "1"], "seed=0"),
        (["--workers", "2"], "workers=0"),
    ):
        args = _parser().parse_args(["train", "smuggle_v0", "--out", str(out), "--resume"] + extra)
        with pytest.raises(UsageError, match=match):
            cli.cmd_train(args)
    (out / "config.json").write_text(json.dumps({"env_id": "other_v0"}))
    args = _parser().parse_args(["train", "smuggle_v0", "--out", str(out), "--resume"])
    with pytest.raises(UsageError, match="holds a other_v0 run"):
        cli.cmd_train(args)


def test_module_entry_point_prints_one_line_errors():
    result = subprocess.run(
        [sys.executable, "-m", "training.selfplay", "train", "nope_v0"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "unknown env id" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
